/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-session-karma.c - sessions on a player reached over USB: a real Rio
 * Karma through libusb, and the demo player, an image in the cache folder
 * (made on its first open) behind the simulated Karma. Both go through the
 * same protocol code (RIOP storage mode, Bulk-Only Transport, SCSI), so the
 * demo exercises what a real player does; closing leaves storage mode.
 */
#include "km-session-source.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <unistd.h>

#include "km-demo.h"
#include "km-karma-usb.h"
#include "km-sim-faults.h"
#include "km-sim-karma.h"
#include "km-udev-rule.h"
#include "km-usb-libusb.h"

typedef struct {
	char *image;		/* the demo: the image behind the simulated player */
	guint8 bus, address;	/* a real player; bus 0: the first one found */
	int fd;			/* or its node from the USB portal, until opened; else -1 */
	struct km_karma_usb *usb;
	/* the demo's simulated player, and the faults KM_SIM_FAULTS arms once it is open */
	struct km_sim_karma *sim;
	struct km_sim_karma_faults faults;
} KarmaSource;

static void set_device_error(GError **error, int err, const char *msg)
{
	if (err == EACCES)
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED,
			    _("%s. Save this udev rule as %s:\n%s\nand install it with\n%s"),
			    msg, KM_UDEV_RULE_FILE, KM_UDEV_RULE, KM_UDEV_RULE_INSTALL_COMMAND);
	else
		km_session_source_set_error(error, err, msg);
}

static struct km_usb_transport *open_transport(KarmaSource *source, GError **error)
{
	struct km_sim_karma_options opts = { 0 };
	struct km_usb_transport *t = NULL;
	char msg[KM_SOURCE_MSG_MAX] = "";
	int err;

	if (source->image) {
		err = km_sim_faults_from_env(&source->faults, msg, sizeof(msg));
		source->sim = err ? NULL : km_sim_karma_open(source->image, &opts, msg, sizeof(msg));
		if (source->sim)
			return km_sim_karma_transport(source->sim);
		set_device_error(error, err ? -err : errno, msg);
		return NULL;
	}
	if (source->fd >= 0)	/* the transport owns it from here */
		err = km_usb_libusb_open_fd(g_steal_fd(&source->fd), &t, msg, sizeof(msg));
	else
		err = km_usb_libusb_open(source->bus, source->address, &t, msg, sizeof(msg));
	if (err < 0)
		set_device_error(error, -err, msg);
	return err < 0 ? NULL : t;
}

static const struct omfs_blockdev *karma_open(gpointer data, KmSession *session,
					      GCancellable *cancellable, GError **error)
{
	KarmaSource *source = data;
	char msg[KM_SOURCE_MSG_MAX] = "";
	struct km_usb_transport *t;

	(void)session;
	(void)cancellable;
	t = open_transport(source, error);
	if (!t)
		return NULL;
	source->usb = km_karma_usb_open(t, msg, sizeof(msg));
	if (!source->usb) {
		set_device_error(error, errno, msg);
		return NULL;
	}
	/* a pulled cable, a stall, a failing write, for the jobs to meet (README) */
	if (source->sim)
		*km_sim_karma_faults(source->sim) = source->faults;
	return km_karma_usb_blockdev(source->usb);
}

static gboolean karma_close(gpointer data, GError **error)
{
	KarmaSource *source = data;
	char msg[KM_SOURCE_MSG_MAX] = "";
	int err = source->usb ? km_karma_usb_close(source->usb, msg, sizeof(msg)) : 0;

	source->usb = NULL;
	source->sim = NULL;	/* the transport, freed with usb */
	if (err < 0) {
		set_device_error(error, -err, msg);
		return FALSE;
	}
	return TRUE;
}

static void karma_free(gpointer data)
{
	KarmaSource *source = data;

	karma_close(source, NULL);
	if (source->fd >= 0)
		close(source->fd);
	g_free(source->image);
	g_free(source);
}

static const KmSessionSourceFuncs usb_funcs = {
	.open = karma_open,
	.close = karma_close,
	.free = karma_free,
};

KmSession *km_session_new_for_usb(guint8 bus, guint8 address)
{
	KarmaSource *source = g_new0(KarmaSource, 1);

	source->bus = bus;
	source->address = address;
	source->fd = -1;
	return km_session_new_for_source(_("Rio Karma"), &usb_funcs, source);
}

KmSession *km_session_new_for_usb_fd(int fd)
{
	KarmaSource *source = g_new0(KarmaSource, 1);

	source->fd = fd;
	return km_session_new_for_source(_("Rio Karma"), &usb_funcs, source);
}

/* The demo image's progress is coarse: km_demo_create_image() reports none. */
static void report_demo(KmSession *session, guint done)
{
	KmProgress progress = {
		.file_name = (char *)_("Demo Player"),
		.file_index = done,
		.n_files = KM_DEMO_TRACKS,
	};

	km_session_report_progress(session, &progress);
}

static gboolean make_demo_image(KarmaSource *source, KmSession *session,
				GCancellable *cancellable, GError **error)
{
	g_autofree char *dir = g_path_get_dirname(source->image);

	if (g_file_test(source->image, G_FILE_TEST_EXISTS))
		return TRUE;
	if (g_mkdir_with_parents(dir, 0755) != 0) {
		int err = errno;

		g_set_error(error, G_IO_ERROR, g_io_error_from_errno(err), "%s: %s", dir,
			    g_strerror(err));
		return FALSE;
	}
	report_demo(session, 0);
	if (!km_demo_create_image(source->image, KM_DEMO_IMAGE_SIZE, KM_DEMO_TRACKS, cancellable,
				  error))
		return FALSE;
	report_demo(session, KM_DEMO_TRACKS);
	return TRUE;
}

static const struct omfs_blockdev *demo_open(gpointer data, KmSession *session,
					     GCancellable *cancellable, GError **error)
{
	if (!make_demo_image(data, session, cancellable, error))
		return NULL;
	return karma_open(data, session, cancellable, error);
}

static const KmSessionSourceFuncs demo_funcs = {
	.open = demo_open,
	.close = karma_close,
	.free = karma_free,
};

KmSession *km_session_new_demo(const char *cache_dir)
{
	KarmaSource *source = g_new0(KarmaSource, 1);

	source->image = g_build_filename(cache_dir, "karma-manager", "demo-karma.img", NULL);
	source->fd = -1;
	return km_session_new_for_source(_("Demo Player"), &demo_funcs, source);
}
