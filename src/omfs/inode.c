/* SPDX-License-Identifier: GPL-2.0-or-later */
/* inode.c - inode sysblocks: reading, creating, names, the bucket hash, stat. */
#include "omfs-private.h"

#include <time.h>

/* The kernel's tolower on its Latin-1 ctype table: A-Z, 0xC0-0xD6 and 0xD8-0xDE fold. */
uint32_t omfs_fold(uint8_t c)
{
	if ((c >= 'A' && c <= 'Z') || (c >= 0xC0 && c <= 0xDE && c != 0xD7))
		return c + 0x20u;
	return c;
}

uint32_t omfs_name_hash(const char *name, size_t len, uint32_t nbuckets)
{
	uint32_t h = 0;

	/* The largest term is 0xFF << 23, so the kernel's signed int never goes negative. */
	for (size_t i = 0; i < len; i++)
		h ^= omfs_fold((uint8_t)name[i]) << (i % 24);
	return nbuckets ? h % nbuckets : 0;
}

uint32_t omfs_nbuckets(const struct omfs_fs *fs)
{
	return (fs->sys_blocksize - OMFS_DIR_START) / 8;
}

bool omfs_name_valid(const char *name, size_t len)
{
	if (len == 0 || len > OMFS_NAME_MAX || memchr(name, '/', len) || memchr(name, '\0', len))
		return false;
	return !(len == 1 && name[0] == '.') && !(len == 2 && name[0] == '.' && name[1] == '.');
}

uint64_t omfs_now_ms(struct omfs_fs *fs)
{
	struct timespec ts;

	if (fs->opts.clock_ms)
		return fs->opts.clock_ms(fs->opts.clock_ctx);
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

bool omfs_inode_is_dir(const struct omfs_buf *b)
{
	return b->data[OMFS_I_TYPE] == OMFS_ITYPE_DIR;
}

size_t omfs_inode_namelen(const struct omfs_buf *b)
{
	const uint8_t *nul = memchr(b->data + OMFS_I_NAME, 0, OMFS_NAME_MAX);

	return nul ? (size_t)(nul - (b->data + OMFS_I_NAME)) : OMFS_NAME_MAX;
}

int omfs_iget(struct omfs_fs *fs, uint64_t ino, struct omfs_buf **out)
{
	struct omfs_buf *b;
	int err = omfs_bread(fs, ino, OMFS_TYPE_INODE, &b);
	uint8_t type;

	if (err)
		return err;
	type = b->data[OMFS_I_TYPE];
	if (type != OMFS_ITYPE_DIR && type != OMFS_ITYPE_FILE) {
		omfs_brelse(fs, b);
		return omfs_error(fs, EUCLEAN, "inode %llu: unknown inode type 0x%02x",
				  (unsigned long long)ino, type);
	}
	*out = b;
	return 0;
}

int omfs_inode_new(struct omfs_fs *fs, uint64_t parent, const char *name, size_t len,
		   bool is_dir, struct omfs_buf **out)
{
	struct omfs_buf *b;
	uint64_t ino;
	int err = omfs_alloc_sysblock(fs, &ino);

	if (err)
		return err;
	err = omfs_bnew(fs, ino, OMFS_TYPE_INODE, &b);
	if (err) {
		omfs_free_run(fs, ino, fs->mirrors);
		return err;
	}
	omfs_put_be64(b->data + OMFS_I_PARENT, parent);
	omfs_put_be64(b->data + OMFS_I_SIBLING, OMFS_NIL);
	omfs_put_be64(b->data + OMFS_I_CTIME, omfs_now_ms(fs));
	b->data[OMFS_I_TYPE] = is_dir ? OMFS_ITYPE_DIR : OMFS_ITYPE_FILE;
	/* What mkomfs and omfs_fuse, written for the Karma, put here. */
	omfs_put_be32(b->data + OMFS_I_FILL2, 1);
	memcpy(b->data + OMFS_I_NAME, name, len);
	if (is_dir) {
		omfs_put_be64(b->data + OMFS_I_SIZE, fs->sys_blocksize);
		memset(b->data + OMFS_DIR_START, 0xFF, fs->sys_blocksize - OMFS_DIR_START);
	} else {
		omfs_extent_table_init(b->data, OMFS_EXTENT_START);
	}
	*out = b;
	return 0;
}

int omfs_stat(struct omfs_fs *fs, uint64_t ino, struct omfs_stat *st)
{
	struct omfs_buf *b;
	int err = omfs_iget(fs, ino, &b);

	if (err)
		return err;
	memset(st, 0, sizeof(*st));
	st->ino = ino;
	st->parent = omfs_be64(b->data + OMFS_I_PARENT);
	st->ctime_ms = omfs_be64(b->data + OMFS_I_CTIME);
	st->is_dir = omfs_inode_is_dir(b);
	/* The kernel reports a directory's size as sys_blocksize, whatever the disk says. */
	st->size = st->is_dir ? fs->sys_blocksize : omfs_be64(b->data + OMFS_I_SIZE);
	if (!st->is_dir) {
		struct omfs_extents ex = { 0 };

		err = omfs_extents_load(fs, b, &ex);
		st->data_blocks = ex.total;
		st->extents = (uint32_t)ex.n;
		omfs_extents_free(&ex);
	}
	omfs_brelse(fs, b);
	return err;
}

int omfs_set_ctime(struct omfs_fs *fs, uint64_t ino, uint64_t ctime_ms)
{
	struct omfs_buf *b;
	int err = omfs_check_writable(fs);

	if (!err)
		err = omfs_iget(fs, ino, &b);
	if (err)
		return err;
	omfs_put_be64(b->data + OMFS_I_CTIME, ctime_ms);
	omfs_bdirty(fs, b);
	omfs_brelse(fs, b);
	return 0;
}
