/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-usb-libusb-cli.c - `karmactl --usb` end to end. This process holds
 * the umockdev testbed and serves the emulated Karma's usbdevfs node from
 * the simulated Karma; karmactl runs as a child under the same preload and
 * reaches the player through the real libusb, as it would a real one.
 * Arguments: the karmactl executable. Run under umockdev-wrapper.
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "km-riop.h"
#include "km-sim-karma.h"
#include "umockdev-karma.h"

static const char *karmactl;
static char *tmpdir;

struct run {
	int status;
	char *out;
	char *err;
};

static void run_free(struct run *r)
{
	g_free(r->out);
	g_free(r->err);
}

/* karmactl with these arguments (NULL-terminated), in this environment. */
static struct run run_karmactl(const char *first, ...)
{
	g_autoptr(GPtrArray) argv = g_ptr_array_new();
	g_autoptr(GError) error = NULL;
	struct run r = { 0 };
	const char *arg;
	va_list ap;

	g_ptr_array_add(argv, (char *)karmactl);
	va_start(ap, first);
	for (arg = first; arg; arg = va_arg(ap, const char *))
		g_ptr_array_add(argv, (char *)arg);
	va_end(ap);
	g_ptr_array_add(argv, NULL);
	g_assert_true(g_spawn_sync(NULL, (char **)argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL,
				   &r.out, &r.err, &r.status, &error));
	g_assert_no_error(error);
	g_test_message("karmactl %s: stderr: %s", first, r.err);
	return r;
}

static void assert_exit(const struct run *r, int code)
{
	g_assert_true(WIFEXITED(r->status));
	g_assert_cmpint(WEXITSTATUS(r->status), ==, code);
}

static char *tmp_path(const char *name)
{
	return g_build_filename(tmpdir, name, NULL);
}

struct fixture {
	UMockdevTestbed *tb;
	char *image;
	struct km_sim_karma_stats final;
	struct km_usb_transport *sim;
	struct km_umockdev_karma *karma;
};

static const struct km_umockdev_karma_options karma_opts = {
	.bus = 1, .address = 4, .port = 2, .bound = true,
};

/* A fresh OMFS image made by karmactl mkfs, behind an emulated Karma. */
static void fixture_setup(struct fixture *fx, gconstpointer data)
{
	struct km_sim_karma_options opts = { .final_stats = &fx->final };
	struct km_sim_karma *simk;
	char msg[256] = "";
	struct run r;

	fx->image = tmp_path("disk.img");
	g_unlink(fx->image);
	r = run_karmactl("mkfs", fx->image, "--size", "16M", NULL);
	assert_exit(&r, 0);
	run_free(&r);
	simk = km_sim_karma_open(fx->image, &opts, msg, sizeof(msg));
	g_assert_nonnull(simk);
	fx->sim = km_sim_karma_transport(simk);
	fx->tb = umockdev_testbed_new();
	fx->karma = km_umockdev_karma_add(fx->tb, &karma_opts, fx->sim);
}

static void fixture_teardown(struct fixture *fx, gconstpointer data)
{
	km_umockdev_karma_free(fx->karma);
	if (fx->sim)
		fx->sim->ops->close(fx->sim);
	g_object_unref(fx->tb);
	g_free(fx->image);
}

