/* SPDX-License-Identifier: GPL-2.0-or-later */
/* km-sources.c - var/km-sources in and out (km-sources.h, docs/KARMA.md §11.1). */
#include "km-sources.h"

#include <gio/gio.h>
#include <stdlib.h>
#include <string.h>

#define RID_DIGITS 32
/* size (at most 16 hex digits), '-', rid */
#define ID_MAX (16 + 1 + RID_DIGITS)

GHashTable *km_sources_new(void)
{
	return g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
}

static gboolean is_hex(const char *s, gsize len)
{
	for (gsize i = 0; i < len; i++)
		if (!g_ascii_isxdigit(s[i]) || g_ascii_isupper(s[i]))
			return FALSE;
	return TRUE;
}

static gboolean rid_is_valid(const char *rid)
{
	return strlen(rid) == RID_DIGITS && is_hex(rid, RID_DIGITS);
}

gboolean km_sources_id_is_valid(const char *id)
{
	const char *dash = strchr(id, '-');
	gsize size_digits = dash ? (gsize)(dash - id) : 0;

	return dash && size_digits >= 1 && size_digits <= 16 && is_hex(id, size_digits) &&
	       rid_is_valid(dash + 1);
}

void km_sources_insert(GHashTable *sources, const char *id, guint32 fid, const char *rid)
{
	KmSource *source = g_new0(KmSource, 1);

	g_return_if_fail(km_sources_id_is_valid(id) && rid_is_valid(rid));
	source->fid = fid;
	memcpy(source->rid, rid, RID_DIGITS);
	g_hash_table_insert(sources, g_strdup(id), source);
}

/* "ID FID RID": FALSE when the line is anything else. */
static gboolean parse_line(GHashTable *sources, char *line)
{
	char *fields[3], *end;
	guint64 fid;
	guint n = 0;

	for (char *p = strtok_r(line, " ", &end); p; p = strtok_r(NULL, " ", &end)) {
		if (n == 3)
			return FALSE;
		fields[n++] = p;
	}
	if (n != 3 || strlen(fields[0]) > ID_MAX || !km_sources_id_is_valid(fields[0]) ||
	    !rid_is_valid(fields[2]) ||
	    !g_ascii_string_to_unsigned(fields[1], 10, 1, G_MAXUINT32, &fid, NULL))
		return FALSE;
	km_sources_insert(sources, fields[0], (guint32)fid, fields[2]);
	return TRUE;
}

GHashTable *km_sources_parse(GBytes *data, guint *bad_lines, GError **error)
{
	gsize len;
	const char *bytes = g_bytes_get_data(data, &len);
	const gsize header = strlen(KM_SOURCES_HEADER);
	g_autoptr(GHashTable) sources = km_sources_new();
	g_autofree char *text = NULL;
	char *line, *next;

	*bad_lines = 0;
	if (len < header || memcmp(bytes, KM_SOURCES_HEADER, header) != 0) {
		g_set_error_literal(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
				    "it does not start with " "\"KMSRC1\"");
		return NULL;
	}
	text = g_strndup(bytes + header, len - header);	/* stops at a NUL byte, ends in one */
	if (strlen(text) != len - header)
		(*bad_lines)++;	/* a NUL byte: what follows it is not read */
	for (line = text; *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		else
			next = line + strlen(line);
		if (*line && !parse_line(sources, line))
			(*bad_lines)++;
	}
	return g_steal_pointer(&sources);
}

static int compare_ids(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

GBytes *km_sources_build(GHashTable *sources)
{
	g_autoptr(GPtrArray) ids = g_ptr_array_sized_new(g_hash_table_size(sources));
	GString *out = g_string_new(KM_SOURCES_HEADER);
	GHashTableIter iter;
	gpointer id;

	g_hash_table_iter_init(&iter, sources);
	while (g_hash_table_iter_next(&iter, &id, NULL))
		g_ptr_array_add(ids, id);
	g_ptr_array_sort(ids, compare_ids);
	for (guint i = 0; i < ids->len; i++) {
		const KmSource *source = g_hash_table_lookup(sources, ids->pdata[i]);

		g_string_append_printf(out, "%s %u %s\n", (char *)ids->pdata[i], source->fid,
				       source->rid);
	}
	return g_string_free_to_bytes(out);
}
