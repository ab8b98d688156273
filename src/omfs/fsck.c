/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fsck.c - check a volume (docs/FORMAT.md §12: everything omfsck checks, and
 * what it never implemented), and repair what is safe to repair. This file
 * runs the passes and keeps the findings and the block claims; the parts are
 * listed in fsck-private.h.
 *
 * The volume is mounted (read-only unless repairing), then the tree is walked
 * from the root directory. Every sysblock's copies are read raw and judged
 * one by one; the walk then trusts the first copy that verifies, as
 * omfs_bread does. Blocks owned by what the walk keeps are collected in
 * `owned`, which is compared with the bitmap at the end.
 *
 * Every walk is bounded: a sysblock is entered at most once (`seen`; an
 * entry dropped from a directory that is not its parent may be entered once
 * more, from its real parent), directories nest at most FSCK_MAX_DEPTH deep,
 * and every count, pointer and size is checked before it is used.
 *
 * Repairs go through the block cache (omfs_bread, omfs_bdirty), which writes
 * the primary and every mirror with fresh checksums; each repair is written
 * back at once, so the raw reads of the walk always see the repaired volume.
 * The bitmap is rebuilt last, from the blocks the walk kept. A repair run
 * first walks the tree without writing (the survey pass) to learn which
 * blocks have two owners: no sysblock whose blocks are shared is rewritten,
 * since that would overwrite the other owner.
 */
#include "fsck-private.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#define FSCK_MSG_MAX 512

/* ---- findings ---- */

static void __attribute__((format(printf, 3, 0)))
emit(struct fsck *f, enum omfs_fsck_severity sev, const char *fmt, va_list ap)
{
	char msg[FSCK_MSG_MAX];

	if (!f->opts || !f->opts->report)
		return;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	f->opts->report(f->opts->report_ctx, sev, msg);
}

void fsck_finding(struct fsck *f, enum omfs_fsck_severity sev, const char *fmt, ...)
{
	va_list ap;

	if (f->quiet)
		return;
	if (sev == OMFS_FSCK_ERROR || sev == OMFS_FSCK_LEAK)
		f->res->errors++;
	else if (sev == OMFS_FSCK_NOTE)
		f->res->notes++;
	va_start(ap, fmt);
	emit(f, sev, fmt, ap);
	va_end(ap);
}

void fsck_fixed(struct fsck *f, unsigned n, const char *fmt, ...)
{
	va_list ap;

	if (f->quiet)
		return;
	f->res->fixed += n;
	va_start(ap, fmt);
	emit(f, OMFS_FSCK_FIXED, fmt, ap);
	va_end(ap);
}

bool fsck_caused_by_volume(int err)
{
	return err == -EUCLEAN || err == -EINVAL || err == -EOVERFLOW || err == -EFBIG ||
	       err == -ENOTDIR || err == -ENOENT;
}

int fsck_fail(struct fsck *f, int err)
{
	if (!f->fatal) {
		f->fatal = err;
		if (f->opts && f->opts->report) {
			char msg[FSCK_MSG_MAX];

			snprintf(msg, sizeof(msg), "the check stopped: %s", omfs_errmsg(f->fs));
			f->opts->report(f->opts->report_ctx, OMFS_FSCK_ERROR, msg);
		}
	}
	return err;
}

int fsck_out_of_memory(struct fsck *f, const char *what, uint64_t block)
{
	return fsck_fail(f, omfs_error(f->fs, ENOMEM, "out of memory checking %s %llu", what,
				       (unsigned long long)block));
}

void fsck_shown_name(char *out, size_t outlen, const uint8_t *name, size_t len)
{
	size_t o = 0;

	for (size_t i = 0; i < len && i < FSCK_NAME_SHOWN && o + 1 < outlen; i++)
		out[o++] = name[i] >= 0x20 && name[i] < 0x7F && name[i] != '\'' ?
			   (char)name[i] : '?';
	out[o] = '\0';
	if (len > FSCK_NAME_SHOWN && o + 4 < outlen)
		strcat(out, "...");
}

void *fsck_grow(void *v, size_t *cap, size_t n, size_t size)
{
	size_t new_cap = *cap ? *cap * 2 : 16;
	void *p;

	if (n < *cap)
		return v;
	p = realloc(v, new_cap * size);
	if (p)
		*cap = new_cap;
	return p;
}

/* ---- blocks and owners ---- */

void fsck_set_bit_range(uint8_t *map, uint64_t start, uint64_t count)
{
	uint64_t n = start, end = start + count;

	for (; n < end && (n & 7); n++)
		omfs_bit_set(map, n);
	if (end - n >= 8) {
		memset(map + (n >> 3), 0xFF, (size_t)((end - n) >> 3));
		n += (end - n) & ~7ull;
	}
	for (; n < end; n++)
		omfs_bit_set(map, n);
}

bool fsck_blocks_shared(const struct fsck *f, uint64_t start, uint64_t count)
{
	for (uint64_t n = start; n < start + count; n++)
		if (omfs_bit_test(f->shared, n))
			return true;
	return false;
}