static void test_put_cat(struct fixture *fx, gconstpointer data)
{
	static const uint8_t session[] = { KM_RIOP_ENTER_STORAGE, KM_RIOP_DEVICE_INFO,
					   KM_RIOP_LEAVE_STORAGE, KM_RIOP_RETURN_TO_NORMAL };
	g_autofree char *host = tmp_path("song.bin");
	g_autoptr(GError) error = NULL;
	GString *content = g_string_new(NULL);
	struct run r;

	for (unsigned i = 0; i < 200000; i++)
		g_string_append_c(content, (char)('a' + i % 23));
	g_assert_true(g_file_set_contents(host, content->str, (gssize)content->len, &error));
	g_assert_no_error(error);

	r = run_karmactl("--usb", "put", host, "/song.bin", NULL);
	assert_exit(&r, 0);
	run_free(&r);
	g_assert_true(km_umockdev_karma_bound(fx->karma));	/* given back to usb-storage */
	/* By location, with the option after the command. */
	r = run_karmactl("cat", "/song.bin", "--usb", "1:4", NULL);
	assert_exit(&r, 0);
	g_assert_cmpmem(r.out, strlen(r.out), content->str, content->len);
	run_free(&r);
	r = run_karmactl("--usb", "fsck", NULL);
	assert_exit(&r, 0);
	run_free(&r);
	g_string_free(content, TRUE);

	fx->sim->ops->close(fx->sim);
	fx->sim = NULL;
	g_assert_cmpint(fx->final.mode, ==, KM_SIM_NORMAL);	/* each run left storage mode */
	/* Each of the three runs: enter storage, device info, leave, return to normal. */
	g_assert_cmpuint(fx->final.riop_commands, ==, 3 * 4);
	for (unsigned i = 0; i < fx->final.n_last_riop; i++)
		g_assert_cmpuint(fx->final.last_riop[i], ==, session[i % 4]);
}

/* eject over the real libusb: storage mode left, usb-storage given the player back. */
static void test_eject(struct fixture *fx, gconstpointer data)
{
	struct run r = run_karmactl("--usb", "1:4", "eject", NULL);

	assert_exit(&r, 0);
	g_assert_cmpstr(r.out, ==, "USB player 1:4: left storage mode; it may be unplugged\n");
	run_free(&r);
	g_assert_true(km_umockdev_karma_bound(fx->karma));
	fx->sim->ops->close(fx->sim);
	fx->sim = NULL;
	g_assert_cmpint(fx->final.mode, ==, KM_SIM_NORMAL);
	g_assert_cmpuint(fx->final.riop_commands, ==, 4);
	g_assert_cmpuint(fx->final.last_riop[2], ==, KM_RIOP_LEAVE_STORAGE);
	g_assert_cmpuint(fx->final.last_riop[3], ==, KM_RIOP_RETURN_TO_NORMAL);
	/* eject's flush and close's SYNCHRONIZE CACHE wrote nothing */
	g_assert_cmpuint(fx->final.bytes_written, ==, 0);
}

static void test_errors(struct fixture *fx, gconstpointer data)
{
	struct run r = run_karmactl("--usb", "1:9", "ls", NULL);

	assert_exit(&r, 1);
	g_assert_nonnull(strstr(r.err, "no Rio Karma at USB bus 1 device 9"));
	run_free(&r);
	km_umockdev_karma_set_busy(fx->karma, true);
	/* another program has claimed the interface: in use, exit status 3 */
	r = run_karmactl("--usb", "ls", NULL);
	assert_exit(&r, 3);
	g_assert_nonnull(strstr(r.err, "busy"));
	g_assert_nonnull(strstr(r.err, "--wait"));
	run_free(&r);
	r = run_karmactl("--usb", "-i", fx->image, "ls", NULL);
	assert_exit(&r, 2);
	run_free(&r);
}

static void remove_tmpdir(void)
{
	g_autofree char *img = tmp_path("disk.img"), *song = tmp_path("song.bin");

	g_unlink(img);
	g_unlink(song);
	g_rmdir(tmpdir);
}

int main(int argc, char **argv)
{
	g_autoptr(GError) error = NULL;
	int status;

	g_test_init(&argc, &argv, NULL);
	if (!g_strrstr(g_getenv("LD_PRELOAD") ?: "", "libumockdev-preload")) {
		g_print("1..0 # SKIP not under umockdev-wrapper\n");
		return 77;
	}
	g_assert_cmpint(argc, ==, 2);
	karmactl = argv[1];
	tmpdir = g_dir_make_tmp("km-usb-cli-XXXXXX", &error);
	g_assert_no_error(error);
	g_test_add("/usb-libusb-cli/put-cat", struct fixture, NULL, fixture_setup, test_put_cat,
		   fixture_teardown);
	g_test_add("/usb-libusb-cli/eject", struct fixture, NULL, fixture_setup, test_eject,
		   fixture_teardown);
	g_test_add("/usb-libusb-cli/errors", struct fixture, NULL, fixture_setup, test_errors,
		   fixture_teardown);
	status = g_test_run();
	remove_tmpdir();
	g_free(tmpdir);
	return status;
}
