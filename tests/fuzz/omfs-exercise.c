/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * omfs-exercise.c - everything a program may do to a volume, done to an
 * arbitrary image, with the promises of the core checked along the way:
 *
 *  - every failing call returns a negative errno and leaves a sentence;
 *  - a read-only mount and an fsck without --repair write nothing;
 *  - readdir names are NUL-terminated and fit OMFS_NAME_MAX, reads never
 *    return more than asked;
 *  - fsck answers 0, 1, 4 or 8; a repair that says "corrected" leaves a
 *    volume the next fsck finds clean;
 *  - with OMFS_EX_ORACLE: a volume fsck finds clean reads without an error,
 *    works for creates, writes, renames and unlinks, and stays clean.
 *
 * Every loop is bounded here too (depth, entries, bytes), so a hang can only
 * come from the core. Crashes and out-of-bounds accesses are the sanitizers'
 * business.
 */
#include "omfs-exercise.h"

#include "omfs-private.h"
#include "km-mem-device.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#define EX_MAX_DEPTH 16
#define EX_MAX_ENTRIES 1024	/* entries visited per walk */
#define EX_MAX_READ (256u << 10)	/* bytes read per file */
#define EX_CHUNK 8192
#define EX_CLOCK_MS 1700000000000ull
#define EX_SMALL_CACHE 6	/* sysblocks: forces evictions during the write phase */

struct ex {
	unsigned notes;		/* of the last fsck */
	struct omfs_exercise_result *r;
	struct km_mem_device *dev;
	struct omfs_fs *fs;
	const char *phase;
	unsigned entries;
	/* everything must succeed (see OMFS_EX_ORACLE, OMFS_EX_MUST_READ) */
	bool strict;
	/* the first file and directory the walk met, for the write phase */
	uint64_t first_file_dir, first_dir, first_dir_parent;
	char first_file_name[OMFS_NAME_MAX + 1], first_dir_name[OMFS_NAME_MAX + 1];
	size_t first_file_len, first_dir_len;
	uint8_t buf[EX_CHUNK];
};

static void __attribute__((format(printf, 2, 3))) violation(struct ex *x, const char *fmt, ...)
{
	struct omfs_exercise_result *r = x->r;
	size_t n;
	va_list ap;

	if (r->violations++)
		return;
	n = (size_t)snprintf(r->violation, sizeof(r->violation), "%s: ", x->phase);
	if (n >= sizeof(r->violation))
		return;
	va_start(ap, fmt);
	vsnprintf(r->violation + n, sizeof(r->violation) - n, fmt, ap);
	va_end(ap);
}

static uint64_t fixed_clock(void *ctx)
{
	return EX_CLOCK_MS;
}

/* Call before each core call, so that a failure without a sentence is seen. */
static void clear_msg(struct ex *x)
{
	x->fs->errmsg[0] = '\0';
}

/*
 * The common promise of every failing call. `must` says the call had to
 * succeed; `allowed` is an errno that is never a fault (ENOSPC, ENOENT...).
 */
static int checked(struct ex *x, int64_t err, const char *what, bool must, int allowed)
{
	if (err >= 0)
		return 0;
	x->r->errors++;
	if (err < -4095)
		violation(x, "%s returned %lld, not a negative errno", what, (long long)err);
	else if (!x->fs->errmsg[0])
		violation(x, "%s failed (%s) without a sentence", what, strerror((int)-err));
	else if (must && err != -allowed)
		violation(x, "%s failed on a volume fsck finds clean: %s", what, x->fs->errmsg);
	return (int)err;
}

static struct km_mem_device *device_copy(const uint8_t *image, size_t size)
{
	struct km_mem_device *m = km_mem_device_new(size, size ? image : NULL);

	if (!m)
		abort();	/* the test machine is out of memory: not the core's fault */
	return m;
}

/* ---- fsck ---- */

struct fsck_log {
	unsigned reports, fixed_reports, empty;
};

static void fsck_report(void *ctx, enum omfs_fsck_severity sev, const char *msg)
{
	struct fsck_log *log = ctx;

	log->reports++;
	if (sev == OMFS_FSCK_FIXED)
		log->fixed_reports++;
	if (!msg || !msg[0])
		log->empty++;
}

