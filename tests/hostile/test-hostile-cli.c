/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-hostile-cli.c - every karmactl command on every hostile image, each
 * under a timeout (a hang is a failure). Required of every run: no crash
 * (exit status below 128), no sanitizer report, an error exit with exactly
 * one line on stderr, and that line naming a block when the volume is
 * refused or found corrupt; fsck's verdict as the case expects; read-only
 * commands leave the image untouched; `get -r` writes nothing outside its
 * destination; fsck survives whatever a writing command left behind.
 *
 * Usage: test-hostile-cli KARMACTL SCRATCH-DIR [IMAGES-DIR] [gtest options]
 * (IMAGES-DIR: committed regression images, run with generic expectations)
 * A failing case keeps its files in SCRATCH-DIR/GROUP/NAME.
 */
#include "hostile-inputs.h"

#include <glib.h>
#include <glib/gstdio.h>
#include <sys/wait.h>

#define TIMEOUT_S "10"

static const char *karmactl;
static const char *scratch;

struct command {
	/* "@T": the target path, "@SRC": a host file, "@DEST": a host destination */
	const char *args[6];
	bool writes;
};

static const struct command read_commands[] = {
	{ { "ls", "-lR", "/" } },
	{ { "ls", "-l", "@T" } },
	{ { "cat", "@T" } },
	{ { "cat", "/frag.bin" } },
	{ { "get", "-r", "/", "@DEST" } },
	{ { "df" } },
	{ { "info" } },
	{ { "manifest" } },
	{ { "fsck" } },
};

static const struct command write_commands[] = {
	{ { "put", "@SRC", "/x" }, true },
	{ { "put", "@SRC", "@T" }, true },
	{ { "mkdir", "/d" }, true },
	{ { "mkdir", "-p", "/dir1/sub/n1/n2" }, true },
	{ { "rm", "-r", "/dir1" }, true },
	{ { "rm", "-r", "@T" }, true },
	{ { "mv", "@T", "/moved" }, true },
	{ { "mv", "/hello.txt", "/dir1/sub/h" }, true },
	{ { "truncate", "@T", "1" }, true },
	{ { "truncate", "@T", "100000" }, true },
	{ { "fsck", "--repair" }, true },
};

struct run {
	const struct hostile_case *c;
	char *cmdline;
	int status;	/* exit status, or 128 + signal */
	char *err;	/* stderr */
};

struct case_dir {
	char *dir, *image, *work, *src, *out, *dest;
};

static bool is_fsck(const struct command *cmd)
{
	return strcmp(cmd->args[0], "fsck") == 0;
}

static const char *expand(const char *arg, const struct hostile_case *c,
			  const struct case_dir *d)
{
	if (strcmp(arg, "@T") == 0)
		return hostile_target_path(c);
	if (strcmp(arg, "@SRC") == 0)
		return d->src;
	if (strcmp(arg, "@DEST") == 0)
		return d->dest;
	return arg;
}

static void run_karmactl(const struct hostile_case *c, const struct case_dir *d,
			 const char *image, const struct command *cmd, struct run *r)
{
	GPtrArray *argv = g_ptr_array_new();
	GError *error = NULL;
	int wait_status;

	g_ptr_array_add(argv, (char *)"timeout");
	g_ptr_array_add(argv, (char *)"-k");
	g_ptr_array_add(argv, (char *)"2");
	g_ptr_array_add(argv, (char *)TIMEOUT_S);
	g_ptr_array_add(argv, (char *)karmactl);
	g_ptr_array_add(argv, (char *)"-i");
	g_ptr_array_add(argv, (char *)image);
	for (int i = 0; i < 6 && cmd->args[i]; i++)
		g_ptr_array_add(argv, (char *)expand(cmd->args[i], c, d));
	g_ptr_array_add(argv, NULL);

	r->c = c;
	r->cmdline = g_strjoinv(" ", (char **)argv->pdata + 4);
	r->err = NULL;
	if (!g_spawn_sync(NULL, (char **)argv->pdata, NULL,
			  G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL,
			  &r->err, &wait_status, &error))
		g_error("cannot run %s: %s", r->cmdline, error->message);
	if (WIFEXITED(wait_status))
		r->status = WEXITSTATUS(wait_status);
	else
		r->status = 128 + (WIFSIGNALED(wait_status) ? WTERMSIG(wait_status) : 0);
	g_ptr_array_unref(argv);
}

