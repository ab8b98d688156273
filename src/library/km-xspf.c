/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-xspf.c - XSPF playlist files (km-xspf.h), through GMarkup: it expands
 * no entity but XML's five and character references, and reads no DTD, so
 * a hostile list grows nothing beyond its own bytes (bounded by
 * KM_M3U_MAX_SIZE) and the element stack (bounded by KM_XSPF_MAX_DEPTH).
 */
#include "km-xspf.h"

#include <glib/gi18n-lib.h>
#include <string.h>

/* The elements an entry is read from, at their depth (the root's is 0). */
enum { IN_PLAYLIST = 0, IN_TRACK_LIST, IN_TRACK, IN_FIELD };

typedef struct {
	GPtrArray *entries;
	const char *base_uri;	/* the list's folder as a file: URI ending in '/' */
	guint depth;		/* of the elements open */
	guint off;		/* the depth of the first open element off the way, or 0 */
	KmM3uEntry *track;	/* the <track> open, or NULL */
	char *title;		/* its <title> */
	GString *text;		/* of the <location> or <title> open, or NULL */
	char *prefix;		/* "P:" when the root is <P:playlist xmlns:P=…>, else "" */
} XspfReader;

gboolean km_xspf_sniff(const char *data, gsize len)
{
	gsize i = km_m3u_bom_size(data, len);

	while (i < len && g_ascii_isspace(data[i]))
		i++;
	return i < len && data[i] == '<';
}

/*
 * The prefix of XSPF's elements when the root is <playlist xmlns=XSPF> ("")
 * or <P:playlist xmlns:P=XSPF> ("P:"), else NULL.
 */
static char *xspf_root_prefix(const char *name, const char **names, const char **values)
{
	const char *colon = strchr(name, ':');
	gsize prefix_len = colon ? (gsize)(colon - name) : 0;
	g_autofree char *declaration = colon ? g_strdup_printf("xmlns:%.*s", (int)prefix_len, name)
					     : g_strdup("xmlns");

	if (strcmp(colon ? colon + 1 : name, "playlist") != 0)
		return NULL;
	for (guint i = 0; names[i]; i++)
		if (strcmp(names[i], declaration) == 0)
			return strcmp(values[i], KM_XSPF_NAMESPACE) == 0 ?
			       g_strndup(name, colon ? prefix_len + 1 : 0) : NULL;
	return NULL;
}

/* name without XSPF's prefix; NULL when it is no XSPF element (another prefix). */
static const char *xspf_name(const XspfReader *r, const char *name)
{
	if (*r->prefix)
		return g_str_has_prefix(name, r->prefix) ? name + strlen(r->prefix) : NULL;
	return strchr(name, ':') ? NULL : name;
}

/* Whether name, at depth, is the next element of the way to a track's location or title. */
static gboolean on_the_way(const char *name, guint depth)
{
	if (!name)
		return FALSE;
	switch (depth) {
	case IN_TRACK_LIST:
		return strcmp(name, "trackList") == 0;
	case IN_TRACK:
		return strcmp(name, "track") == 0;
	case IN_FIELD:
		return strcmp(name, "location") == 0 || strcmp(name, "title") == 0;
	default:
		return FALSE;
	}
}

/*
 * The line a start tag ends on: GMarkup calls back having read the character
 * after its '>', a line end when the position is a line's first.
 */
static guint tag_line(GMarkupParseContext *context)
{
	int line, col;

	g_markup_parse_context_get_position(context, &line, &col);
	return (guint)(col == 1 && line > 1 ? line - 1 : line);
}

static void on_start(GMarkupParseContext *context, const char *name, const char **names,
		     const char **values, gpointer data, GError **error)
{
	XspfReader *r = data;

	if (r->depth == KM_XSPF_MAX_DEPTH) {
		/* G_MARKUP_PREFIX_ERROR_POSITION adds the line, as to GMarkup's own errors */
		g_set_error_literal(error, G_MARKUP_ERROR, G_MARKUP_ERROR_INVALID_CONTENT,
				    _("Elements nested too deep for a playlist"));
		return;
	}
	if (r->depth == IN_PLAYLIST) {	/* a root (GMarkup lets another follow): each XSPF's */
		g_free(r->prefix);
		r->prefix = xspf_root_prefix(name, names, values);
	}
	if (!r->prefix) {
		g_set_error(error, G_MARKUP_ERROR, G_MARKUP_ERROR_INVALID_CONTENT,
			    _("Not an XSPF playlist: its root is no <playlist xmlns=\"%s\">"),
			    KM_XSPF_NAMESPACE);
		return;
	}
	if (++r->depth == 1 || r->off)
		return;
	if (!on_the_way(xspf_name(r, name), r->depth - 1)) {
		r->off = r->depth;
	} else if (r->depth - 1 == IN_TRACK) {
		r->track = g_new0(KmM3uEntry, 1);
		r->track->line = tag_line(context);
		g_ptr_array_add(r->entries, r->track);
	} else if (r->depth - 1 == IN_FIELD) {
		r->text = g_string_new(NULL);
	}
}

