/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-properties.c - fuzz target: the input is a "…1" properties file.
 * What km_properties_parse() accepts serializes back to the same bytes;
 * every value reads through the accessors (strings are valid UTF-8); a
 * copy with every value set again through the setters parses again with
 * the same decoded values.
 */
#include "fuzz-target.h"
#include "km-properties.h"

#include <stdio.h>
#include <string.h>

/* Each key read back through the accessors, and set again on copy. */
static const char *read_and_copy(const KmProperties *props, KmProperties *copy)
{
	guint n;
	const char *const *keys = km_properties_keys(props, &n);

	for (guint i = 0; i < n; i++) {
		const char *value;
		guint64 number;

		if (km_properties_is_blob_key(keys[i])) {
			g_autoptr(GBytes) blob = km_properties_get_blob(props, keys[i]);

			if (!blob)
				return "a blob key has no blob";
			km_properties_set_blob(copy, keys[i], blob);
			continue;
		}
		value = km_properties_get(props, keys[i]);
		if (!value)
			return "a key listed by km_properties_keys() has no value";
		if (!g_utf8_validate(value, -1, NULL))
			return "a string value is not valid UTF-8";
		km_properties_get_uint(props, keys[i], &number);
		km_properties_set(copy, keys[i], value);
	}
	return NULL;
}

static const char *same_values(const KmProperties *a, const KmProperties *b)
{
	guint n, m;
	const char *const *keys = km_properties_keys(a, &n);

	km_properties_keys(b, &m);
	if (n != m)
		return "setting every value again changed the number of keys";
	for (guint i = 0; i < n; i++) {
		if (km_properties_is_blob_key(keys[i])) {
			g_autoptr(GBytes) x = km_properties_get_blob(a, keys[i]);
			g_autoptr(GBytes) y = km_properties_get_blob(b, keys[i]);

			if (!y || !g_bytes_equal(x, y))
				return "a blob set again reads back different";
		} else if (g_strcmp0(km_properties_get(a, keys[i]),
				     km_properties_get(b, keys[i]))) {
			return "a string set again reads back different";
		}
	}
	return NULL;
}

const char *fuzz_target_run(const uint8_t *data, size_t size, char *note, size_t notelen)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(KmProperties) props = km_properties_parse((const char *)data, size, &error);
	g_autoptr(KmProperties) copy = NULL;
	g_autoptr(KmProperties) again = NULL;
	g_autoptr(GBytes) out = NULL;
	g_autoptr(GBytes) out2 = NULL;
	const char *broken;
	guint n;

	if (!props) {
		snprintf(note, notelen, "refused: %s", error->message);
		return error->message[0] ? NULL : "parse failed without a message";
	}
	km_properties_keys(props, &n);
	snprintf(note, notelen, "%u keys, fid %u", n, km_properties_get_fid(props));
	out = km_properties_serialize(props);
	if (g_bytes_get_size(out) != size ||
	    (size && memcmp(g_bytes_get_data(out, NULL), data, size)))
		return "serialize did not give back the bytes parsed";
	copy = km_properties_new();
	broken = read_and_copy(props, copy);
	if (broken)
		return broken;
	out2 = km_properties_serialize(copy);
	again = km_properties_parse(g_bytes_get_data(out2, NULL), g_bytes_get_size(out2), &error);
	if (!again)
		return "what the setters wrote does not parse";
	return same_values(props, again);
}
