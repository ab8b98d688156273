/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sim-source.c - sessions over the simulated Karma with faults (sim-source.h). */
#include "sim-source.h"
#include "omfs.h"

#include <errno.h>

#include "km-karma-usb.h"

/* On the worker: the only place a job's faults are armed while it runs. */
static void count_request(SimSource *source, guint64 *count, guint64 arm_at)
{
	if (++*count == arm_at)
		*km_sim_karma_faults(source->sim) = source->mid_job;
}

static int ss_read(void *ctx, uint64_t offset, void *buf, size_t len)
{
	SimSource *source = ctx;

	count_request(source, &source->reads, source->arm_at_read);
	return source->usb_bdev->read(source->usb_bdev->ctx, offset, buf, len);
}

static int ss_write(void *ctx, uint64_t offset, const void *buf, size_t len)
{
	SimSource *source = ctx;

	count_request(source, &source->writes, source->arm_at_write);
	return source->usb_bdev->write(source->usb_bdev->ctx, offset, buf, len);
}

static int ss_flush(void *ctx)
{
	SimSource *source = ctx;

	return source->usb_bdev->flush(source->usb_bdev->ctx);
}

static uint64_t ss_size(void *ctx)
{
	SimSource *source = ctx;

	return source->usb_bdev->size(source->usb_bdev->ctx);
}

static const struct omfs_blockdev *ss_open(gpointer data, KmSession *session,
					   GCancellable *cancellable, GError **error)
{
	SimSource *source = data;
	struct km_sim_karma_options opts = { .faults = source->at_open,
					     .final_stats = &source->final };
	char msg[OMFS_ERRMSG_MAX] = "";
	struct km_sim_karma *sim = km_sim_karma_open(source->image, &opts, msg, sizeof(msg));

	if (sim)
		source->usb = km_karma_usb_open(km_sim_karma_transport(sim), msg, sizeof(msg));
	if (!sim || !source->usb) {
		/* km_karma_usb_open() closed the transport, and so freed the sim. */
		int err = errno;

		g_set_error(error, G_IO_ERROR, g_io_error_from_errno(err), "%s", msg);
		return NULL;
	}
	source->sim = sim;
	km_karma_usb_set_max_request(source->usb, SS_MAX_REQUEST);
	source->usb_bdev = km_karma_usb_blockdev(source->usb);
	source->bdev = (struct omfs_blockdev){ source, ss_read, ss_write, ss_flush, ss_size };
	return &source->bdev;
}

static gboolean ss_close(gpointer data, GError **error)
{
	SimSource *source = data;
	char msg[OMFS_ERRMSG_MAX] = "";
	int err = source->usb ? km_karma_usb_close(source->usb, msg, sizeof(msg)) : 0;

	source->usb = NULL;
	source->sim = NULL;
	if (err < 0) {
		g_set_error(error, G_IO_ERROR, g_io_error_from_errno(-err), "%s", msg);
		return FALSE;
	}
	return TRUE;
}

static void ss_free(gpointer data)
{
	SimSource *source = data;

	ss_close(source, NULL);
	g_free(source->image);
	g_free(source);
}

static const KmSessionSourceFuncs ss_funcs = { ss_open, ss_close, ss_free };

KmSession *ss_session(const char *image, const struct km_sim_karma_faults *at_open,
		      SimSource **out)
{
	SimSource *source = g_new0(SimSource, 1);

	source->image = g_strdup(image);
	if (at_open)
		source->at_open = *at_open;
	*out = source;
	return km_session_new_for_source("Simulated Karma", &ss_funcs, source);
}

struct km_sim_karma_faults *ss_faults(SimSource *source)
{
	g_assert_nonnull(source->sim);
	return km_sim_karma_faults(source->sim);
}

struct km_sim_karma_stats ss_stats(SimSource *source)
{
	struct km_sim_karma_stats stats;

	g_assert_nonnull(source->sim);
	km_sim_karma_get_stats(source->sim, &stats);
	return stats;
}

void ss_arm_at_write(SimSource *source, guint64 n, const struct km_sim_karma_faults *faults)
{
	g_assert_cmpuint(n, >, 0);
	source->arm_at_write = source->writes + n;
	source->mid_job = *faults;
}

void ss_arm_at_read(SimSource *source, guint64 n, const struct km_sim_karma_faults *faults)
{
	g_assert_cmpuint(n, >, 0);
	source->arm_at_read = source->reads + n;
	source->mid_job = *faults;
}
