/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-about.c - the About window.  libadwaita 1.5 builds it from the
 * metainfo itself (adw_about_dialog_new_from_appdata()); for 1.2 the same
 * data is given by hand, the release notes read from the metainfo here, so
 * that both show what software centres show.
 */
#define G_LOG_DOMAIN "km-about"

#include "config.h"

#include <glib/gi18n.h>

#include "km-about.h"
#include "km-app-util.h"

#define METAINFO_RESOURCE "/io/github/karmamanager/KarmaManager/metainfo.xml"

/* The elements AppStream allows in a description, kept as they are. */
static const char *const description_elements[] = { "p", "ul", "ol", "li", "em", "code", NULL };

typedef struct {
	const char *version;
	gboolean in_release;	/* inside the <release> of version */
	guint description_depth;	/* > 0 inside its <description> */
	guint skip_depth;	/* > 0 inside a translated copy (xml:lang) */
	GString *notes;
	gboolean found;
} ReleaseNotesParser;

static gboolean has_attribute(const char **names, const char **values, const char *name,
			      const char **value)
{
	for (guint i = 0; names[i]; i++) {
		if (g_str_equal(names[i], name)) {
			*value = values[i];
			return TRUE;
		}
	}
	return FALSE;
}

static void on_start(GMarkupParseContext *context, const char *element, const char **names,
		     const char **values, gpointer data, GError **error)
{
	ReleaseNotesParser *p = data;
	const char *value;

	if (p->skip_depth || (p->description_depth && has_attribute(names, values, "xml:lang",
									  &value))) {
		p->skip_depth++;
	} else if (p->description_depth) {
		p->description_depth++;
		if (g_strv_contains(description_elements, element))
			g_string_append_printf(p->notes, "<%s>", element);
	} else if (g_str_equal(element, "release")) {
		p->in_release = has_attribute(names, values, "version", &value) &&
				g_str_equal(value, p->version);
	} else if (p->in_release && g_str_equal(element, "description")) {
		p->description_depth = 1;
		p->found = TRUE;
	}
}

static void on_end(GMarkupParseContext *context, const char *element, gpointer data,
		   GError **error)
{
	ReleaseNotesParser *p = data;

	if (p->skip_depth) {
		p->skip_depth--;
	} else if (p->description_depth) {
		p->description_depth--;
		if (p->description_depth && g_strv_contains(description_elements, element)) {
			if (g_str_has_suffix(p->notes->str, " "))
				g_string_truncate(p->notes, p->notes->len - 1);
			g_string_append_printf(p->notes, "</%s>", element);
		}
	} else if (g_str_equal(element, "release")) {
		p->in_release = FALSE;
	}
}

/* Whether the notes end with the opening tag of a paragraph or list item. */
static gboolean at_block_start(GString *notes)
{
	return g_str_has_suffix(notes->str, "<p>") || g_str_has_suffix(notes->str, "<li>");
}

/*
 * Text inside the description: XML's line breaks and indentation are not the
 * text's, so each run of white space becomes one space, none at the start or
 * the end of a paragraph or list item (on_end removes that one).
 */
static void on_text(GMarkupParseContext *context, const char *text, gsize length,
		    gpointer data, GError **error)
{
	ReleaseNotesParser *p = data;
	g_autofree char *copy = NULL;
	g_auto(GStrv) words = NULL;
	g_autofree char *joined = NULL;
	g_autofree char *escaped = NULL;

	if (!p->description_depth || p->skip_depth)
		return;
	copy = g_strndup(text, length);
	words = g_regex_split_simple("\\s+", copy, 0, 0);
	joined = g_strjoinv(" ", words);
	if (g_str_equal(joined, " ") || !*joined)
		return;	/* between elements */
	escaped = g_markup_escape_text(joined, -1);
	g_string_append(p->notes, escaped + (at_block_start(p->notes) && *escaped == ' '));
}

char *km_about_release_notes(const char *metainfo, gsize length, const char *version)
{
	static const GMarkupParser parser = { on_start, on_end, on_text, NULL, NULL };
	ReleaseNotesParser p = { .version = version, .notes = g_string_new(NULL) };
	g_autoptr(GMarkupParseContext) context = g_markup_parse_context_new(&parser, 0, &p,
									    NULL);
	g_autoptr(GError) error = NULL;

	if (!g_markup_parse_context_parse(context, metainfo, length, &error) ||
	    !g_markup_parse_context_end_parse(context, &error)) {
		g_message("the metainfo: %s", error->message);
		p.found = FALSE;
	}
	return g_string_free(p.notes, !p.found);
}

/* The translators' names (po/), or "" (none shown) while the language has none. */
static const char *translator_credits(void)
{
	const char *credits = _("translator-credits");

	return g_str_equal(credits, "translator-credits") ? "" : credits;
}

void km_about_present(GtkWidget *parent)
{
	const char *developers[] = { _("Karma Manager contributors"), NULL };
	/* the metainfo's summary, which neither path takes from it */
	const char *comments = _("Copy music to and from a Rio Karma player");
#if ADW_CHECK_VERSION(1, 5, 0)
	AdwAboutDialog *about = ADW_ABOUT_DIALOG(adw_about_dialog_new_from_appdata(
		METAINFO_RESOURCE, PACKAGE_VERSION));

	adw_about_dialog_set_comments(about, comments);
	adw_about_dialog_set_developers(about, developers);
	adw_about_dialog_set_translator_credits(about, translator_credits());
	km_dialog_present(GTK_WIDGET(about), parent);
#else
	g_autoptr(GBytes) metainfo = g_resources_lookup_data(METAINFO_RESOURCE, 0, NULL);
	gsize length;
	const char *xml = g_bytes_get_data(metainfo, &length);
	g_autofree char *notes = km_about_release_notes(xml, length, PACKAGE_VERSION);

	/* what adw_about_dialog_new_from_appdata() takes from the metainfo */
	km_dialog_present(g_object_new(ADW_TYPE_ABOUT_WINDOW,
				       "application-name", _("Karma Manager"),
				       "application-icon", APP_ID,
				       "version", PACKAGE_VERSION,
				       "comments", comments,
				       "developer-name", "The Karma Manager developers",
				       "license-type", GTK_LICENSE_GPL_2_0,
				       "website", HOMEPAGE_URL,
				       "issue-url", HOMEPAGE_URL "/issues",
				       "release-notes-version", PACKAGE_VERSION,
				       "release-notes", notes,
				       "developers", developers,
				       "translator-credits", translator_credits(),
				       NULL),
			  parent);
#endif
}
