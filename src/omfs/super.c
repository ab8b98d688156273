/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * super.c - mount (every check of the kernel plus the ones it lacks),
 * unmount, sync, statfs and volume information.
 */
#include "omfs-private.h"

#include <stdio.h>
#include <stdlib.h>

#define DEFAULT_CACHE_BLOCKS 2048
#define DEFAULT_MAX_REQUEST (8u << 20)

static bool is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

static int check_geometry(struct omfs_fs *fs, uint64_t dev_size)
{
	const struct omfs_info *in = &fs->info;

	if (in->s_magic != OMFS_MAGIC)
		return omfs_error(fs, EINVAL, "block 0: not an OMFS volume (magic 0x%08x, want 0x%08x)",
				  in->s_magic, OMFS_MAGIC);
	if (!is_pow2(in->s_sys_blocksize) || in->s_sys_blocksize < OMFS_MIN_SYS_BLOCKSIZE ||
	    in->s_sys_blocksize > OMFS_MAX_BLOCKSIZE)
		return omfs_error(fs, EUCLEAN,
				  "block 0: sysblock size %u is not a power of two in [512, 8192]",
				  in->s_sys_blocksize);
	if (!is_pow2(in->s_blocksize) || in->s_blocksize < in->s_sys_blocksize ||
	    in->s_blocksize > OMFS_MAX_BLOCKSIZE)
		return omfs_error(fs, EUCLEAN,
				  "block 0: block size %u is not a power of two between the sysblock size %u and 8192",
				  in->s_blocksize, in->s_sys_blocksize);
	if (in->s_mirrors < 1 || in->s_mirrors > OMFS_MAX_MIRRORS)
		return omfs_error(fs, EUCLEAN, "block 0: mirror count %u is not in 1..%d",
				  in->s_mirrors, OMFS_MAX_MIRRORS);
	if (in->s_num_blocks == 0 || in->s_num_blocks > OMFS_MAX_BLOCKS)
		return omfs_error(fs, EUCLEAN, "block 0: block count %llu is not in 1..2^31",
				  (unsigned long long)in->s_num_blocks);
	if (in->s_num_blocks * in->s_blocksize > dev_size)
		return omfs_error(fs, EUCLEAN,
				  "block 0: the volume (%llu blocks of %u bytes) is larger than the device (%llu bytes)",
				  (unsigned long long)in->s_num_blocks, in->s_blocksize,
				  (unsigned long long)dev_size);
	if (in->s_root_block == 0 || in->s_root_block >= in->s_num_blocks ||
	    in->s_num_blocks - in->s_root_block < in->s_mirrors)
		return omfs_error(fs, EUCLEAN, "block 0: root block %llu is outside the volume",
				  (unsigned long long)in->s_root_block);
	return 0;
}

static int read_superblock(struct omfs_fs *fs, uint64_t dev_size)
{
	uint8_t sb[OMFS_SB_SIZE];
	struct omfs_info *in = &fs->info;
	int err;

	if (dev_size < OMFS_SB_SIZE)
		return omfs_error(fs, EINVAL, "the device (%llu bytes) is too small for an OMFS volume",
				  (unsigned long long)dev_size);
	err = fs->dev.read(fs->dev.ctx, 0, sb, sizeof(sb));
	if (err)
		return omfs_error(fs, -err, "block 0: cannot read the superblock: %s", strerror(-err));
	fs->counters.read_requests++;
	fs->counters.read_bytes += sizeof(sb);
	memcpy(in->s_name, sb + OMFS_SB_NAME, 64);
	in->s_root_block = omfs_be64(sb + OMFS_SB_ROOT_BLOCK);
	in->s_num_blocks = omfs_be64(sb + OMFS_SB_NUM_BLOCKS);
	in->s_magic = omfs_be32(sb + OMFS_SB_MAGIC);
	in->s_blocksize = omfs_be32(sb + OMFS_SB_BLOCKSIZE);
	in->s_mirrors = omfs_be32(sb + OMFS_SB_MIRRORS);
	in->s_sys_blocksize = omfs_be32(sb + OMFS_SB_SYS_BLOCKSIZE);
	err = check_geometry(fs, dev_size);
	if (err)
		return err;
	fs->num_blocks = in->s_num_blocks;
	fs->blocksize = in->s_blocksize;
	fs->sys_blocksize = in->s_sys_blocksize;
	fs->mirrors = in->s_mirrors;
	fs->root_block = in->s_root_block;
	return 0;
}

/*
 * mkomfs never sealed the root block (CRC and XOR left 0) and the kernel never
 * reads its header, so an unsealed root block is accepted; fsck reports it.
 */
bool omfs_root_block_unsealed(const uint8_t *blk)
{
	return blk[OMFS_H_XOR] == 0 && omfs_be16(blk + OMFS_H_CRC) == 0 &&
	       blk[OMFS_H_MAGIC] == OMFS_HDR_MAGIC;
}

