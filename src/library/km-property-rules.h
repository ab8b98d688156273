/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-property-rules.h - what a property's key and value may be when we
 * write one: the rules that `karmactl tag`, the app's tag editor (both
 * through km_transaction_set_property()) and the import of a host file's
 * tags share, and that a repair may use to judge a stored value.
 *
 * - a key is printable ASCII without '=' or space (what libkarma and the
 *   player use), KM_PROPERTY_MAX_KEY bytes at most;
 * - a text value is valid UTF-8, KM_PROPERTY_MAX_TEXT bytes at most;
 * - a key smalldb stores as a number (length, duration, play_count…,
 *   km_smalldb_column_is_numeric()) takes decimal digits only, no sign,
 *   and no more than its column holds (255, 65535 or 4294967295);
 * - tracknr is 1 to 255, year four digits (what km-import.h writes).
 */
#ifndef KM_PROPERTY_RULES_H
#define KM_PROPERTY_RULES_H

#include <glib.h>

G_BEGIN_DECLS

/*
 * The longest text value written, in bytes. The player's screen shows a
 * few dozen characters of a title; 255 bytes hold that in any script and
 * stay far below what any reader of the files accepts (a properties file
 * is at most KM_PROPERTIES_MAX_SIZE, 1 MiB, for all of its keys).
 */
#define KM_PROPERTY_MAX_TEXT 255
#define KM_PROPERTY_MAX_KEY 64

/*
 * Whether value (NULL: the key is to be removed) may be stored under key;
 * otherwise FALSE and a KM_LIBRARY_ERROR_INVALID that names the key and
 * says what it takes. Control characters of the key or value are escaped
 * in the message.
 */
gboolean km_property_check(const char *key, const char *value, GError **error);

/* A copy of the UTF-8 text utf8 cut to KM_PROPERTY_MAX_TEXT bytes, at a character. */
char *km_property_cap_text(const char *utf8);

G_END_DECLS

#endif