/* Mark a run owned; returns how many of its blocks were owned already. */
static uint64_t claim_blocks(struct fsck *f, uint64_t start, uint64_t count, uint64_t *first_dup)
{
	uint64_t dups = 0, n = start, end = start + count;

	*first_dup = OMFS_NIL;
	while (n < end) {
		uint8_t old;

		if ((n & 7) == 0 && end - n >= 8) {
			old = f->owned[n >> 3];
			if (old) {
				f->shared[n >> 3] |= old;
				dups += (uint64_t)__builtin_popcount(old);
				if (*first_dup == OMFS_NIL)
					*first_dup = n + (uint64_t)__builtin_ctz(old);
			}
			f->owned[n >> 3] = 0xFF;
			n += 8;
			continue;
		}
		if (omfs_bit_test(f->owned, n)) {
			omfs_bit_set(f->shared, n);
			if (!dups++)
				*first_dup = n;
		}
		omfs_bit_set(f->owned, n);
		n++;
	}
	return dups;
}

int fsck_claim(struct fsck *f, const char *what, uint64_t start, uint64_t count)
{
	uint64_t first;
	uint64_t dups = claim_blocks(f, start, count, &first);

	if (!dups)
		return 0;
	fsck_finding(f, OMFS_FSCK_ERROR,
		     "%s: %llu of its blocks %llu..%llu are also used by another file, sysblock or the metadata area (the first is block %llu)",
		     what, (unsigned long long)dups, (unsigned long long)start,
		     (unsigned long long)(start + count - 1), (unsigned long long)first);
	return 1;
}

/* ---- the passes ---- */

static int alloc_maps(struct fsck *f)
{
	struct omfs_fs *fs = f->fs;

	f->map_bytes = (size_t)((fs->num_blocks + 7) / 8);
	f->meta_end = omfs_data_start(fs);
	f->owned = calloc(1, f->map_bytes);
	f->seen = calloc(1, f->map_bytes);
	f->rejected = calloc(1, f->map_bytes);
	f->shared = calloc(1, f->map_bytes);
	f->copies = malloc((size_t)fs->mirrors * fs->sys_blocksize);
	f->cont = malloc(fs->sys_blocksize);
	if (!f->owned || !f->seen || !f->rejected || !f->shared || !f->copies || !f->cont)
		return fsck_fail(f, omfs_error(fs, ENOMEM,
					       "out of memory for the check's block maps"));
	return 0;
}

static void free_maps(struct fsck *f)
{
	free(f->owned);
	free(f->seen);
	free(f->rejected);
	free(f->shared);
	free(f->copies);
	free(f->cont);
	free(f->tidy_dirs);
}

/* One walk of the whole volume. The survey pass is quiet and writes nothing. */
static int run_pass(struct fsck *f, bool survey)
{
	struct omfs_fs *fs = f->fs;
	int err;

	f->quiet = survey;
	f->repair = !survey && f->opts && f->opts->repair;
	f->incomplete = false;
	f->ntidy = 0;
	memset(f->owned, 0, f->map_bytes);
	memset(f->seen, 0, f->map_bytes);
	memset(f->rejected, 0, f->map_bytes);
	err = fsck_check_root_block(f);
	if (err)
		return err;
	fsck_claim(f, "the superblock and the root block", 0, fs->root_block + fs->mirrors);
	if (fs->bitmap_start != OMFS_NIL)
		fsck_claim(f, "the free-space bitmap", fs->bitmap_start, fs->bitmap_blocks);
	err = fsck_walk_root(f);
	if (!err && !survey)
		err = fsck_check_bitmap(f);
	if (!err && f->repair && f->res->errors)
		err = fsck_tidy_dir_sizes(f);
	return err;
}

static int exit_code(const struct fsck *f)
{
	if (f->fatal)
		return OMFS_FSCK_OPERATIONAL;
	if (!f->res->errors)
		return f->res->normalized ? OMFS_FSCK_CORRECTED : OMFS_FSCK_CLEAN;
	return f->res->fixed >= f->res->errors ? OMFS_FSCK_CORRECTED : OMFS_FSCK_UNCORRECTED;
}

int omfs_fsck(const struct omfs_blockdev *dev, const struct omfs_fsck_opts *opts,
	      struct omfs_fsck_result *res)
{
	struct omfs_fsck_result scratch;
	struct omfs_mount_opts mo = { .read_only = !(opts && opts->repair) };
	struct fsck f = { .opts = opts, .res = res ? res : &scratch };
	char msg[OMFS_ERRMSG_MAX] = "";
	int err;

	memset(f.res, 0, sizeof(*f.res));
	err = omfs_mount(dev, &mo, &f.fs, msg, sizeof(msg));
	if (err) {
		fsck_finding(&f, OMFS_FSCK_ERROR, "%s", msg);
		return fsck_caused_by_volume(err) ? OMFS_FSCK_UNCORRECTED : OMFS_FSCK_OPERATIONAL;
	}
	err = alloc_maps(&f);
	/* a repair first learns which blocks have two owners, so it never writes over one */
	if (!err && opts && opts->repair)
		err = run_pass(&f, true);
	if (!err)
		err = run_pass(&f, false);
	/* nothing should be left to write; a failure here still needs its sentence */
	if (!err && opts && opts->repair) {
		err = omfs_sync(f.fs);
		if (err)
			fsck_fail(&f, err);
	}
	free_maps(&f);
	err = omfs_unmount(f.fs);
	if (err && !f.fatal)
		f.fatal = err;
	return exit_code(&f);
}
