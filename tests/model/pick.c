/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pick.c - the random choices of the operations: numbers, offsets, names and
 * nodes of the model, all drawn from the run's GRand.
 *
 * Names come from a small alphabet so that buckets are shared and names are
 * prefixes of one another ("1" and "13e" hash to the same bucket with 201
 * buckets, as do "10" and "31"; "a" and "A" always do, the hash folds case).
 */
#include "ops.h"

#include <string.h>

/* ---- random helpers ---- */

uint32_t rnd(struct run *r, uint32_t n)
{
	return n ? (uint32_t)g_rand_int_range(r->rand, 0, (gint32)n) : 0;
}

bool chance(struct run *r, unsigned percent)
{
	return rnd(r, 100) < percent;
}

/* Uniform in [lo, hi]. */
uint64_t rnd_between(struct run *r, uint64_t lo, uint64_t hi)
{
	uint64_t v = (uint64_t)g_rand_int(r->rand) << 32 | g_rand_int(r->rand);

	return lo + v % (hi - lo + 1);
}

void ops_note(struct run *r, enum event e)
{
	r->st.events[e]++;
}

void fill_random(struct run *r, uint8_t *p, size_t len)
{
	for (size_t i = 0; i < len; i += 4) {
		guint32 v = g_rand_int(r->rand);

		memcpy(p + i, &v, len - i < 4 ? len - i : 4);
	}
}

/* Often a block boundary (or one byte either side of it), else anything up to max. */
uint64_t rnd_offset(struct run *r, uint64_t max)
{
	uint64_t bs = r->cfg->blocksize, v = rnd_between(r, 0, max);

	if (chance(r, 30)) {
		v = v / bs * bs;
		if (chance(r, 50))
			v = v + rnd(r, 3) - (v ? 1 : 0);
	}
	return v > max ? max : v;
}

/* ---- names ---- */

static const char alphabet[] = "013e57aA";

char random_char(struct run *r)
{
	return alphabet[rnd(r, sizeof(alphabet) - 1)];
}

static const char *const latin1_names[] = {
	"\xc9", "\xe9", "caf\xe9", "CAF\xc9", "\xe9t\xe9", "\xd7", "\xf7",
};

bool is_prefix(const char *a, size_t alen, const char *b, size_t blen)
{
	return alen < blen && memcmp(a, b, alen) == 0;
}

/* Pairs of crowd names in one bucket where the first is a prefix of the second. */
static void find_prefix_pairs(struct run *r)
{
	r->prefix_pairs = g_array_new(FALSE, FALSE, sizeof(struct name_pair));
	for (guint i = 0; i < r->crowd->len; i++) {
		const char *a = r->crowd->pdata[i];

		for (guint j = 0; j < r->crowd->len; j++) {
			const char *b = r->crowd->pdata[j];
			struct name_pair pair = { i, j };

			if (is_prefix(a, strlen(a), b, strlen(b)) &&
			    omfs_name_hash(a, strlen(a), r->nbuckets) ==
			    omfs_name_hash(b, strlen(b), r->nbuckets))
				g_array_append_val(r->prefix_pairs, pair);
		}
	}
	g_assert_cmpuint(r->prefix_pairs->len, >, 0);
}

/*
 * Every name of 1 to 4 characters that hashes to the bucket of "1", "a" or
 * "e": long chains, and prefix pairs in one bucket ("1" and "13e" with 201
 * buckets), which a lookup comparing only a prefix confuses.
 */
void ops_init(struct run *r)
{
	const size_t nalpha = sizeof(alphabet) - 1;
	uint32_t crowded[] = {
		omfs_name_hash("1", 1, r->nbuckets), omfs_name_hash("a", 1, r->nbuckets),
		omfs_name_hash("e", 1, r->nbuckets),
	};

	r->crowd = g_ptr_array_new_with_free_func(g_free);
	for (size_t len = 1, count = nalpha; len <= 4; len++, count *= nalpha) {
		for (size_t i = 0; i < count; i++) {
			char name[5];
			uint32_t h;

			for (size_t j = 0, v = i; j < len; j++, v /= nalpha)
				name[j] = alphabet[v % nalpha];
			name[len] = '\0';
			h = omfs_name_hash(name, len, r->nbuckets);
			if (h == crowded[0] || h == crowded[1] || h == crowded[2])
				g_ptr_array_add(r->crowd, g_strdup(name));
		}
	}
	find_prefix_pairs(r);
}

