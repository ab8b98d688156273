/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kc-library.c - opening and closing the Karma library of -i IMAGE. */
#include "kc-library.h"
#include "km-library-fs.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int kc_fail_gerror(const struct kc_ctx *ctx, const char *what, const GError *error)
{
	return kc_failf(ctx, "%s: %s", what, error->message);
}


static void print_warnings(const struct kc_ctx *ctx, KmLibrary *lib)
{
	const char *const *w = km_library_get_warnings(lib);

	for (; w && *w; w++)
		fprintf(stderr, "karmactl: %s: warning: %s\n", ctx->cmd, *w);
}

int kc_library_open(struct kc_ctx *ctx, bool writable, bool scan, struct kc_library *kl)
{
	KmLibraryOptions opts = { .writable = writable, .scan = scan };
	GError *error = NULL;
	gint64 start, start_cpu;
	int status;

	kl->dev = NULL;
	kl->lib = NULL;
	if (!ctx->image)
		return kc_usage(ctx, "no image given: use -i IMAGE, --device NODE or --usb");
	opts.partition = ctx->partition;
	status = kc_device_open(ctx, writable, &kl->dev);
	if (status)
		return status;
	start = g_get_monotonic_time();
	start_cpu = kc_cpu_us();
	kl->lib = km_library_open(kc_device_blockdev(kl->dev), &opts, &error);
	kl->open_us = g_get_monotonic_time() - start;
	kl->open_cpu_us = kc_cpu_us() - start_cpu;
	if (!kl->lib) {
		status = kc_fail_gerror(ctx, ctx->image, error);
		g_error_free(error);
		kc_device_close(ctx, kl->dev, status);
		kl->dev = NULL;
		return status;
	}
	print_warnings(ctx, kl->lib);
	return KC_EXIT_OK;
}

/* The counters once everything is written back (close's own write-back then finds nothing). */
static void print_stats(const struct kc_library *kl)
{
	KmLibrary *lib = kl->lib;
	struct omfs_fs *fs = km_library_get_fs(lib);
	char extra[128];

	if (!fs)
		return;
	if (km_library_is_writable(lib))
		omfs_sync(fs);
	g_snprintf(extra, sizeof(extra), " smalldb_writes=%u library_open_us=%" G_GINT64_FORMAT
		   " library_open_cpu_us=%" G_GINT64_FORMAT, km_library_get_smalldb_writes(lib),
		   kl->open_us, kl->open_cpu_us);
	kc_print_counters(fs, extra);
}

int kc_library_close(struct kc_ctx *ctx, struct kc_library *kl, int status)
{
	GError *error = NULL;

	if (kl->lib && kc_stats_wanted())
		print_stats(kl);
	if (kl->lib) {
		if (!km_library_close(kl->lib, &error)) {
			if (status == KC_EXIT_OK)
				status = kc_fail_gerror(ctx, ctx->image, error);
			g_error_free(error);
		}
		g_object_unref(kl->lib);
		kl->lib = NULL;
	}
	status = kc_device_close(ctx, kl->dev, status);
	kl->dev = NULL;
	return status;
}

/* Where QUERY is looked for. */
static const char *const query_keys[] = { "title", "artist", "source", "genre" };

bool kc_library_matches(const KmProperties *p, const char *folded_query)
{
	size_t i;

	if (!folded_query)
		return true;
	for (i = 0; i < G_N_ELEMENTS(query_keys); i++) {
		const char *v = km_properties_get(p, query_keys[i]);
		char *folded;
		bool hit;

		if (!v)
			continue;
		folded = g_utf8_casefold(v, -1);
		hit = strstr(folded, folded_query) != NULL;
		g_free(folded);
		if (hit)
			return true;
	}
	return false;
}

bool kc_fid_from_string(const char *s, guint32 *fid)
{
	guint64 v = 0;
	bool ok;

	/* decimal as tracks prints it, or 0x hex as the fids0/ names are */
	if (g_str_has_prefix(s, "0x"))
		ok = g_ascii_string_to_unsigned(s + 2, 16, 0, G_MAXUINT32, &v, NULL);
	else
		ok = g_ascii_string_to_unsigned(s, 10, 0, G_MAXUINT32, &v, NULL);
	*fid = (guint32)v;
	return ok;
}

int kc_parse_fid(const struct kc_ctx *ctx, const char *s, guint32 *fid)
{
	if (!kc_fid_from_string(s, fid))
		return kc_usage(ctx, "not a fid: '%s'", s);
	return KC_EXIT_OK;
}

/* What an edit says it did, held until its commit succeeded (NULL outside an edit). */
static GString *edit_said;

void kc_say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (edit_said)
		g_string_append_vprintf(edit_said, fmt, ap);
	else
		vprintf(fmt, ap);
	va_end(ap);
}

static int run_edit(struct kc_ctx *ctx, KmTransaction *tx, kc_edit_fn fn, void *data)
{
	g_autoptr(GError) error = NULL;
	int status = fn(ctx, tx, data);

	if (status) {
		km_transaction_rollback(tx, NULL);
		return status;
	}
	if (!km_transaction_commit(tx, &error))
		return kc_fail_gerror(ctx, ctx->image, error);
	return KC_EXIT_OK;
}

/*
 * Runs fn in a transaction; commits when it succeeds, rolls back when it
 * fails. What fn says (kc_say) is printed once the commit is done.
 */
static int edit_in_transaction(struct kc_ctx *ctx, KmLibrary *lib, kc_edit_fn fn, void *data)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(KmTransaction) tx = km_library_begin(lib, &error);
	int status;

	if (!tx)
		return kc_fail_gerror(ctx, ctx->image, error);
	edit_said = g_string_new(NULL);
	status = run_edit(ctx, tx, fn, data);
	if (status == KC_EXIT_OK)
		fputs(edit_said->str, stdout);
	g_string_free(g_steal_pointer(&edit_said), TRUE);
	return status;
}

int kc_library_edit(struct kc_ctx *ctx, kc_edit_fn fn, void *data)
{
	struct kc_library kl;
	int status = kc_library_open(ctx, true, false, &kl);

	if (status)
		return status;
	return kc_library_close(ctx, &kl, edit_in_transaction(ctx, kl.lib, fn, data));
}
