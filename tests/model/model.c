/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * model.c - the reference the core is compared with: a GNode tree of
 * directories and files, each file holding its exact bytes.
 */
#include "model.h"

#include <string.h>

static struct mnode *mnode_new(const char *name, size_t len, bool is_dir, uint64_t ino)
{
	struct mnode *mn = g_new0(struct mnode, 1);

	mn->name = g_malloc(len + 1);
	memcpy(mn->name, name, len);
	mn->name[len] = '\0';
	mn->len = len;
	mn->is_dir = is_dir;
	mn->ino = ino;
	if (!is_dir)
		mn->data = g_byte_array_new();
	return mn;
}

static void mnode_free(struct mnode *mn)
{
	if (mn->data)
		g_byte_array_unref(mn->data);
	g_free(mn->name);
	g_free(mn);
}

void model_init(struct model *m, uint64_t root_ino)
{
	struct mnode *root = mnode_new("", 0, true, root_ino);

	m->root = g_node_new(root);
	root->node = m->root;
	m->files = g_ptr_array_new();
	m->dirs = g_ptr_array_new();
	g_ptr_array_add(m->dirs, m->root);
}

static gboolean free_one(GNode *n, gpointer unused)
{
	mnode_free(mnode_of(n));
	return FALSE;
}

void model_destroy(struct model *m)
{
	if (!m->root)
		return;
	g_node_traverse(m->root, G_IN_ORDER, G_TRAVERSE_ALL, -1, free_one, NULL);
	g_node_destroy(m->root);
	g_ptr_array_unref(m->files);
	g_ptr_array_unref(m->dirs);
	memset(m, 0, sizeof(*m));
}

GNode *model_child(GNode *dir, const char *name, size_t len)
{
	for (GNode *c = dir->children; c; c = c->next) {
		struct mnode *mn = mnode_of(c);

		if (mn->len == len && memcmp(mn->name, name, len) == 0)
			return c;
	}
	return NULL;
}

GNode *model_add(struct model *m, GNode *dir, const char *name, size_t len, bool is_dir,
		 uint64_t ino)
{
	struct mnode *mn = mnode_new(name, len, is_dir, ino);

	mn->node = g_node_append_data(dir, mn);
	g_ptr_array_add(is_dir ? m->dirs : m->files, mn->node);
	return mn->node;
}

void model_remove(struct model *m, GNode *n)
{
	struct mnode *mn = mnode_of(n);

	g_assert(!n->children);
	g_assert(n != m->root);
	if (mn->is_dir) {
		g_assert_true(g_ptr_array_remove_fast(m->dirs, n));
	} else {
		g_assert_true(g_ptr_array_remove_fast(m->files, n));
	}
	g_node_unlink(n);
	g_node_destroy(n);
	mnode_free(mn);
}

void model_move(GNode *n, GNode *newdir, const char *name, size_t len)
{
	struct mnode *mn = mnode_of(n);

	g_free(mn->name);
	mn->name = g_malloc(len + 1);
	memcpy(mn->name, name, len);
	mn->name[len] = '\0';
	mn->len = len;
	g_node_unlink(n);
	g_node_append(newdir, n);
}

void model_resize(struct model *m, GNode *file, uint64_t size)
{
	GByteArray *d = mnode_of(file)->data;
	uint64_t old = d->len;

	g_byte_array_set_size(d, (guint)size);
	if (size > old)
		memset(d->data + old, 0, size - old);
}

void model_write(struct model *m, GNode *file, uint64_t off, const uint8_t *buf, size_t len)
{
	GByteArray *d = mnode_of(file)->data;

	if (len == 0)
		return;
	if (off + len > d->len)
		model_resize(m, file, off + len);
	memcpy(d->data + off, buf, len);
}

char *model_path(GNode *n)
{
	GString *s = g_string_new(NULL);

	for (; n->parent; n = n->parent) {
		struct mnode *mn = mnode_of(n);

		g_string_prepend_len(s, mn->name, (gssize)mn->len);
		g_string_prepend_c(s, '/');
	}
	if (s->len == 0)
		g_string_append_c(s, '/');
	return g_string_free(s, FALSE);
}

bool model_dir_is_empty(GNode *dir)
{
	return dir->children == NULL;
}