static int read_root_copy(struct omfs_fs *fs, uint8_t *blk, bool *sealed)
{
	const char *why = NULL;

	for (int pass = 0; pass < 2; pass++) {
		for (uint32_t i = 0; i < fs->mirrors; i++) {
			int err = omfs_dev_read(fs, omfs_block_offset(fs, fs->root_block + i), blk,
						fs->sys_blocksize);
			const char *problem;

			if (err)
				return err;
			/* any header type: the kernel never reads the root block's header */
			problem = omfs_copy_problem(fs, blk, fs->root_block, 0);
			*sealed = !problem;
			if (!problem || (pass == 1 && omfs_root_block_unsealed(blk) &&
					 omfs_be64(blk + OMFS_H_SELF) == fs->root_block))
				return 0;
			if (!why)
				why = problem;
		}
	}
	return omfs_error(fs, EUCLEAN, "root block %llu: %s, and no mirror copy verifies",
			  (unsigned long long)fs->root_block, why);
}

static int read_root_block(struct omfs_fs *fs)
{
	struct omfs_info *in = &fs->info;
	uint8_t *blk = malloc(fs->sys_blocksize);
	int err;

	if (!blk)
		return omfs_error(fs, ENOMEM, "out of memory");
	err = read_root_copy(fs, blk, &in->root_checksum_ok);
	if (!err) {
		in->r_num_blocks = omfs_be64(blk + OMFS_R_NUM_BLOCKS);
		in->r_root_dir = omfs_be64(blk + OMFS_R_ROOT_DIR);
		in->r_bitmap = omfs_be64(blk + OMFS_R_BITMAP);
		in->r_blocksize = omfs_be32(blk + OMFS_R_BLOCKSIZE);
		in->r_clustersize = omfs_be32(blk + OMFS_R_CLUSTERSIZE);
		in->r_mirrors = omfs_be64(blk + OMFS_R_MIRRORS);
		memcpy(in->r_name, blk + OMFS_R_NAME, 256);
	}
	free(blk);
	return err;
}

static int check_root_block(struct omfs_fs *fs)
{
	const struct omfs_info *in = &fs->info;
	unsigned long long rb = (unsigned long long)fs->root_block;

	if (in->r_num_blocks != in->s_num_blocks)
		return omfs_error(fs, EUCLEAN,
				  "root block %llu: block count %llu disagrees with the superblock's %llu",
				  rb, (unsigned long long)in->r_num_blocks,
				  (unsigned long long)in->s_num_blocks);
	if (in->r_clustersize < 1 || in->r_clustersize > OMFS_MAX_CLUSTERSIZE)
		return omfs_error(fs, EUCLEAN, "root block %llu: cluster size %u is not in 1..%d",
				  rb, in->r_clustersize, OMFS_MAX_CLUSTERSIZE);
	if (in->r_root_dir <= fs->root_block || in->r_root_dir >= fs->num_blocks)
		return omfs_error(fs, EUCLEAN,
				  "root block %llu: root directory pointer %llu is outside the volume",
				  rb, (unsigned long long)in->r_root_dir);
	fs->root_dir = in->r_root_dir;
	fs->bitmap_start = in->r_bitmap;
	fs->clustersize = in->r_clustersize;
	return 0;
}

static int check_root_dir(struct omfs_fs *fs)
{
	struct omfs_buf *b;
	int err = omfs_iget(fs, fs->root_dir, &b);

	if (err)
		return err;
	if (!omfs_inode_is_dir(b))
		err = omfs_error(fs, EUCLEAN, "inode %llu: the root directory is not a directory",
				 (unsigned long long)fs->root_dir);
	omfs_brelse(fs, b);
	return err;
}

/* ReplayTV volumes have no bitmap: mark what the tree uses, walking it with a bounded stack. */
static int mark_file_blocks(struct omfs_fs *fs, struct omfs_buf *b)
{
	struct omfs_extents ex = { 0 };
	int err = omfs_extents_load(fs, b, &ex);

	for (size_t i = 0; !err && i < ex.n; i++)
		err = omfs_mark_used(fs, ex.v[i].start, ex.v[i].count);
	for (size_t i = 0; !err && i < ex.ntables; i++)
		err = omfs_mark_used(fs, ex.tables[i], fs->mirrors);
	omfs_extents_free(&ex);
	return err;
}

