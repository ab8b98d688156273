/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-session-source.c - sessions on an image file or a block device node
 * (km-image-device). Players over USB, real or simulated (the demo), are in
 * km-session-karma.c.
 */
#include "km-session-source.h"

#include <glib/gi18n.h>
#include <errno.h>

#include "km-image-device.h"
#include "km-mount-point.h"

typedef struct {
	char *path;
	struct km_image_device *dev;
} ImageSource;

void km_session_source_set_error(GError **error, int err, const char *msg)
{
	if (err == EBUSY)
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_BUSY,
			    /* Translators: the reason names the program ("disk.img is in use by karmactl, pid 1234") */
			    _("another program is using it (%s). Close that program, then open it again."),
			    msg);
	else
		g_set_error(error, G_IO_ERROR, g_io_error_from_errno(err), "%s", msg);
}

static const struct omfs_blockdev *image_open(gpointer data, KmSession *session,
					      GCancellable *cancellable, GError **error)
{
	ImageSource *source = data;
	g_autofree char *where = NULL;
	char msg[KM_SOURCE_MSG_MAX];

	(void)session;
	(void)cancellable;
	where = km_mount_point_of(source->path);
	if (where) {
		/* the kernel caches the volume's blocks: writing under it corrupts it */
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_BUSY,
			    _("%s is mounted at %s: unmount it first"), source->path, where);
		return NULL;
	}
	/* held (an exclusive lock) until the session closes: one writer at a time */
	source->dev = km_image_device_open(source->path, true, 0, 0, msg, sizeof(msg));
	if (!source->dev) {
		km_session_source_set_error(error, errno, msg);
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
			    /* Translators: a disk image's path, then the system's reason */
			    _("%s: closing failed: %s"), source->path, g_strerror(-err));
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
