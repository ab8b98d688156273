/* SPDX-License-Identifier: GPL-2.0-or-later */
/* device-test-util.c - image files and a simulated Karma for the USB protocol tests. */
#include "device-test-util.h"
#include "omfs.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>

static char *tmpdir;

static void remove_tmpdir(void)
{
	GDir *d = g_dir_open(tmpdir, 0, NULL);
	const char *name;

	while (d && (name = g_dir_read_name(d))) {
		g_autofree char *p = g_build_filename(tmpdir, name, NULL);

		g_unlink(p);
	}
	if (d)
		g_dir_close(d);
	g_rmdir(tmpdir);
	g_free(tmpdir);
}

char *dt_image(gsize size, guint32 seed)
{
	static unsigned n;
	g_autoptr(GError) error = NULL;
	g_autofree guint8 *data = g_malloc(size);
	GRand *rand = g_rand_new_with_seed(seed);
	char *path;
	gsize i;

	if (!tmpdir) {
		tmpdir = g_dir_make_tmp("km-device-XXXXXX", &error);
		g_assert_no_error(error);
		atexit(remove_tmpdir);
	}
	for (i = 0; i < size; i++)
		data[i] = (guint8)g_rand_int(rand);
	g_rand_free(rand);
	path = g_strdup_printf("%s/disk%u.img", tmpdir, n++);
	g_file_set_contents(path, (const char *)data, (gssize)size, &error);
	g_assert_no_error(error);
	return path;
}

GBytes *dt_file_bytes(const char *path)
{
	g_autoptr(GError) error = NULL;
	char *data;
	gsize len;

	g_file_get_contents(path, &data, &len, &error);
	g_assert_no_error(error);
	return g_bytes_new_take(data, len);
}

struct km_sim_karma *dt_sim(const char *path, const struct km_sim_karma_options *opts)
{
	char msg[256] = "";
	struct km_sim_karma *sim = km_sim_karma_open(path, opts, msg, sizeof(msg));

	if (!sim)
		g_error("km_sim_karma_open: %s", msg);
	return sim;
}

struct km_karma_usb *dt_open(struct km_sim_karma *sim)
{
	char msg[OMFS_ERRMSG_MAX] = "";
	struct km_karma_usb *k = km_karma_usb_open(km_sim_karma_transport(sim), msg, sizeof(msg));

	if (!k)
		g_error("km_karma_usb_open: %s", msg);
	return k;
}

void dt_close(struct km_karma_usb *k)
{
	char msg[OMFS_ERRMSG_MAX] = "";
	int err = km_karma_usb_close(k, msg, sizeof(msg));

	if (err)
		g_error("km_karma_usb_close: %s (%s)", msg, g_strerror(-err));
}

void dt_assert_reads(struct km_karma_usb *k, const guint8 *want, guint64 off, gsize len)
{
	const struct omfs_blockdev *dev = km_karma_usb_blockdev(k);
	g_autofree guint8 *got = g_malloc(len ? len : 1);
	int err = dev->read(dev->ctx, off, got, len);

	if (err)
		g_error("read %" G_GUINT64_FORMAT "+%zu: %s (%s)", off, len, g_strerror(-err),
			km_karma_usb_errmsg(k));
	g_assert_cmpmem(got, len, want + off, len);
}

void dt_assert_msg(const char *msg, const char *needle)
{
	if (!strstr(msg, needle))
		g_error("message \"%s\" does not say \"%s\"", msg, needle);
}