static int run_fsck(struct ex *x, struct km_mem_device *m, bool repair)
{
	struct fsck_log log = { 0 };
	struct omfs_fsck_opts o = { .repair = repair, .report = fsck_report, .report_ctx = &log };
	struct omfs_fsck_result res = { 0 };
	uint64_t writes = m->writes;
	int code = omfs_fsck(&m->bdev, &o, &res);

	if (code != OMFS_FSCK_CLEAN && code != OMFS_FSCK_CORRECTED &&
	    code != OMFS_FSCK_UNCORRECTED && code != OMFS_FSCK_OPERATIONAL)
		violation(x, "fsck%s returned %d, not an e2fsck exit code", repair ? " --repair" : "",
			  code);
	if (log.empty)
		violation(x, "fsck reported a finding without a sentence");
	if (!repair && m->writes != writes)
		violation(x, "fsck without --repair wrote to the device");
	if (!repair && code == OMFS_FSCK_CORRECTED)
		violation(x, "fsck without --repair says it corrected errors");
	if (code == OMFS_FSCK_CORRECTED && !log.fixed_reports)
		violation(x, "fsck --repair corrected errors without saying what it changed");
	if (code != OMFS_FSCK_CLEAN && code != OMFS_FSCK_OPERATIONAL && !log.reports)
		violation(x, "fsck returned %d without reporting a finding", code);
	x->notes = res.notes;
	return code;
}

/* ---- the read-only walk ---- */

static void read_file(struct ex *x, uint64_t ino, const struct omfs_stat *st)
{
	uint64_t want = st->size < EX_MAX_READ ? st->size : EX_MAX_READ;
	uint64_t off = 0;
	int64_t got;

	x->r->files++;
	while (off < want) {
		size_t n = want - off < EX_CHUNK ? (size_t)(want - off) : EX_CHUNK;

		clear_msg(x);
		got = omfs_read(x->fs, ino, off, x->buf, n);
		if (checked(x, got, "read", x->strict, 0))
			return;
		if ((uint64_t)got > n) {
			violation(x, "read of %zu bytes returned %lld", n, (long long)got);
			return;
		}
		if (got == 0) {
			if (x->strict)
				violation(x, "read hit the end at %llu of a %llu-byte file",
					  (unsigned long long)off, (unsigned long long)st->size);
			return;
		}
		off += (uint64_t)got;
		x->r->bytes_read += (uint64_t)got;
	}
	/* Reading at or past the end gives nothing, even near 2^64. */
	for (int i = 0; i < 2; i++) {
		uint64_t at = i ? UINT64_MAX - 3 : st->size;

		clear_msg(x);
		got = omfs_read(x->fs, ino, at, x->buf, 16);
		if (!checked(x, got, "read past the end", x->strict, 0) && got != 0)
			violation(x, "read at %llu of a %llu-byte file returned %lld bytes",
				  (unsigned long long)at, (unsigned long long)st->size,
				  (long long)got);
	}
}

static void check_dirent(struct ex *x, const struct omfs_dirent *ent)
{
	if (ent->namelen > OMFS_NAME_MAX || ent->name[ent->namelen] != '\0' ||
	    memchr(ent->name, '\0', ent->namelen))
		violation(x, "readdir gave a name of %zu bytes that is not a clean C string",
			  ent->namelen);
}

static void remember_entry(struct ex *x, uint64_t dir, const struct omfs_dirent *ent)
{
	size_t len = ent->namelen <= OMFS_NAME_MAX ? ent->namelen : OMFS_NAME_MAX;

	if (!ent->is_dir && !x->first_file_dir) {
		x->first_file_dir = dir;
		memcpy(x->first_file_name, ent->name, len);
		x->first_file_len = len;
	} else if (ent->is_dir && !x->first_dir) {
		x->first_dir = ent->ino;
		x->first_dir_parent = dir;
		memcpy(x->first_dir_name, ent->name, len);
		x->first_dir_len = len;
	}
}

static void walk_dir(struct ex *x, uint64_t dir, unsigned depth);

