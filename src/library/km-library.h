/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-library.h - the Karma music library on a music partition: every object
 * (tune, playlist, taxi) as KmProperties keyed by its fid, as the player's
 * index var/smalldb and the "…1" properties files describe them.
 *
 * Opening trusts var/smalldb when it is there (it reads little more than
 * that one file); km_library_verify() (km-verify.h) reads every properties
 * file and compares. Changes go through a transaction (km-transaction.h),
 * which rewrites smalldb once, at commit.
 *
 * Not thread-safe: one owner (a session's worker thread) calls everything.
 */
#ifndef KM_LIBRARY_H
#define KM_LIBRARY_H

#include <glib-object.h>

#include "km-properties.h"

G_BEGIN_DECLS

/*
 * The OMFS core's device handle (omfs.h), handed on, so only declared here:
 * who includes this header does not see the core (the layers test checks
 * src/app). km-library-fs.h gives the volume itself to those who need it.
 */
struct omfs_blockdev;

#define KM_LIBRARY_ERROR (km_library_error_quark())
GQuark km_library_error_quark(void);
typedef enum {
	KM_LIBRARY_ERROR_NOT_KARMA,	/* no OMFS volume whose root holds fids0/ and var/ */
	KM_LIBRARY_ERROR_BAD_LABEL,	/* a Karma partition label that cannot be right */
	KM_LIBRARY_ERROR_IO,		/* the volume or the device failed (omfs says why) */
	KM_LIBRARY_ERROR_READ_ONLY,	/* a change to a library opened read-only */
	KM_LIBRARY_ERROR_BUSY,		/* a transaction is already open */
	KM_LIBRARY_ERROR_NOT_FOUND,	/* no object with that fid */
	KM_LIBRARY_ERROR_INVALID,	/* an argument that cannot be right */
	KM_LIBRARY_ERROR_FULL,		/* no fid left, or a playlist with 15000 entries */
	KM_LIBRARY_ERROR_CORRUPT,	/* a file on the disk that cannot be right */
	KM_LIBRARY_ERROR_FAILED,	/* a commit failed half-way: close and open again */
	KM_LIBRARY_ERROR_NO_ROOM,	/* an import's next file does not fit (km-library-import.h) */
} KmLibraryError;

/*
 * Whether error says the player (the volume or the device) failed, not one
 * file or object: every later call would meet it too, so a batch stops.
 */
gboolean km_library_error_is_device(const GError *error);

#define KM_TYPE_LIBRARY (km_library_get_type())
G_DECLARE_FINAL_TYPE(KmLibrary, km_library, KM, LIBRARY, GObject)

typedef struct {
	gboolean writable;
	/* Read every properties file instead of trusting var/smalldb (slow). */
	gboolean scan;
	/* On a whole Karma disk: partition 1 or 2; 0 finds the music partition. */
	guint partition;
	/* Unix seconds for fid_generation, ctime and smalldb; NULL: the real clock. */
	gint64 (*clock)(gpointer data);
	gpointer clock_data;
} KmLibraryOptions;

/*
 * dev is a whole Karma disk (partition label in sector 0: the music
 * partition is the OMFS volume whose root holds fids0/ and var/, the larger
 * if both do) or a bare OMFS volume. It must outlive the library. options
 * may be NULL (read-only). A writable open finishes a commit that a crash
 * interrupted. What open noticed and did is in km_library_get_warnings().
 */
KmLibrary *km_library_open(const struct omfs_blockdev *dev, const KmLibraryOptions *options,
			   GError **error);
/*
 * Roll back an open transaction, write everything back and unmount. The
 * library is then closed: every later call fails. Finalizing an open
 * library closes it too, but cannot report an error.
 */
gboolean km_library_close(KmLibrary *lib, GError **error);

/* fids0/, var/ and an empty var/smalldb on a freshly made OMFS volume. */
gboolean km_library_create_layout(const struct omfs_blockdev *volume, guint32 timestamp,
				  GError **error);

gboolean km_library_is_writable(KmLibrary *lib);
/* 1 or 2 on a whole disk, 0 for a bare volume. */
guint km_library_get_partition(KmLibrary *lib);
/* One sentence per thing open noticed or repaired (NULL-terminated, owned by lib). */
const char *const *km_library_get_warnings(KmLibrary *lib);
/*
 * Whether open found damage that verify reports too (smalldb missing or
 * unreadable, rows or objects left out), as opposed to news (the player's
 * deletions, a commit it finished): the app offers Check & Repair then.
 */
gboolean km_library_found_damage(KmLibrary *lib);
/* The music partition's size and free space, in bytes. */
typedef struct {
	guint64 total_bytes;
	guint64 free_bytes;
} KmLibrarySpace;
gboolean km_library_get_space(KmLibrary *lib, KmLibrarySpace *space, GError **error);
/*
 * Write back everything the library holds and flush the device's cache:
 * the disk is whole as it stands (before it is read raw, as a backup does).
 */
gboolean km_library_flush(KmLibrary *lib, GError **error);
/* How many times var/smalldb was written since open (benchmarks count them). */
guint km_library_get_smalldb_writes(KmLibrary *lib);

guint km_library_get_n_objects(KmLibrary *lib);
/* The committed object with this fid (owned by lib, valid until the next commit), or NULL. */
KmProperties *km_library_lookup(KmLibrary *lib, guint32 fid);
/* Every committed object, in ascending fid order (a new array of new references). */
GPtrArray *km_library_list(KmLibrary *lib);
/*
 * Playlist entry -> object: the object with that fid, when its fid_generation
 * is the entry's; otherwise NULL (the track is gone, its fid reused).
 */
KmProperties *km_library_resolve(KmLibrary *lib, guint32 fid, guint32 generation);

/* The size of an object's data file. */
gboolean km_library_get_data_size(KmLibrary *lib, guint32 fid, guint64 *size, GError **error);
/* Bytes of an object's data file read at offset (0 at the end), or -1 with error. */
gssize km_library_read_data(KmLibrary *lib, guint32 fid, guint64 offset, void *buf, gsize len,
			    GError **error);

/*
 * Whether candidate (a track about to be imported) is already there: a tune
 * with the same `rid` and the same artist, source (album), title and
 * tracknr. The caller decides whether to skip it or copy it anyway.
 */
gboolean km_library_find_duplicate(KmLibrary *lib, const KmProperties *candidate, guint32 *fid);

G_END_DECLS

#endif
