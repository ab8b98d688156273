/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kc.h - what the files of karmactl share: the command table entry, the
 * per-run context with the mounted volume, error reporting, path and I/O
 * helpers.
 */
#ifndef KC_H
#define KC_H

#include <glib.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "omfs.h"

enum {
	KC_EXIT_OK = 0,
	KC_EXIT_FAIL = 1,
	KC_EXIT_USAGE = 2,
	KC_EXIT_BUSY = 3,	/* another program holds the disk or player (--wait waits) */
	KC_EXIT_INTERRUPTED = 130,	/* Ctrl-C: what was done so far is kept */
};

/*
 * Bulk transfer size. 1 MiB stays in the CPU cache as dd's bs=1M does: an
 * 8 MiB buffer made cat about 10% slower and put about 20% slower, while
 * the one request per MiB it costs is negligible even over USB.
 */
#define KC_IO_SIZE ((size_t)1 << 20)

struct kc_device;

struct kc_ctx {
	const char *cmd;	/* the command's name, for messages */
	const char *image;	/* -i IMAGE, or NULL */
	uint64_t offset;	/* --offset: where the volume starts in the image */
	bool simulate;		/* --simulate: reach the image through the simulated Karma */
	bool usb;		/* --usb: the player connected over USB (image is then its name) */
	uint8_t usb_bus;	/* --usb BUS:ADDR; 0: the first player found */
	uint8_t usb_address;
	bool device;		/* --device NODE: image is a node of a player's disk */
	unsigned partition;	/* -p N: 1 or 2; 0 = the music partition on a whole disk */
	bool wait;		/* --wait: wait while another program holds the storage */
	int argc;		/* positional arguments of the command */
	char **argv;

	/* Set up by the dispatcher for commands that work on a mounted volume. */
	struct kc_device *dev;
	struct omfs_fs *fs;
	bool writable;
	void *io_buf;		/* KC_IO_SIZE bytes, allocated on first use */
};

enum kc_access {
	KC_NO_VOLUME,	/* the command opens what it needs itself */
	KC_READ_ONLY,
	KC_WRITABLE,
};

struct kc_command {
	const char *name;
	const char *args;	/* synopsis of the positional arguments */
	const char *summary;
	const GOptionEntry *options;	/* NULL-terminated, or NULL */
	const char *description;	/* shown after the options by --help, or NULL */
	int min_args;
	int max_args;
	enum kc_access access;
	bool makes_image_file;	/* mkfs, mkkarma: refused with --usb and --device */
	/* NULL in kc_karma_commands: the command is in the Karma module (kc-module.h) */
	int (*run)(struct kc_ctx *ctx);
};

/* kc-fs-cmds.c */
extern const struct kc_command kc_cmd_ls, kc_cmd_cat, kc_cmd_mkdir, kc_cmd_rm, kc_cmd_mv,
	kc_cmd_truncate;
/* kc-copy-cmds.c */
extern const struct kc_command kc_cmd_get, kc_cmd_put;
/* kc-admin-cmds.c */
extern const struct kc_command kc_cmd_mkfs, kc_cmd_fsck, kc_cmd_df, kc_cmd_info;
/* kc-manifest.c */
extern const struct kc_command kc_cmd_manifest;
/* The Karma module's commands: karma/kc-karma.h */

/* ---- kc-util.c: messages (all return the exit status to use) ---- */