static void visit(struct ex *x, uint64_t dir, const struct omfs_dirent *ent, unsigned depth)
{
	struct omfs_stat st;
	uint64_t ino;

	check_dirent(x, ent);
	remember_entry(x, dir, ent);
	clear_msg(x);
	if (!checked(x, omfs_lookup(x->fs, dir, ent->name, ent->namelen, &ino), "lookup",
		     x->strict, 0) && x->strict && ino != ent->ino)
		violation(x, "lookup of \"%s\" found inode %llu, readdir said %llu", ent->name,
			  (unsigned long long)ino, (unsigned long long)ent->ino);
	clear_msg(x);
	if (checked(x, omfs_stat(x->fs, ent->ino, &st), "stat", x->strict, 0))
		return;
	if (st.is_dir != ent->is_dir)
		violation(x, "inode %llu: readdir and stat disagree on its type",
			  (unsigned long long)ent->ino);
	if (x->strict && !st.is_dir && st.size > st.data_blocks * x->fs->blocksize)
		violation(x, "inode %llu: %llu bytes in %llu blocks on a volume fsck finds clean",
			  (unsigned long long)ent->ino, (unsigned long long)st.size,
			  (unsigned long long)st.data_blocks);
	if (st.is_dir)
		walk_dir(x, ent->ino, depth + 1);
	else
		read_file(x, ent->ino, &st);
}

static void walk_dir(struct ex *x, uint64_t dir, unsigned depth)
{
	struct omfs_dirent ent;
	uint64_t pos = 0;
	int rc;

	if (depth > EX_MAX_DEPTH)
		return;
	x->r->dirs++;
	for (;;) {
		if (x->entries >= EX_MAX_ENTRIES)
			return;
		memset(&ent, 0xA5, sizeof(ent));
		clear_msg(x);
		rc = omfs_readdir(x->fs, dir, &pos, &ent);
		if (rc <= 0) {
			checked(x, rc, "readdir", x->strict, 0);
			return;
		}
		if (rc != 1) {
			violation(x, "readdir returned %d", rc);
			return;
		}
		x->entries++;
		visit(x, dir, &ent, depth);
	}
}

static void walk_tree(struct ex *x)
{
	struct omfs_statfs sfs;
	struct omfs_info info;
	uint64_t ino;

	x->entries = 0;
	clear_msg(x);
	checked(x, omfs_statfs(x->fs, &sfs), "statfs", x->strict, 0);
	omfs_get_info(x->fs, &info);
	if (!memchr(info.s_name, '\0', sizeof(info.s_name)) ||
	    !memchr(info.r_name, '\0', sizeof(info.r_name)))
		violation(x, "omfs_get_info gave a label that is not NUL-terminated");
	clear_msg(x);
	checked(x, omfs_resolve(x->fs, "/", &ino), "resolve /", x->strict, 0);
	walk_dir(x, omfs_root_ino(x->fs), 0);
}

/* ---- phases ---- */

static int mount_dev(struct ex *x, struct km_mem_device *m, bool read_only, size_t cache,
		     char *msg, size_t msglen)
{
	struct omfs_mount_opts o = {
		.read_only = read_only, .clock_ms = fixed_clock, .cache_blocks = cache,
	};
	int err;

	msg[0] = '\0';
	err = omfs_mount(&m->bdev, &o, &x->fs, msg, msglen);
	if (err < -4095 || err > 0)
		violation(x, "mount returned %d, not 0 or a negative errno", err);
	else if (err && !msg[0])
		violation(x, "mount failed (%s) without a sentence", strerror(-err));
	else if (!err && !x->fs)
		violation(x, "mount succeeded without a volume");
	if (err)
		x->fs = NULL;
	return err;
}

/* Mount read-only, walk, unmount: nothing may be written. */
static int read_only_pass(struct ex *x, const uint8_t *image, size_t size, bool strict,
			  char *msg, size_t msglen)
{
	struct km_mem_device *m = device_copy(image, size);
	int err = mount_dev(x, m, true, 0, msg, msglen);

	if (err) {
		if (strict)
			violation(x, "mount failed on a volume that must read: %s", msg);
	} else {
		x->strict = strict;
		walk_tree(x);
		x->strict = false;
		omfs_unmount(x->fs);
		x->fs = NULL;
	}
	if (m->writes)
		violation(x, "a read-only mount wrote %llu times to the device",
			  (unsigned long long)m->writes);
	km_mem_device_free(m);
	return err;
}

static void fill_pattern(uint8_t *buf, size_t len, unsigned seed)
{
	for (size_t i = 0; i < len; i++)
		buf[i] = (uint8_t)(i * 31 + seed);
}