static void run_clear(struct run *r)
{
	g_free(r->cmdline);
	g_free(r->err);
}

static void __attribute__((format(printf, 2, 3))) run_fail(const struct run *r, const char *fmt,
							     ...)
{
	char *what;
	va_list ap;

	va_start(ap, fmt);
	what = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_test_fail_printf("%s: `%s`: %s (exit %d; stderr: %s)", r->c->name, r->cmdline, what,
			   r->status, r->err);
	g_free(what);
}

/* Things that must hold for any command on any image. */
static void check_survived(const struct run *r)
{
	static const char *const reports[] = { "Sanitizer", "runtime error", "AddressSanitizer",
					       "LeakSanitizer", "stack-overflow" };

	if (r->status == 124 || r->status == 128 + 9)
		run_fail(r, "hung (killed after " TIMEOUT_S " s)");
	else if (r->status >= 128)
		run_fail(r, "crashed");
	for (size_t i = 0; i < G_N_ELEMENTS(reports); i++)
		if (strstr(r->err, reports[i]))
			run_fail(r, "a sanitizer report");
}

static bool fsck_code_valid(int status)
{
	return status == 0 || status == 1 || status == 4 || status == 8;
}

/* The failure of a command other than fsck: one line, and a clear one. */
static void check_error_line(const struct run *r)
{
	const struct hostile_case *c = r->c;
	const char *nl = strchr(r->err, '\n');
	bool corrupt;

	if (r->err[0] == '\0' || !nl || nl[1] != '\0') {
		run_fail(r, "an error exit must print exactly one line on stderr");
		return;
	}
	/* The core's corruption errors: they must say where. */
	corrupt = strstr(r->err, "Structure needs cleaning") ||
		  strstr(r->err, "Input/output error");
	if ((c->mount == HM_FAILS || corrupt) && !hostile_names_problem(c, r->err))
		run_fail(r, "the error names no block");
}

static void check_fsck(const struct run *r, bool repair)
{
	if (!fsck_code_valid(r->status))
		run_fail(r, "not an fsck exit code");
	else if (!hostile_fsck_expected(r->c, r->status, repair))
		run_fail(r, "not the verdict this image deserves");
}

static void check_result(const struct run *r, const struct command *cmd)
{
	check_survived(r);
	if (is_fsck(cmd))
		check_fsck(r, cmd->args[1] != NULL);
	else if (r->status != 0)
		check_error_line(r);
	if (r->c->cli_ok && r->status != 0)
		run_fail(r, "must succeed on this image");
	if (r->c->mount == HM_FAILS && r->status == 0 && !is_fsck(cmd))
		run_fail(r, "succeeded on a volume that must be refused");
}

/* ---- files ---- */

static void write_file(const char *path, const void *data, size_t len)
{
	GError *error = NULL;

	if (!g_file_set_contents(path, data, (gssize)len, &error))
		g_error("%s", error->message);
}

static bool file_equals(const char *path, const void *data, size_t len)
{
	gchar *contents;
	gsize n;
	bool same;

	if (!g_file_get_contents(path, &contents, &n, NULL))
		return false;
	same = n == len && memcmp(contents, data, len) == 0;
	g_free(contents);
	return same;
}

static void remove_tree(const char *path)
{
	const char *argv[] = { "rm", "-rf", path, NULL };
	int status;

	g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL,
		     &status, NULL);
}

/* Only `allowed` (NULL-terminated) may exist in dir. */
static void check_dir_holds_only(const struct hostile_case *c, const char *dir,
				 const char *const *allowed)
{
	GDir *d = g_dir_open(dir, 0, NULL);
	const char *name;

	if (!d)
		return;
	while ((name = g_dir_read_name(d))) {
		bool ok = false;

		for (const char *const *a = allowed; *a; a++)
			ok |= strcmp(*a, name) == 0;
		if (!ok)
			g_test_fail_printf("%s: `get -r` wrote %s/%s, outside its destination",
					   c->name, dir, name);
	}
	g_dir_close(d);
}

