/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kc-library.c - opening and closing the Karma library of -i IMAGE. */
#include "kc-library.h"

#include <errno.h>
#include <stdio.h>


char *kc_opt_partition;

int kc_fail_gerror(const struct kc_ctx *ctx, const char *what, const GError *error)
{
	return kc_failf(ctx, "%s: %s", what, error->message);
}

static int parse_partition(struct kc_ctx *ctx, guint *partition)
{
	*partition = 0;
	if (!kc_opt_partition)
		return KC_EXIT_OK;
	if (g_strcmp0(kc_opt_partition, "1") == 0)
		*partition = 1;
	else if (g_strcmp0(kc_opt_partition, "2") == 0)
		*partition = 2;
	else
		return kc_usage(ctx, "--partition: not 1 or 2: '%s'", kc_opt_partition);
	return KC_EXIT_OK;
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
	int status;

	kl->dev = NULL;
	kl->lib = NULL;
	if (!ctx->image)
		return kc_usage(ctx, "no image given: use -i IMAGE or --usb");
	status = parse_partition(ctx, &opts.partition);
	if (status)
		return status;
	status = kc_device_open(ctx, writable, &kl->dev);
	if (status)
		return status;
	kl->lib = km_library_open(kc_device_blockdev(kl->dev), &opts, &error);
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

int kc_library_close(struct kc_ctx *ctx, struct kc_library *kl, int status)
{
	GError *error = NULL;

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