void ops_destroy(struct run *r)
{
	if (r->crowd)
		g_ptr_array_unref(r->crowd);
	if (r->prefix_pairs)
		g_array_unref(r->prefix_pairs);
	r->crowd = NULL;
	r->prefix_pairs = NULL;
}

size_t random_name(struct run *r, char *buf)
{
	size_t len;

	if (chance(r, 35)) {
		const char *n = r->crowd->pdata[rnd(r, r->crowd->len)];

		len = strlen(n);
		memcpy(buf, n, len + 1);
		return len;
	}
	if (chance(r, 4)) {
		const char *n = latin1_names[rnd(r, ARRAY_LEN(latin1_names))];

		len = strlen(n);
		memcpy(buf, n, len);
		buf[len] = '\0';
		return len;
	}
	if (chance(r, 3))
		len = chance(r, 30) ? OMFS_NAME_MAX : rnd_between(r, 200, OMFS_NAME_MAX);
	else
		len = 1 + rnd(r, 3);
	for (size_t i = 0; i < len; i++)
		buf[i] = random_char(r);
	buf[len] = '\0';
	return len;
}

/* A random name that `dir` does not hold. */
size_t missing_name(struct run *r, GNode *dir, char *buf)
{
	size_t len;

	do
		len = random_name(r, buf);
	while (model_child(dir, buf, len));
	return len;
}

size_t copy_name(GNode *n, char *buf)
{
	struct mnode *mn = mnode_of(n);

	memcpy(buf, mn->name, mn->len);
	buf[mn->len] = '\0';
	return mn->len;
}

/* ---- picking nodes ---- */

GNode *pick_dir(struct run *r)
{
	return r->m.dirs->pdata[rnd(r, r->m.dirs->len)];
}

GNode *pick_file(struct run *r)
{
	return r->m.files->len ? r->m.files->pdata[rnd(r, r->m.files->len)] : NULL;
}

/* Any node but the root. */
GNode *pick_node(struct run *r)
{
	guint nf = r->m.files->len, nd = r->m.dirs->len - 1;
	guint i = rnd(r, nf + nd);

	if (nf + nd == 0)
		return NULL;
	return i < nf ? r->m.files->pdata[i] : r->m.dirs->pdata[1 + (i - nf)];
}

GNode *pick_child(struct run *r, GNode *dir)
{
	guint n = g_node_n_children(dir);

	return n ? g_node_nth_child(dir, rnd(r, n)) : NULL;
}

/* A directory other than the root that is (or is not) empty, or NULL. */
GNode *pick_dir_where(struct run *r, bool empty)
{
	GPtrArray *c = g_ptr_array_new();
	GNode *n = NULL;

	for (guint i = 1; i < r->m.dirs->len; i++)
		if (model_dir_is_empty(r->m.dirs->pdata[i]) == empty)
			g_ptr_array_add(c, r->m.dirs->pdata[i]);
	if (c->len)
		n = c->pdata[rnd(r, c->len)];
	g_ptr_array_unref(c);
	return n;
}

/* A directory inside `top` (or top itself). */
GNode *pick_dir_below(struct run *r, GNode *top)
{
	GPtrArray *c = g_ptr_array_new();
	GNode *n;

	for (guint i = 0; i < r->m.dirs->len; i++) {
		GNode *d = r->m.dirs->pdata[i];

		if (d == top || g_node_is_ancestor(top, d))
			g_ptr_array_add(c, d);
	}
	n = c->pdata[rnd(r, c->len)];
	g_ptr_array_unref(c);
	return n;
}

uint64_t ino_of(GNode *n)
{
	return mnode_of(n)->ino;
}

char *show_path(GNode *n)
{
	char *raw = model_path(n), *p = g_strescape(raw, NULL);

	g_free(raw);
	return p;
}

static char *show_name(const char *name, size_t len)
{
	char *raw = g_strndup(name, len), *p = g_strescape(raw, NULL);

	g_free(raw);
	return p;
}

/* "<dir path>/<name>", for messages. */
char *show_entry(GNode *dir, const char *name, size_t len)
{
	char *d = show_path(dir), *n = show_name(name, len);
	char *s = g_strdup_printf("%s%s%s", d, dir->parent ? "/" : "", n);

	g_free(d);
	g_free(n);
	return s;
}