static int mark_inode(struct omfs_fs *fs, uint64_t ino, uint64_t *stack, size_t *depth)
{
	struct omfs_buf *b;
	int err;

	if (omfs_block_used(fs, ino))
		return omfs_error(fs, EUCLEAN, "inode %llu: reached twice while walking the tree",
				  (unsigned long long)ino);
	err = omfs_iget(fs, ino, &b);
	if (err)
		return err;
	err = omfs_mark_used(fs, ino, fs->mirrors);
	if (!err && omfs_inode_is_dir(b)) {
		for (uint32_t i = 0; i < omfs_nbuckets(fs); i++) {
			uint64_t child = omfs_be64(b->data + OMFS_DIR_START + 8 * i);

			if (child != OMFS_NIL)
				stack[(*depth)++] = child;
		}
	} else if (!err) {
		err = mark_file_blocks(fs, b);
	}
	if (!err && ino != fs->root_dir) {
		uint64_t sibling = omfs_be64(b->data + OMFS_I_SIBLING);

		if (sibling != OMFS_NIL)
			stack[(*depth)++] = sibling;
	}
	omfs_brelse(fs, b);
	return err;
}

static int rebuild_bitmap_by_walk(struct omfs_fs *fs)
{
	/* Each visited inode marks >= 1 block, so num_blocks bounds the walk. */
	size_t cap = (size_t)fs->num_blocks + omfs_nbuckets(fs) + 1;
	uint64_t *stack = malloc(cap * sizeof(*stack));
	size_t depth = 0;
	int err = 0;

	if (!stack)
		return omfs_error(fs, ENOMEM, "out of memory walking the tree");
	stack[depth++] = fs->root_dir;
	while (!err && depth)
		if (depth + omfs_nbuckets(fs) + 1 > cap)
			err = omfs_error(fs, EUCLEAN, "the directory tree is larger than the volume");
		else
			err = mark_inode(fs, stack[--depth], stack, &depth);
	free(stack);
	return err;
}

static int mount_volume(struct omfs_fs *fs)
{
	int err = read_superblock(fs, fs->dev.size(fs->dev.ctx));

	if (!err)
		err = read_root_block(fs);
	if (!err)
		err = check_root_block(fs);
	if (!err)
		err = omfs_cache_init(fs, fs->opts.cache_blocks);
	if (!err)
		err = omfs_bitmap_load(fs);
	if (!err)
		err = check_root_dir(fs);
	if (!err && fs->bitmap_start == OMFS_NIL)
		err = rebuild_bitmap_by_walk(fs);
	return err;
}

static void fs_free(struct omfs_fs *fs)
{
	omfs_cache_destroy(fs);
	omfs_bitmap_destroy(fs);
	free(fs);
}

int omfs_mount(const struct omfs_blockdev *dev, const struct omfs_mount_opts *opts,
	       struct omfs_fs **out, char *msg, size_t msglen)
{
	struct omfs_fs *fs = calloc(1, sizeof(*fs));
	int err;

	*out = NULL;
	if (!fs) {
		snprintf(msg, msglen, "out of memory");
		return -ENOMEM;
	}
	fs->dev = *dev;
	if (opts)
		fs->opts = *opts;
	if (!fs->opts.cache_blocks)
		fs->opts.cache_blocks = DEFAULT_CACHE_BLOCKS;
	if (!fs->opts.max_request)
		fs->opts.max_request = DEFAULT_MAX_REQUEST;
	fs->read_only = fs->opts.read_only;
	err = mount_volume(fs);
	if (err) {
		if (msg && msglen)
			snprintf(msg, msglen, "%s", fs->errmsg);
		fs_free(fs);
		return err;
	}
	fs->info.bitmap_blocks = fs->bitmap_start == OMFS_NIL ? 0 : fs->bitmap_blocks;
	*out = fs;
	return 0;
}

int omfs_sync(struct omfs_fs *fs)
{
	return omfs_writeback(fs);
}

int omfs_unmount(struct omfs_fs *fs)
{
	int err;

	if (!fs)
		return 0;
	err = omfs_writeback(fs);
	fs_free(fs);
	return err;
}

const char *omfs_errmsg(const struct omfs_fs *fs)
{
	return fs->errmsg;
}

uint64_t omfs_root_ino(const struct omfs_fs *fs)
{
	return fs->root_dir;
}

int omfs_statfs(struct omfs_fs *fs, struct omfs_statfs *sfs)
{
	uint64_t pending = 0;

	for (size_t i = 0; i < fs->npending; i++)
		pending += fs->pending[i].count;
	*sfs = (struct omfs_statfs){
		.num_blocks = fs->num_blocks,
		.free_blocks = fs->free_blocks + pending,
		.blocksize = fs->blocksize,
		.sys_blocksize = fs->sys_blocksize,
		.mirrors = fs->mirrors,
		.clustersize = fs->clustersize,
		.namelen = OMFS_NAME_MAX,
	};
	return 0;
}

void omfs_get_info(const struct omfs_fs *fs, struct omfs_info *info)
{
	*info = fs->info;
}

void omfs_get_counters(const struct omfs_fs *fs, struct omfs_counters *c)
{
	*c = fs->counters;
}

void omfs_reset_counters(struct omfs_fs *fs)
{
	memset(&fs->counters, 0, sizeof(fs->counters));
}
