/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench-convert.c - the conversion benchmark's driver (convert-bench.sh):
 * bench-convert OUTDIR FILE... plans and converts each file to Ogg Vorbis
 * at the default quality into OUTDIR, one after the other on this thread,
 * as an import does (km_convert_plan(), then km_convert_file()), and prints
 * one line per file: "file PLAN_US CONVERT_US", then "total US".
 */
#include "km-convert.h"

#include <stdio.h>
#include <stdlib.h>

static gint64 convert_one(const char *path, const char *outdir, gint64 *plan_us)
{
	KmConvertSettings settings = { KM_CONVERT_VORBIS, KM_CONVERT_DEFAULT_QUALITY };
	g_autofree char *base = g_path_get_basename(path);
	g_autofree char *name = g_strconcat(base, ".ogg", NULL);
	g_autofree char *dest = g_build_filename(outdir, name, NULL);
	g_autoptr(GError) error = NULL;
	KmConvertPlan plan;
	gint64 start = g_get_monotonic_time(), planned;

	if (!km_convert_plan(path, &settings, &plan, NULL, &error))
		g_error("%s", error->message);
	planned = g_get_monotonic_time();
	if (!km_convert_file(path, &plan, dest, NULL, NULL, NULL, &error))
		g_error("%s", error->message);
	*plan_us = planned - start;
	return g_get_monotonic_time() - planned;
}

int main(int argc, char **argv)
{
	g_autoptr(GError) error = NULL;
	gint64 start, plan_us, convert_us;
	int i;

	if (argc < 3) {
		fprintf(stderr, "usage: bench-convert OUTDIR FILE...\n");
		return EXIT_FAILURE;
	}
	/* GStreamer's start and its registry, once per process, are not the files' cost */
	if (!km_convert_available(&error))
		g_error("%s", error->message);
	start = g_get_monotonic_time();
	for (i = 2; i < argc; i++) {
		convert_us = convert_one(argv[i], argv[1], &plan_us);
		printf("file %" G_GINT64_FORMAT " %" G_GINT64_FORMAT "\n", plan_us, convert_us);
	}
	printf("total %" G_GINT64_FORMAT "\n", g_get_monotonic_time() - start);
	return EXIT_SUCCESS;
}