/* SCRATCH/GROUP/NAME: a committed image may share its name with a generated case. */
static void case_dir_init(struct case_dir *d, const struct hostile_input *in)
{
	d->dir = g_build_filename(scratch, in->test_path + strlen("/hostile/cli/"), NULL);
	d->image = g_build_filename(d->dir, "image.img", NULL);
	d->work = g_build_filename(d->dir, "work.img", NULL);
	d->src = g_build_filename(d->dir, "src.txt", NULL);
	d->out = g_build_filename(d->dir, "out", NULL);
	d->dest = g_build_filename(d->out, "dest", NULL);
	remove_tree(d->dir);
	if (g_mkdir_with_parents(d->out, 0777))
		g_error("cannot create %s", d->out);
	write_file(d->src, "a small file put by the hostile test\n", 37);
}

static void case_dir_clear(struct case_dir *d)
{
	if (!g_test_failed())
		remove_tree(d->dir);
	g_free(d->dir);
	g_free(d->image);
	g_free(d->work);
	g_free(d->src);
	g_free(d->out);
	g_free(d->dest);
}

/* ---- the test ---- */

static void run_read_commands(const struct hostile_case *c, const struct case_dir *d,
			      const struct hostile_image *img)
{
	static const char *const in_dir[] = { "image.img", "work.img", "src.txt", "out", NULL };
	static const char *const in_out[] = { "dest", NULL };

	for (size_t i = 0; i < G_N_ELEMENTS(read_commands); i++) {
		struct run r;

		run_karmactl(c, d, d->image, &read_commands[i], &r);
		check_result(&r, &read_commands[i]);
		if (!file_equals(d->image, img->data, img->size)) {
			run_fail(&r, "a read-only command changed the image");
			write_file(d->image, img->data, img->size);
		}
		run_clear(&r);
	}
	check_dir_holds_only(c, d->dir, in_dir);
	check_dir_holds_only(c, d->out, in_out);
}

static void run_write_commands(const struct hostile_case *c, const struct case_dir *d,
			       const struct hostile_image *img)
{
	static const struct command fsck = { { "fsck" } };

	for (size_t i = 0; i < G_N_ELEMENTS(write_commands); i++) {
		const struct command *cmd = &write_commands[i];
		struct run r, after;

		write_file(d->work, img->data, img->size);
		run_karmactl(c, d, d->work, cmd, &r);
		check_result(&r, cmd);
		/* whatever the command left, fsck must cope with it (unchanged: done already) */
		if (file_equals(d->work, img->data, img->size)) {
			run_clear(&r);
			continue;
		}
		run_karmactl(c, d, d->work, &fsck, &after);
		check_survived(&after);
		if (!fsck_code_valid(after.status))
			run_fail(&after, "not an fsck exit code (after `%s`)", r.cmdline);
		if (is_fsck(cmd) && r.status == 1 && after.status != 0)
			run_fail(&after, "--repair said it corrected everything, but fsck then finds errors");
		if (c->cli_ok && after.status != 0)
			run_fail(&after, "`%s` left a clean volume unclean", r.cmdline);
		run_clear(&after);
		run_clear(&r);
	}
}

static void test_case(gconstpointer data)
{
	const struct hostile_input *in = data;
	const struct hostile_case *c = &in->c;
	struct hostile_image img;
	struct case_dir d;

	g_test_message("%s: %s", c->name, c->why);
	hostile_input_image(in, &img);
	case_dir_init(&d, in);
	write_file(d.image, img.data, img.size);
	run_read_commands(c, &d, &img);
	run_write_commands(c, &d, &img);
	case_dir_clear(&d);
	hostile_image_free(&img);
}

int main(int argc, char **argv)
{
	GPtrArray *inputs;
	int status;

	g_test_init(&argc, &argv, NULL);
	if (argc != 3 && argc != 4)
		g_error("usage: %s KARMACTL SCRATCH-DIR [IMAGES-DIR]", argv[0]);
	karmactl = argv[1];
	scratch = argv[2];
	if (!g_file_test(karmactl, G_FILE_TEST_IS_EXECUTABLE))
		g_error("%s is not built", karmactl);
	inputs = hostile_inputs("cli", argc == 4 ? argv[3] : NULL);
	for (guint i = 0; i < inputs->len; i++) {
		const struct hostile_input *in = inputs->pdata[i];

		g_test_add_data_func(in->test_path, in, test_case);
	}
	status = g_test_run();
	g_ptr_array_unref(inputs);
	return status;
}
