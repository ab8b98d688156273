/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ops.h - what the operation files (pick.c, ops-file.c, ops-tree.c) share.
 */
#ifndef OPS_H
#define OPS_H

#include "model.h"

#define NAME_BUF (OMFS_NAME_MAX + 2)
#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* ---- pick.c: random numbers, names and nodes ---- */

uint32_t rnd(struct run *r, uint32_t n);		/* [0, n) */
bool chance(struct run *r, unsigned percent);
uint64_t rnd_between(struct run *r, uint64_t lo, uint64_t hi);	/* [lo, hi] */
void fill_random(struct run *r, uint8_t *p, size_t len);
/* Often a block boundary (or one byte either side of it), else anything up to max. */
uint64_t rnd_offset(struct run *r, uint64_t max);
void ops_note(struct run *r, enum event e);

char random_char(struct run *r);			/* from the small alphabet */
bool is_prefix(const char *a, size_t alen, const char *b, size_t blen);
/* A name into buf (NAME_BUF bytes); returns its length. */
size_t random_name(struct run *r, char *buf);
size_t missing_name(struct run *r, GNode *dir, char *buf);
size_t copy_name(GNode *n, char *buf);

GNode *pick_dir(struct run *r);
GNode *pick_file(struct run *r);			/* NULL when there is none */
GNode *pick_node(struct run *r);			/* anything but the root */
GNode *pick_child(struct run *r, GNode *dir);
GNode *pick_dir_where(struct run *r, bool empty);	/* not the root; NULL if none */
GNode *pick_dir_below(struct run *r, GNode *top);	/* top or a directory inside it */

uint64_t ino_of(GNode *n);
/* Printable (escaped) paths for messages; g_free them. */
char *show_path(GNode *n);
char *show_entry(GNode *dir, const char *name, size_t len);

/* ---- ops-file.c ---- */

bool ops_over_target(struct run *r);
void op_write(struct run *r);
void op_truncate(struct run *r);
void op_read(struct run *r);
void op_interleave(struct run *r);
void op_set_ctime(struct run *r);
void op_wrong_type(struct run *r);

/* ---- ops-tree.c ---- */

void op_add(struct run *r, bool is_dir);
void op_unlink(struct run *r);
void op_rmdir(struct run *r);

#endif
