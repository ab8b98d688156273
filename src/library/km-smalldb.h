/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-smalldb.h - `var/smalldb`, the player's index over every object's
 * properties (docs/KARMA.md §9): read it, applying the update
 * records and the deletion bitmap, and write it as libkarma does, in
 * little-endian whatever the host.
 *
 * One row per object, 36 columns.  smalldb cannot tell a missing property
 * from a zero or empty one, so this module has one rule both ways:
 *
 *   - km_smalldb_parse() sets a property only for a non-zero number, a
 *     non-empty string or a non-empty blob.  A key the object does not have
 *     means the column held 0, "" or nothing.  The fid is set with
 *     km_properties_set_fid(), never as a "fid" key.
 *   - km_smalldb_build() stores a missing property as 0, "" or an empty blob.
 *     A number is what km_properties_get_uint() reads (decimal or 0x-hex;
 *     libkarma reads "0x10" as 0), a negative decimal its two's complement,
 *     anything else 0, cut to the column's width as libkarma does
 *     (tracknr=300 is stored as 44).  A `profile` that is not exactly 40
 *     bytes is stored as empty.
 *
 * km_smalldb_row_equal() compares two objects by what smalldb would store
 * for them, which is how to tell whether smalldb agrees with the "…1" files.
 */
#ifndef KM_SMALLDB_H
#define KM_SMALLDB_H

#include <glib.h>

#include "km-properties.h"

G_BEGIN_DECLS

#define KM_SMALLDB_ERROR (km_smalldb_error_quark())
GQuark km_smalldb_error_quark(void);
typedef enum {
	KM_SMALLDB_ERROR_TRUNCATED,	/* a section runs past the end of the file */
	KM_SMALLDB_ERROR_CORRUPT,	/* a count, offset, size or value that cannot be right */
	KM_SMALLDB_ERROR_UNSUPPORTED,	/* columns other than the 36 this module knows */
	KM_SMALLDB_ERROR_INVALID_OBJECTS, /* build: two objects with one fid, or too large */
} KmSmalldbError;

#define KM_SMALLDB_N_COLUMNS 36

typedef struct {
	guint32 version;	/* h0: 2 on a fresh file; meaning unknown, kept */
	guint32 timestamp;	/* h1, repeated as the trailer: Unix time of the write */
	guint32 h2;		/* 8 on a fresh file; meaning unknown, kept */
	guint32 h3;		/* 3 on a fresh file; meaning unknown, kept */
	/* What parse found (build ignores these). */
	guint32 row_count_first; /* the first of the two row-count words */
	guint32 n_rows;		/* rows in the column data */
	guint32 n_update_records; /* applied */
	guint32 n_deleted;	/* rows dropped by the deletion bitmap */
} KmSmalldbHeader;

/* The key of column i (0 = "fid" ... 35 = "bytes_silence_eof"). */
const char *km_smalldb_column_name(guint column);
/* Whether smalldb stores this key (a change to it needs a smalldb rewrite). */
gboolean km_smalldb_is_column(const char *key);
/* Whether smalldb stores this key as a number (u8, u16 or u32 column). */
gboolean km_smalldb_column_is_numeric(const char *key);
/* The largest number a numeric column holds (255, 65535 or 4294967295); FALSE for others. */
gboolean km_smalldb_column_max(const char *key, guint64 *max);

/*
 * The objects of a smalldb file, as KmProperties*, in ascending fid order.
 * Update records are applied; rows the deletion bitmap marks are left out
 * unless an update record refers to them, and their fids are returned in
 * *deleted_fids_out (guint32; the player deleted those objects, so their
 * files should go too, as libkarma does, rather than come back in the next
 * rebuild).  hdr_out and deleted_fids_out may be NULL.  Every count, offset
 * and size is checked against the data; on error, NULL and a message naming
 * the section and byte offset.
 */
GPtrArray *km_smalldb_parse(GBytes *data, KmSmalldbHeader *hdr_out, GArray **deleted_fids_out,
			    GError **error);

/*
 * The bytes of a smalldb for these objects (KmProperties*, in any order;
 * written in ascending fid order).  With hdr, its version, h2 and h3 are
 * kept; with NULL, those of a fresh file.  No update records, an empty
 * deletion bitmap, timestamp in the header and the trailer.
 */
GBytes *km_smalldb_build(GPtrArray *objects, const KmSmalldbHeader *hdr,
			 guint32 timestamp, GError **error);

/*
 * TRUE when smalldb would store the same row for a and b (fid included).
 * Otherwise FALSE, and *differing_column (if not NULL) is the first key
 * that differs.
 */
gboolean km_smalldb_row_equal(const KmProperties *a, const KmProperties *b,
			      const char **differing_column);

/*
 * The keys of every column in which a and b differ, ", "-separated (in
 * column order), or NULL when smalldb would store the same row for both;
 * *n_columns says how many.
 */
char *km_smalldb_row_diff(const KmProperties *a, const KmProperties *b, guint *n_columns);

/*
 * Whether value is a number that key's column holds as it is: a decimal
 * from 0 to the column's largest (*max: 255, 65535 or 4294967295). Keys that
 * smalldb stores as no number (or not at all) fit whatever their value, with
 * *max 0. Shared by everything that checks numbers before they reach smalldb
 * (verify and rebuild-db report the ones that do not fit, which smalldb
 * would store cut to the column's width).
 */
gboolean km_smalldb_number_fits(const char *key, const char *value, guint64 *max);

G_END_DECLS

#endif
