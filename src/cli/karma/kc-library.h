/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kc-library.h - the Karma library of -i IMAGE for karmactl's Karma-level
 * commands: a whole Karma disk or a bare music volume (the library tells
 * which; the global --partition chooses one of a disk's partitions).
 */
#ifndef KC_LIBRARY_H
#define KC_LIBRARY_H

#include "kc-karma.h"
#include "km-convert.h"
#include "km-library.h"
#include "km-library-import.h"
#include "km-playlist-import.h"
#include "km-transaction.h"

struct kc_library {
	struct kc_device *dev;
	KmLibrary *lib;
	/* how long km_library_open() took (KARMACTL_STATS): wall clock, and CPU time */
	gint64 open_us, open_cpu_us;
};

/*
 * Opens ctx->image (from ctx->offset on) and its library; prints the warnings
 * of open. scan: read every properties file instead of trusting var/smalldb.
 */
int kc_library_open(struct kc_ctx *ctx, bool writable, bool scan, struct kc_library *kl);
/* Closes the library and the image; returns the final status. */
int kc_library_close(struct kc_ctx *ctx, struct kc_library *kl, int status);
/* "karmactl: CMD: WHAT: the error's message"; returns KC_EXIT_FAIL. */
int kc_fail_gerror(const struct kc_ctx *ctx, const char *what, const GError *error);

/*
 * Opens the library writable and calls fn in a transaction, which is
 * committed (smalldb rewritten once) when fn returns KC_EXIT_OK and rolled
 * back otherwise, so a command changes all it was asked to or nothing.
 */
typedef int (*kc_edit_fn)(struct kc_ctx *ctx, KmTransaction *tx, void *data);
int kc_library_edit(struct kc_ctx *ctx, kc_edit_fn fn, void *data);
/* printf for an edit's messages: inside kc_library_edit, held until the commit succeeded. */
void kc_say(const char *fmt, ...) G_GNUC_PRINTF(1, 2);

/* Whether QUERY (case-folded; NULL matches all) is in the title, artist, album or genre. */
bool kc_library_matches(const KmProperties *p, const char *folded_query);
/*
 * kc-add-cmd.c: host files imported as add imports them (km_library_import(),
 * committed once), each file's outcome said, a progress line, Ctrl-C
 * committing what was copied; or, with playlist_file, that M3U/M3U8 or XSPF list
 * made a playlist (km_library_import_playlist(): its files imported the
 * same way, those there already used). Returns add's exit status.
 */
struct kc_import_request {
	const char *const *roots;
	guint n_roots;
	bool recursive;
	KmImportFlags flags;
	bool copy_duplicates;
	bool show_progress;	/* even when stdout is no terminal */
	const char *playlist_file;	/* instead of roots */
	const char *playlist_name;	/* NULL: the file's name */
	const KmConvertSettings *convert;	/* NULL: files the player cannot play are refused */
};
int kc_import(struct kc_ctx *ctx, KmLibrary *lib, const struct kc_import_request *req);

/* NAME or FID: a fid of a playlist, or the one playlist of that name (kc-playlist-cmd.c). */
int kc_find_playlist(struct kc_ctx *ctx, KmLibrary *lib, const char *arg, guint32 *fid);
/* A fid given on the command line: decimal or 0x hex. */
bool kc_fid_from_string(const char *s, guint32 *fid);
/* The same, with a usage error when s is no fid. */
int kc_parse_fid(const struct kc_ctx *ctx, const char *s, guint32 *fid);

#endif
