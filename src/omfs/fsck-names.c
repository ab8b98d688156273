/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fsck-names.c - two entries of one directory with the same name: a lookup
 * finds only one of them. Every name kept is reduced to a fingerprint while
 * the directory is walked; names with equal fingerprints are then read again
 * and compared in full, so no directory's names are all held at once.
 */
#include "fsck-private.h"

#include <stdlib.h>

/*
 * Entries whose names have the same fingerprint, compared in full. A hostile
 * directory could hold many crafted equal fingerprints: past this many, the
 * rest of such a group is not compared.
 */
#define FSCK_MAX_SAME_FINGERPRINT 16

struct fsck_name_key {
	uint64_t hash;
	uint64_t ino;
};

size_t fsck_name_len(const uint8_t *blk)
{
	return strnlen((const char *)blk + OMFS_I_NAME, OMFS_NAME_MAX);
}

/* FNV-1a: only a first sieve, names with equal fingerprints are compared byte by byte. */
static uint64_t name_fingerprint(const uint8_t *name, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < len; i++)
		h = (h ^ name[i]) * 0x100000001b3ull;
	return h ^ len;
}

int fsck_remember_name(struct fsck *f, struct fsck_names *names, uint64_t dir, uint64_t ino,
		       const uint8_t *blk)
{
	size_t len = fsck_name_len(blk);
	struct fsck_name_key *k;

	if (len == 0)
		return 0;	/* reported as empty already */
	k = fsck_grow(names->keys, &names->cap, names->n, sizeof(*k));
	if (!k)
		return fsck_out_of_memory(f, "directory", dir);
	names->keys = k;
	names->keys[names->n++] = (struct fsck_name_key){
		name_fingerprint(blk + OMFS_I_NAME, len), ino
	};
	return 0;
}

static int compare_name_keys(const void *a, const void *b)
{
	const struct fsck_name_key *x = a, *y = b;

	if (x->hash != y->hash)
		return x->hash < y->hash ? -1 : 1;
	return x->ino < y->ino ? -1 : x->ino > y->ino;
}

/* The name of an entry already checked, from its first copy that verifies. */
static int read_name(struct fsck *f, uint64_t ino, char *name)
{
	int err = fsck_read_copies(f, ino);
	int good;

	name[0] = '\0';
	if (err)
		return err;
	good = fsck_first_verifying_copy(f, ino, OMFS_TYPE_INODE);
	if (good >= 0) {
		const uint8_t *c = fsck_copy_at(f, (uint32_t)good);
		size_t len = fsck_name_len(c);

		memcpy(name, c + OMFS_I_NAME, len);
		name[len] = '\0';
	}
	return 0;
}

/* Compare the names of a group with equal fingerprints; *found is set when two are the same. */
static int check_name_group(struct fsck *f, uint64_t dir, const struct fsck_name_key *k,
			    size_t n, bool *found)
{
	char (*names)[OMFS_NAME_MAX + 1];
	int err = 0;

	if (n > FSCK_MAX_SAME_FINGERPRINT)
		n = FSCK_MAX_SAME_FINGERPRINT;
	names = malloc(n * sizeof(*names));
	if (!names)
		return fsck_out_of_memory(f, "directory", dir);
	for (size_t i = 0; !err && i < n; i++)
		err = read_name(f, k[i].ino, names[i]);
	for (size_t i = 1; !err && i < n; i++) {
		for (size_t j = 0; j < i; j++) {
			char shown[FSCK_NAME_SHOWN + 8];

			if (strcmp(names[i], names[j]))
				continue;
			fsck_shown_name(shown, sizeof(shown), (const uint8_t *)names[i],
					strlen(names[i]));
			fsck_finding(f, OMFS_FSCK_ERROR,
				     "directory %llu: entries %llu and %llu are both named '%s'",
				     (unsigned long long)dir, (unsigned long long)k[j].ino,
				     (unsigned long long)k[i].ino, shown);
			*found = true;
			break;
		}
	}
	free(names);
	return err;
}

int fsck_check_duplicate_names(struct fsck *f, struct fsck_names *names, uint64_t dir,
			       bool *found)
{
	int err = 0;

	if (names->n < 2)
		return 0;
	qsort(names->keys, names->n, sizeof(*names->keys), compare_name_keys);
	for (size_t i = 0, j; !err && i < names->n; i = j) {
		for (j = i + 1; j < names->n && names->keys[j].hash == names->keys[i].hash; j++)
			;
		if (j - i > 1)
			err = check_name_group(f, dir, names->keys + i, j - i, found);
	}
	return err;
}
