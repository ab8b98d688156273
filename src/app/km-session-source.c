/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-session-source.c - the sources a session opens today: an image file or
 * a block device node (km-image-device), and the demo player, an image in
 * the cache folder made on its first open.
 * TODO: put the simulated Karma between the demo image and the session once
 * branch `usb` (km_sim_karma_open) is merged, so the demo drives the same USB
 * protocol code as a real player.
 */
#include "km-session-source.h"

#include <errno.h>
#include <glib/gstdio.h>

#include "km-demo.h"
#include "km-image-device.h"

typedef struct {
	char *path;
	char *cache_dir;	/* the demo: where to make the image */
	struct km_image_device *dev;
} ImageSource;

static const struct omfs_blockdev *image_open(gpointer data, KmSession *session,
					      GCancellable *cancellable, GError **error)
{
	ImageSource *source = data;
	char msg[OMFS_ERRMSG_MAX];

	(void)session;
	(void)cancellable;
	source->dev = km_image_device_open(source->path, true, 0, 0, msg, sizeof(msg));
	if (!source->dev) {
		int err = errno;

		g_set_error(error, G_IO_ERROR, g_io_error_from_errno(err), "%s", msg);
		return NULL;
	}
	return km_image_device_blockdev(source->dev);
}

static gboolean image_close(gpointer data, GError **error)
{
	ImageSource *source = data;
	int err = source->dev ? km_image_device_close(source->dev) : 0;

	source->dev = NULL;
	if (err) {
		g_set_error(error, G_IO_ERROR, g_io_error_from_errno(-err),
			    "%s: closing failed: %s", source->path, g_strerror(-err));
		return FALSE;
	}
	return TRUE;
}

static void image_free(gpointer data)
{
	ImageSource *source = data;

	if (source->dev)
		km_image_device_close(source->dev);
	g_free(source->path);
	g_free(source->cache_dir);
	g_free(source);
}

static const KmSessionSourceFuncs image_funcs = {
	.open = image_open,
	.close = image_close,
	.free = image_free,
};

KmSession *km_session_new_for_path(const char *path)
{
	ImageSource *source = g_new0(ImageSource, 1);
	g_autofree char *name = g_filename_display_basename(path);

	source->path = g_strdup(path);
	return km_session_new_for_source(name, &image_funcs, source);
}

/* The demo image's progress is coarse: km_demo_create_image() reports none. */
static void report_demo(KmSession *session, guint done)
{
	KmProgress progress = {
		.file_name = (char *)"Demo Player",
		.file_index = done ? KM_DEMO_TRACKS : 0,
		.n_files = KM_DEMO_TRACKS,
	};

	km_session_report_progress(session, &progress);
}

static const struct omfs_blockdev *demo_open(gpointer data, KmSession *session,
					     GCancellable *cancellable, GError **error)
{
	ImageSource *source = data;
	g_autofree char *dir = g_build_filename(source->cache_dir, "karma-manager", NULL);

	if (!g_file_test(source->path, G_FILE_TEST_EXISTS)) {
		if (g_mkdir_with_parents(dir, 0755) != 0) {
			int err = errno;

			g_set_error(error, G_IO_ERROR, g_io_error_from_errno(err),
				    "%s: %s", dir, g_strerror(err));
			return NULL;
		}
		report_demo(session, 0);
		if (!km_demo_create_image(source->path, KM_DEMO_IMAGE_SIZE, KM_DEMO_TRACKS,
					  cancellable, error))
			return NULL;
		report_demo(session, KM_DEMO_TRACKS);
	}
	return image_open(data, session, cancellable, error);
}

static const KmSessionSourceFuncs demo_funcs = {
	.open = demo_open,
	.close = image_close,
	.free = image_free,
};

KmSession *km_session_new_demo(const char *cache_dir)
{
	ImageSource *source = g_new0(ImageSource, 1);

	source->cache_dir = g_strdup(cache_dir);
	source->path = g_build_filename(cache_dir, "karma-manager", "demo-karma.img", NULL);
	return km_session_new_for_source("Demo Player", &demo_funcs, source);
}