/* "karmactl: CMD: WHAT: strerror (the core's sentence)"; err is a negative errno. */
int kc_fail(const struct kc_ctx *ctx, const char *what, int err);
/* The same for host-side errors: no core sentence. err is a positive errno. */
int kc_fail_errno(const struct kc_ctx *ctx, const char *what, int err);
int kc_failf(const struct kc_ctx *ctx, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
/* A usage error: one line with a hint, exit status 2. */
int kc_usage(const struct kc_ctx *ctx, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

/*
 * Ctrl-C: from kc_sigint_catch() on, SIGINT only sets a flag that long
 * commands check between files or chunks, so they stop in a consistent
 * state; sigaction(SIGINT, old, NULL) puts the old handler back.
 */
void kc_sigint_catch(struct sigaction *old);
bool kc_sigint_caught(void);

/* Bytes with an optional K, M, G or T suffix (powers of 1024). */
bool kc_parse_size(const char *s, uint64_t *out);

/* Host I/O that retries short transfers. 0 or a positive errno. */
int kc_write_all(int fd, const void *buf, size_t len);
/* Fills buf unless end of file comes first. Bytes read, or -errno. */
ssize_t kc_read_full(int fd, void *buf, size_t len);

/*
 * Volume paths: kc_path_normalize() makes "/a/b" out of "a//b/", "/a/./c/../b"
 * (".." is resolved by name); the root is "". Free with g_free().
 */
char *kc_path_normalize(const char *path);
/* How a normalized path is shown: the root as "/". */
const char *kc_path_show(const char *npath);
/* The last component of a normalized path ("" for the root). */
const char *kc_path_name(const char *npath);
/* The last component of a host path, trailing slashes ignored. Free with g_free(). */
char *kc_host_basename(const char *path);
/* s as a JSON string, quotes included; s is valid UTF-8. */
void kc_json_string(GString *out, const char *s);
/*
 * s as printed on a terminal: control characters (C0, DEL, C1) and bytes
 * that are not UTF-8 as \xHH, so that a tag or a name read from the disk
 * cannot send escape sequences (a new string).
 */
char *kc_shown(const char *s);

/*
 * ---- kc-device.c: the storage of -i IMAGE (directly or through the
 * simulated Karma), --device NODE or --usb ----
 */

/*
 * Opens ctx->image from ctx->offset on, with a shared lock for reading and
 * an exclusive one for writing (or the player's USB interface claimed);
 * prints why on failure. Storage another program holds: KC_EXIT_BUSY, or
 * with --wait, tried again until it is free.
 */
int kc_device_open(struct kc_ctx *ctx, bool writable, struct kc_device **out);
/* The whole storage: a whole Karma disk, or a bare volume. */
const struct omfs_blockdev *kc_device_blockdev(const struct kc_device *dev);

/*
 * The Karma partition label of the storage: KC_EXIT_OK with *label filled,
 * or label->n_partitions 0 when there is none (a bare volume); a damaged
 * label or a failed read is printed and its exit status returned.
 */
struct km_karma_label;
int kc_device_label(struct kc_ctx *ctx, struct kc_device *dev, struct km_karma_label *label);
/* A window onto partition `number` of the label, as the device's volume. */
int kc_device_partition(struct kc_ctx *ctx, struct kc_device *dev,
			const struct km_karma_label *label, unsigned number,
			const struct omfs_blockdev **volume);
/*
 * The OMFS volume the file system commands work on: on a whole Karma disk
 * the partition of -p, else the music partition; a bare volume is itself.
 */
int kc_device_volume(struct kc_ctx *ctx, struct kc_device *dev,
		     const struct omfs_blockdev **volume);
/* " partition N" when the volume is a partition of a whole disk, else "". */
const char *kc_device_volume_name(const struct kc_device *dev);
/* Closes (NULL is fine); returns the final status. */
int kc_device_close(struct kc_ctx *ctx, struct kc_device *dev, int status);
/* KARMACTL_STATS=1: print I/O counters on exit. */
bool kc_stats_wanted(void);
/* The process's CPU time in microseconds (KARMACTL_STATS' *_cpu_us figures). */
gint64 kc_cpu_us(void);

/* ---- kc-mounts.c ---- */

/*
 * Before opening path: when it is mounted, refuses to write to it (prints
 * why, returns KC_EXIT_FAIL) and warns that what is read may be stale.
 * (--usb's check asks udev: the Karma module's check_usb_not_mounted.)
 */
int kc_check_not_mounted(const struct kc_ctx *ctx, const char *path, bool writable);

/* ---- kc-volume.c ---- */

int kc_volume_open(struct kc_ctx *ctx, bool writable);
/* Syncs, prints the counters when KARMACTL_STATS=1, unmounts; returns the final status. */
int kc_volume_close(struct kc_ctx *ctx, int status);
void *kc_io_buffer(struct kc_ctx *ctx);
/* One line of key=value pairs on stderr, for the benchmark scripts; extra is appended. */
void kc_print_counters(const struct omfs_fs *fs, const char *extra);

/* Looks up a normalized path; -errno on failure (nothing printed). */
int kc_lookup(struct kc_ctx *ctx, const char *npath, uint64_t *ino, struct omfs_stat *st);
/* The directory holding a normalized path's last component; prints on failure. */
int kc_lookup_parent(struct kc_ctx *ctx, const char *npath, uint64_t *dir);

/* Reads a whole file in KC_IO_SIZE pieces into sink; sink prints its own errors. */
typedef int (*kc_sink_fn)(void *sink_ctx, const void *buf, size_t len);
int kc_read_file(struct kc_ctx *ctx, const char *npath, uint64_t ino, kc_sink_fn sink,
		 void *sink_ctx);

/* Writes a whole file to fd (named fdname in messages) with full writes. */
int kc_copy_to_fd(struct kc_ctx *ctx, const char *npath, uint64_t ino, int fd,
		  const char *fdname);

/* A directory's entries, sorted by name in byte order. Free with g_free(). */
int kc_read_dir(struct kc_ctx *ctx, const char *npath, uint64_t dir, struct omfs_dirent **ents,
		size_t *count);

/*
 * Walks the tree under dir (path npath): enter() gets each directory's sorted
 * entries before its subdirectories are walked; leave(), when set, is called
 * for each subdirectory after its own subtree. Loops and absurd depths (a
 * corrupt volume) stop the walk with an error.
 */
struct kc_walk_ops {
	int (*enter)(struct kc_ctx *ctx, void *wctx, const char *npath, uint64_t dir,
		     const struct omfs_dirent *ents, size_t count);
	int (*leave)(struct kc_ctx *ctx, void *wctx, const char *npath, uint64_t parent,
		     const struct omfs_dirent *ent);
};
int kc_walk(struct kc_ctx *ctx, const char *npath, uint64_t dir, const struct kc_walk_ops *ops,
	    void *wctx);
/* npath + "/" + name. Free with g_free(). */
char *kc_path_child(const char *npath, const char *name);

#endif
