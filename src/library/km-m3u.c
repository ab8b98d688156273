/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-m3u.c - M3U and M3U8 playlist files (km-m3u.h).
 */
#include "km-m3u.h"

#include <glib/gi18n-lib.h>
#include <string.h>

void km_m3u_entry_free(KmM3uEntry *entry)
{
	if (!entry)
		return;
	g_free(entry->text);
	g_free(entry->path);
	g_free(entry);
}

/* "scheme:" at the start of text: a URI, not a file name (a name may hold ':' later on). */
static gboolean is_uri(const char *text)
{
	const char *p = text;

	if (!g_ascii_isalpha(*p))
		return FALSE;
	while (g_ascii_isalnum(*p) || *p == '+' || *p == '-' || *p == '.')
		p++;
	/* "C:\..." of a Windows list is no URI: a scheme has two letters or more */
	return *p == ':' && p - text > 1;
}

static char *entry_path(const char *text, const char *base_dir)
{
	if (g_str_has_prefix(text, "file://"))
		return g_filename_from_uri(text, NULL, NULL);
	if (is_uri(text))
		return NULL;
	if (g_path_is_absolute(text))
		return g_strdup(text);
	return g_build_filename(base_dir, text, NULL);
}

gboolean km_m3u_check_bytes(const char *data, gsize len, GError **error)
{
	if (len > KM_M3U_MAX_SIZE || memchr(data, '\0', len)) {
		g_set_error_literal(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
				    len > KM_M3U_MAX_SIZE ? _("Larger than any playlist file") :
				    _("Not a playlist file: it holds binary data"));
		return FALSE;
	}
	return TRUE;
}

gsize km_m3u_bom_size(const char *data, gsize len)
{
	return len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
}

GPtrArray *km_m3u_parse(const char *data, gsize len, const char *base_dir, GError **error)
{
	g_autoptr(GPtrArray) entries = NULL;
	const char *end = data + len, *p = data;
	guint line = 0;

	if (!km_m3u_check_bytes(data, len, error))
		return NULL;
	entries = g_ptr_array_new_with_free_func((GDestroyNotify)km_m3u_entry_free);
	p += km_m3u_bom_size(data, len);
	while (p < end) {
		const char *nl = memchr(p, '\n', (gsize)(end - p));
		const char *stop = nl ? nl : end;
		gsize n = (gsize)(stop - p);
		KmM3uEntry *entry;

		line++;
		if (n && p[n - 1] == '\r')
			n--;
		if (n && p[0] != '#') {
			entry = g_new0(KmM3uEntry, 1);
			entry->text = g_strndup(p, n);
			entry->path = entry_path(entry->text, base_dir);
			entry->line = line;
			g_ptr_array_add(entries, entry);
		}
		p = nl ? nl + 1 : end;
	}
	return g_steal_pointer(&entries);
}