/* Write, read back and compare (when the volume is trusted). */
static void write_and_check(struct ex *x, uint64_t ino, uint64_t off, size_t len, unsigned seed)
{
	uint8_t back[3000];
	int64_t got;

	if (len > sizeof(back))
		len = sizeof(back);
	fill_pattern(x->buf, len, seed);
	clear_msg(x);
	got = omfs_write(x->fs, ino, off, x->buf, len);
	if (checked(x, got, "write", x->strict, ENOSPC))
		return;
	if ((size_t)got != len) {
		violation(x, "write of %zu bytes returned %lld", len, (long long)got);
		return;
	}
	clear_msg(x);
	got = omfs_read(x->fs, ino, off, back, len);
	if (checked(x, got, "read back", x->strict, 0))
		return;
	if (x->strict && ((size_t)got != len || memcmp(back, x->buf, len)))
		violation(x, "inode %llu: what was written at %llu does not read back",
			  (unsigned long long)ino, (unsigned long long)off);
}

static void new_file_ops(struct ex *x, uint64_t root)
{
	uint64_t ino, dir, sub;

	clear_msg(x);
	if (checked(x, omfs_create(x->fs, root, "fz-new", 6, &ino), "create", x->strict, ENOSPC))
		return;
	write_and_check(x, ino, 0, 3000, 1);
	/* a gap that must read back as zeros */
	write_and_check(x, ino, 3 * (uint64_t)x->fs->blocksize + 7, 1000, 2);
	clear_msg(x);
	checked(x, omfs_truncate(x->fs, ino, 2500), "truncate", x->strict, 0);
	clear_msg(x);
	if (checked(x, omfs_mkdir(x->fs, root, "fz-dir", 6, &dir), "mkdir", x->strict, ENOSPC))
		return;
	clear_msg(x);
	if (!checked(x, omfs_create(x->fs, dir, "inner", 5, &sub), "create", x->strict, ENOSPC))
		write_and_check(x, sub, 0, 100, 3);
	clear_msg(x);
	checked(x, omfs_rename(x->fs, dir, "inner", 5, root, "fz-moved", 8), "rename", x->strict,
		0);
	clear_msg(x);
	checked(x, omfs_rename(x->fs, root, "fz-new", 6, root, "fz-moved", 8), "rename over",
		x->strict, 0);
	clear_msg(x);
	checked(x, omfs_rmdir(x->fs, root, "fz-dir", 6), "rmdir", x->strict, 0);
}

/* Operations on what the volume already holds: the corrupt parts if any. */
static void existing_ops(struct ex *x, uint64_t root)
{
	struct omfs_stat st;
	uint64_t ino;
	int err;

	if (x->first_file_dir) {
		clear_msg(x);
		err = omfs_lookup(x->fs, x->first_file_dir, x->first_file_name, x->first_file_len,
				  &ino);
		if (!checked(x, err, "lookup", x->strict, 0)) {
			clear_msg(x);
			if (!checked(x, omfs_stat(x->fs, ino, &st), "stat", x->strict, 0)) {
				write_and_check(x, ino, st.size, 100, 4);
				clear_msg(x);
				checked(x, omfs_truncate(x->fs, ino, st.size / 2), "truncate",
					x->strict, 0);
			}
		}
		clear_msg(x);
		checked(x, omfs_unlink(x->fs, x->first_file_dir, x->first_file_name,
				       x->first_file_len), "unlink", x->strict, 0);
	}
	if (x->first_dir) {
		clear_msg(x);
		if (checked(x, omfs_rename(x->fs, x->first_dir_parent, x->first_dir_name,
					   x->first_dir_len, root, "fz-renamed", 10), "rename dir",
			    x->strict, 0))
			return;
		clear_msg(x);
		/* ENOTEMPTY is the right answer for most directories */
		checked(x, omfs_rmdir(x->fs, root, "fz-renamed", 10), "rmdir", x->strict,
			ENOTEMPTY);
	}
}

