/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-sources.c - fuzz target: the input is a var/km-sources
 * (docs/KARMA.md §11.1). What km_sources_parse() accepts builds to a file
 * that parses to the same sources, with no bad line, and builds to the same
 * bytes again; a refusal says why.
 */
#include "fuzz-target.h"
#include "km-sources.h"

#include <stdio.h>
#include <string.h>

static const char *same_sources(GHashTable *a, GHashTable *b)
{
	GHashTableIter iter;
	gpointer id, value;

	if (g_hash_table_size(a) != g_hash_table_size(b))
		return "built and parsed again, the number of sources changed";
	g_hash_table_iter_init(&iter, a);
	while (g_hash_table_iter_next(&iter, &id, &value)) {
		const KmSource *x = value, *y = g_hash_table_lookup(b, id);

		if (!km_sources_id_is_valid(id))
			return "an accepted source id is not valid";
		if (!y || x->fid != y->fid || strcmp(x->rid, y->rid) != 0)
			return "built and parsed again, a source reads back different";
	}
	return NULL;
}

const char *fuzz_target_run(const uint8_t *data, size_t size, char *note, size_t notelen)
{
	g_autoptr(GBytes) input = g_bytes_new(data, size);
	g_autoptr(GError) error = NULL;
	g_autoptr(GHashTable) sources = NULL;
	g_autoptr(GHashTable) again = NULL;
	g_autoptr(GBytes) built = NULL;
	g_autoptr(GBytes) rebuilt = NULL;
	guint bad = 0, bad_again = 0;
	const char *broken;

	sources = km_sources_parse(input, &bad, &error);
	if (!sources) {
		snprintf(note, notelen, "refused: %s", error->message);
		return error->message[0] ? NULL : "refused without a message";
	}
	snprintf(note, notelen, "%u sources, %u bad lines", g_hash_table_size(sources), bad);
	built = km_sources_build(sources);
	again = km_sources_parse(built, &bad_again, &error);
	if (!again)
		return "what km_sources_build() wrote does not parse";
	if (bad_again)
		return "what km_sources_build() wrote has bad lines";
	broken = same_sources(sources, again);
	if (broken)
		return broken;
	rebuilt = km_sources_build(again);
	return g_bytes_equal(built, rebuilt) ? NULL : "building twice gave different bytes";
}
