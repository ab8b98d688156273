/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-smalldb.c - fuzz target: the input is a var/smalldb file. What
 * km_smalldb_parse() accepts must be objects in strictly ascending fid
 * order, which km_smalldb_build() writes back, and whose bytes parse again
 * to the same rows (the deleted-fid list is only read, every fid in it once).
 */
#include "fuzz-target.h"
#include "km-smalldb.h"

#include <stdio.h>

static const char *check_rows(GPtrArray *objects)
{
	for (guint i = 1; i < objects->len; i++)
		if (km_properties_get_fid(objects->pdata[i - 1]) >=
		    km_properties_get_fid(objects->pdata[i]))
			return "parse returned objects out of fid order";
	return NULL;
}

static const char *check_round_trip(GPtrArray *objects, const KmSmalldbHeader *hdr)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GBytes) built = km_smalldb_build(objects, hdr, hdr->timestamp, &error);
	g_autoptr(GPtrArray) again = NULL;

	if (!built)
		return "build refused what parse returned";
	again = km_smalldb_parse(built, NULL, NULL, &error);
	if (!again)
		return "what build wrote does not parse";
	if (again->len != objects->len)
		return "the rows written back are not the rows read";
	for (guint i = 0; i < objects->len; i++)
		if (!km_smalldb_row_equal(objects->pdata[i], again->pdata[i], NULL))
			return "a row written back differs from the row read";
	return NULL;
}

const char *fuzz_target_run(const uint8_t *data, size_t size, char *note, size_t notelen)
{
	g_autoptr(GBytes) bytes = g_bytes_new_static(data, size);
	g_autoptr(GError) error = NULL;
	g_autoptr(GArray) deleted = NULL;
	g_autoptr(GPtrArray) objects = NULL;
	KmSmalldbHeader hdr;
	const char *broken;

	objects = km_smalldb_parse(bytes, &hdr, &deleted, &error);
	if (!objects) {
		snprintf(note, notelen, "refused: %s", error->message);
		return error->message[0] ? NULL : "parse failed without a message";
	}
	snprintf(note, notelen, "%u objects, %u rows, %u updates, %u deleted", objects->len,
		 hdr.n_rows, hdr.n_update_records, deleted->len);
	broken = check_rows(objects);
	return broken ? broken : check_round_trip(objects, &hdr);
}