static void write_pass(struct ex *x, const uint8_t *image, size_t size, bool strict)
{
	struct km_mem_device *m = device_copy(image, size);
	char msg[OMFS_ERRMSG_MAX];
	uint64_t root;

	x->phase = "read-write";
	if (mount_dev(x, m, false, EX_SMALL_CACHE, msg, sizeof(msg))) {
		if (strict)
			violation(x, "read-write mount failed on a volume fsck finds clean: %s", msg);
		km_mem_device_free(m);
		return;
	}
	x->strict = strict;
	x->first_file_dir = x->first_dir = 0;
	walk_tree(x);
	root = omfs_root_ino(x->fs);
	existing_ops(x, root);
	new_file_ops(x, root);
	clear_msg(x);
	checked(x, omfs_sync(x->fs), "sync", x->strict, 0);
	omfs_unmount(x->fs);
	x->fs = NULL;
	x->strict = false;

	x->phase = "after read-write";
	x->r->fsck_after_write = run_fsck(x, m, false);
	if (strict && x->r->fsck_after_write != OMFS_FSCK_CLEAN)
		violation(x, "fsck returned %d after our own operations on a clean volume",
			  x->r->fsck_after_write);
	read_only_pass(x, m->data, (size_t)m->size, strict, msg, sizeof(msg));
	km_mem_device_free(m);
}

/* The verdicts of fsck, fsck --repair and the fsck after it must agree. */
static void check_repair_verdicts(struct ex *x, const struct km_mem_device *m)
{
	const struct omfs_exercise_result *r = x->r;

	if (r->fsck_repair == OMFS_FSCK_CLEAN && r->fsck != OMFS_FSCK_CLEAN)
		violation(x, "fsck returned %d, then fsck --repair found nothing", r->fsck);
	if (r->fsck_repair != OMFS_FSCK_CLEAN && r->fsck == OMFS_FSCK_CLEAN &&
	    (r->fsck_repair != OMFS_FSCK_CORRECTED || !r->fsck_notes))
		violation(x, "fsck found nothing, then fsck --repair returned %d", r->fsck_repair);
	/* e2fsck's rule: a run that modified the volume does not exit 0 */
	if (r->fsck_repair == OMFS_FSCK_CLEAN && m->writes)
		violation(x, "fsck --repair changed the volume but returned 0, not 1");
	if (r->fsck_repair == OMFS_FSCK_CORRECTED && r->fsck_after_repair != OMFS_FSCK_CLEAN)
		violation(x, "fsck --repair said it corrected everything, the next fsck returned %d",
			  r->fsck_after_repair);
}

static void repair_pass(struct ex *x, const uint8_t *image, size_t size, bool oracle)
{
	struct km_mem_device *m = device_copy(image, size);
	struct omfs_exercise_result *r = x->r;
	char msg[OMFS_ERRMSG_MAX];

	x->phase = "fsck --repair";
	r->fsck_repair = run_fsck(x, m, true);
	x->phase = "fsck after --repair";
	r->fsck_after_repair = run_fsck(x, m, false);
	x->phase = "fsck --repair";
	if (oracle)
		check_repair_verdicts(x, m);
	x->phase = "read-only after --repair";
	read_only_pass(x, m->data, (size_t)m->size,
		       oracle && r->fsck_after_repair == OMFS_FSCK_CLEAN, msg, sizeof(msg));
	km_mem_device_free(m);
}

void omfs_exercise(const uint8_t *image, size_t size, unsigned flags,
		   struct omfs_exercise_result *r)
{
	struct ex *x = calloc(1, sizeof(*x));
	struct km_mem_device *m;
	bool oracle = flags & OMFS_EX_ORACLE;
	bool clean;

	if (!x)
		abort();
	memset(r, 0, sizeof(*r));
	r->fsck_repair = r->fsck_after_repair = r->fsck_after_write = OMFS_EX_NO_FSCK;
	x->r = r;

	x->phase = "fsck";
	m = device_copy(image, size);
	r->fsck = run_fsck(x, m, false);
	r->fsck_notes = x->notes;
	km_mem_device_free(m);
	clean = r->fsck == OMFS_FSCK_CLEAN;

	x->phase = "read-only";
	r->mount_err = read_only_pass(x, image, size,
				      (oracle && clean) || (flags & OMFS_EX_MUST_READ),
				      r->mount_msg, sizeof(r->mount_msg));
	if (flags & OMFS_EX_WRITE)
		write_pass(x, image, size, oracle && clean);
	if (flags & OMFS_EX_REPAIR)
		repair_pass(x, image, size, oracle);
	free(x);
}
