/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-xspf.c - fuzz target: the input is an XSPF playlist file. What
 * km_xspf_parse() accepts is XML by km_xspf_sniff(), and its entries have
 * UTF-8 text, a line inside the input and an absolute path or none; what it
 * refuses has a message, saying the line when the XML is at fault.
 */
#include "fuzz-target.h"
#include "km-xspf.h"

#include <stdio.h>
#include <string.h>

static guint count_lines(const uint8_t *data, size_t size)
{
	guint lines = 1;

	for (size_t i = 0; i < size; i++)
		lines += data[i] == '\n';
	return lines;
}

static const char *check_entries(GPtrArray *entries, guint lines)
{
	for (guint i = 0; i < entries->len; i++) {
		const KmM3uEntry *e = entries->pdata[i];

		if (!e->text || !g_utf8_validate(e->text, -1, NULL))
			return "an entry's text is missing or not UTF-8";
		if (e->line < 1 || e->line > lines)
			return "an entry's line is outside the input";
		if (e->path && !g_path_is_absolute(e->path))
			return "an entry's path is not absolute";
	}
	return NULL;
}

const char *fuzz_target_run(const uint8_t *data, size_t size, char *note, size_t notelen)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GPtrArray) entries = km_xspf_parse((const char *)data, size, "/music/lists",
						     &error);

	if (!entries) {
		snprintf(note, notelen, "refused: %s", error->message);
		if (!error->message[0])
			return "parse failed without a message";
		if (error->domain == G_MARKUP_ERROR && !strstr(error->message, "line "))
			return "an XML error does not say its line";
		return NULL;
	}
	snprintf(note, notelen, "%u entries", entries->len);
	if (!km_xspf_sniff((const char *)data, size))
		return "a list that is no XML by km_xspf_sniff() was accepted";
	return check_entries(entries, count_lines(data, size));
}
