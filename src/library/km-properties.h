/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-properties.h - a Karma object's properties: the `key=value` lines of its
 * "…1" file (docs/KARMA.md §7), in file order.
 *
 * Values are kept as they appear in the file (the escaped text form), so keys
 * we never touch are written back byte for byte. The accessors decode and
 * encode, following what libkarma 0.1.2 (riocp) really writes and reads
 * (tests/library/fixtures/README.md):
 * - string values are raw UTF-8 with no escaping at all: a backslash is just a
 *   backslash, a tab or other control byte is stored as it is. Only a line
 *   break cannot be stored, so km_properties_set() turns each '\n' into a
 *   space (libkarma turns NUL bytes into spaces the same way);
 * - the binary values (playlist, profile: km_properties_is_blob_key()) escape
 *   0x0A as \n, the backslash as \\, the other bytes below 0x20 as \xHH
 *   (upper-case hex), and keep every other byte, 0x7F-0xFF too, as it is.
 */
#ifndef KM_PROPERTIES_H
#define KM_PROPERTIES_H

#include <glib.h>

G_BEGIN_DECLS

typedef struct _KmProperties KmProperties;

#define KM_PROPERTIES_ERROR (km_properties_error_quark())
GQuark km_properties_error_quark(void);
typedef enum {
	KM_PROPERTIES_ERROR_SYNTAX,	/* a line without '=', an empty key, a bad escape */
	KM_PROPERTIES_ERROR_ENCODING,	/* a value that is not valid UTF-8 after decoding */
	KM_PROPERTIES_ERROR_TOO_LARGE,	/* the file or a value is larger than any real one */
} KmPropertiesError;

/* Larger than any real file (a 15000-entry playlist, escaped, is under 0.5 MiB). */
#define KM_PROPERTIES_MAX_SIZE (1024 * 1024)

KmProperties *km_properties_new(void);
KmProperties *km_properties_ref(KmProperties *props);
void km_properties_unref(KmProperties *props);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(KmProperties, km_properties_unref)
KmProperties *km_properties_copy(const KmProperties *props);

/* Parse a properties file. The error names the line and the problem. */
KmProperties *km_properties_parse(const char *data, gsize len, GError **error);
/* The file's bytes; parse then serialize gives back the same bytes. */
GBytes *km_properties_serialize(const KmProperties *props);

/* Printable ASCII without '=' or space, not empty: every key libkarma or the player uses. */
gboolean km_properties_key_is_valid(const char *key);

/* playlist and profile: their values are binary (get_blob/set_blob), not strings. */
gboolean km_properties_is_blob_key(const char *key);

/* Decoded string value (valid UTF-8), or NULL when the key is absent or binary. */
const char *km_properties_get(const KmProperties *props, const char *key);
/* Replace the value, or append the key at the end when absent. */
void km_properties_set(KmProperties *props, const char *key, const char *utf8_value);
gboolean km_properties_get_uint(const KmProperties *props, const char *key, guint64 *value);
void km_properties_set_uint(KmProperties *props, const char *key, guint64 value);
/* Binary value (the playlist blob, profile; a new reference), or NULL when absent. */
GBytes *km_properties_get_blob(const KmProperties *props, const char *key);
void km_properties_set_blob(KmProperties *props, const char *key, GBytes *value);
gboolean km_properties_remove(KmProperties *props, const char *key);
gboolean km_properties_contains(const KmProperties *props, const char *key);

/* Keys in file order; the array is owned by props and valid until it changes. */
const char *const *km_properties_keys(const KmProperties *props, guint *n_keys);

/* The object's fid (not stored in the file: it comes from the file name). */
guint32 km_properties_get_fid(const KmProperties *props);
void km_properties_set_fid(KmProperties *props, guint32 fid);

/* What an object is, from its `type` (docs/KARMA.md §6 and §7). */
typedef enum {
	KM_OBJECT_OTHER,	/* no `type`, or one the player does not know */
	KM_OBJECT_TUNE,
	KM_OBJECT_PLAYLIST,
	KM_OBJECT_TAXI,		/* a data file kept on the player */
} KmObjectType;
/* The one place that reads `type` for its meaning; props may be NULL (OTHER). */
KmObjectType km_properties_get_object_type(const KmProperties *props);

G_END_DECLS

#endif