static void on_text(GMarkupParseContext *context, const char *text, gsize len, gpointer data,
		    GError **error)
{
	XspfReader *r = data;

	if (r->text && !r->off)
		g_string_append_len(r->text, text, (gssize)len);
}

/* The file a location names, or NULL (another kind of URI, or no URI at all). */
static char *location_path(const char *location, const char *base_uri)
{
	g_autofree char *uri = g_uri_resolve_relative(base_uri, location,
						      G_URI_FLAGS_ENCODED |
						      G_URI_FLAGS_PARSE_RELAXED, NULL);

	return uri ? g_filename_from_uri(uri, NULL, NULL) : NULL;
}

/* A track's location becomes its entry, unless an earlier one names a file or this one none. */
static void end_location(XspfReader *r, char *text)
{
	KmM3uEntry *e = r->track;
	char *path = e->path ? NULL : location_path(text, r->base_uri);

	if (e->text && !path) {
		g_free(text);
		return;
	}
	g_free(e->text);
	e->text = text;
	e->path = path;
}

static void end_field(XspfReader *r, const char *name)
{
	char *text = g_strstrip(g_string_free(g_steal_pointer(&r->text), FALSE));

	if (strcmp(name, "location") == 0)
		end_location(r, text);
	else if (!r->title)
		r->title = text;
	else
		g_free(text);
}

static void on_end(GMarkupParseContext *context, const char *name, gpointer data,
		   GError **error)
{
	XspfReader *r = data;
	guint level = r->depth--;

	if (r->off) {
		if (r->off == level)
			r->off = 0;
	} else if (level - 1 == IN_FIELD && r->text) {
		end_field(r, xspf_name(r, name));
	} else if (level - 1 == IN_TRACK && r->track) {
		if (!r->track->text)
			r->track->text = r->title ? g_steal_pointer(&r->title) : g_strdup("");
		g_clear_pointer(&r->title, g_free);
		r->track = NULL;
	}
}

/* The folder as a URI that relative locations resolve against. */
static char *folder_uri(const char *base_dir)
{
	g_autofree char *abs = g_canonicalize_filename(base_dir, NULL);
	g_autofree char *uri = g_filename_to_uri(abs, NULL, NULL);

	if (!uri)
		return g_strdup("file:///");
	return g_str_has_suffix(uri, "/") ? g_steal_pointer(&uri) : g_strconcat(uri, "/", NULL);
}

GPtrArray *km_xspf_parse(const char *data, gsize len, const char *base_dir, GError **error)
{
	static const GMarkupParser parser = { on_start, on_end, on_text, NULL, NULL };
	g_autofree char *base_uri = NULL;
	g_autoptr(GMarkupParseContext) context = NULL;
	g_autoptr(GPtrArray) entries = NULL;
	XspfReader r = { 0 };
	gsize bom;
	gboolean ok;

	if (!km_m3u_check_bytes(data, len, error))
		return NULL;
	bom = km_m3u_bom_size(data, len);
	data += bom;
	len -= bom;
	entries = g_ptr_array_new_with_free_func((GDestroyNotify)km_m3u_entry_free);
	base_uri = folder_uri(base_dir);
	r.entries = entries;
	r.base_uri = base_uri;
	context = g_markup_parse_context_new(&parser, G_MARKUP_PREFIX_ERROR_POSITION, &r, NULL);
	ok = g_markup_parse_context_parse(context, data, (gssize)len, error) &&
	     g_markup_parse_context_end_parse(context, error);
	if (r.text)
		g_string_free(r.text, TRUE);
	g_free(r.title);
	g_free(r.prefix);
	return ok ? g_steal_pointer(&entries) : NULL;
}
