/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-library.c - fuzz target: the input is a whole Karma disk or a bare
 * music partition. Opened read-only, every object is listed, looked up and
 * its data read (the first and last 4 KiB), and the library verified; then,
 * on a copy, opened writable (which finishes an interrupted commit) and
 * verified with repair: once repair has run, verifying again finds nothing
 * repair could have fixed.
 */
#include "fuzz-target.h"
#include "km-library.h"
#include "km-mem-device.h"
#include "km-verify.h"

#include <stdio.h>

static gint64 fixed_clock(gpointer data)
{
	return 1700000000;
}

/* Everything the read-only side offers. */
static const char *read_everything(KmLibrary *lib)
{
	g_autoptr(GPtrArray) all = km_library_list(lib);
	g_autoptr(KmVerifyReport) report = NULL;
	static guint8 buf[4096];

	if (all->len != km_library_get_n_objects(lib))
		return "list and the object count disagree";
	for (guint i = 0; i < all->len; i++) {
		guint32 fid = km_properties_get_fid(all->pdata[i]);
		guint64 size;

		if (km_library_lookup(lib, fid) == NULL)
			return "a listed object cannot be looked up";
		if (!km_library_get_data_size(lib, fid, &size, NULL))
			continue;
		km_library_read_data(lib, fid, 0, buf, sizeof(buf), NULL);
		if (size > sizeof(buf))
			km_library_read_data(lib, fid, size - sizeof(buf), buf, sizeof(buf), NULL);
	}
	report = km_library_verify(lib, KM_VERIFY_FLAGS_NONE, NULL, NULL);
	return NULL;
}

static const char *repair_and_check(KmLibrary *lib)
{
	g_autoptr(KmVerifyReport) repaired = km_library_verify(lib, KM_VERIFY_FLAG_REPAIR, NULL, NULL);
	g_autoptr(KmVerifyReport) after = NULL;
	g_autoptr(GError) error = NULL;

	if (!repaired)
		return NULL;
	after = km_library_verify(lib, KM_VERIFY_FLAGS_NONE, NULL, &error);
	if (!after) {
		fprintf(stderr, "verify after repair: %s\n", error->message);
		return "verify failed right after a repair that worked";
	}
	for (guint i = 0; i < after->findings->len; i++) {
		KmVerifyFinding *f = after->findings->pdata[i];

		if (f->repairable) {
			fprintf(stderr, "left after repair: %s: %s\n", km_verify_kind_name(f->kind),
				f->message);
			return "repair left a finding it could have repaired";
		}
	}
	return NULL;
}

static const char *open_and_check(const uint8_t *data, size_t size, gboolean writable,
				  GString *note)
{
	KmLibraryOptions opts = { .writable = writable, .clock = fixed_clock };
	struct km_mem_device *m = km_mem_device_new(size, data);
	g_autoptr(GError) error = NULL;
	const char *broken;
	KmLibrary *lib;

	if (!m)
		return NULL;
	lib = km_library_open(&m->bdev, &opts, &error);
	if (!lib) {
		g_string_append_printf(note, "%s open: %s; ", writable ? "rw" : "ro",
				       error->message);
		km_mem_device_free(m);
		return error->message[0] ? NULL : "open failed without a message";
	}
	g_string_append_printf(note, "%s: %u objects; ", writable ? "rw" : "ro",
			       km_library_get_n_objects(lib));
	broken = writable ? repair_and_check(lib) : read_everything(lib);
	km_library_close(lib, NULL);
	g_object_unref(lib);
	km_mem_device_free(m);
	return broken;
}

const char *fuzz_target_run(const uint8_t *data, size_t size, char *note, size_t notelen)
{
	g_autoptr(GString) log = g_string_new(NULL);
	const char *broken = open_and_check(data, size, FALSE, log);

	if (!broken)
		broken = open_and_check(data, size, TRUE, log);
	snprintf(note, notelen, "%s", log->str);
	return broken;
}
