/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-hostile-core.c - every hostile image through the core in-process (so
 * that the sanitizers watch the core itself): fsck, read-only mount with a
 * walk of every directory and a read of every file, a read-write pass, fsck
 * --repair; see omfs-exercise.c. On top of its promises, each case's
 * expectations: what fsck says, whether the volume mounts, reads in full, or
 * is refused with a sentence that names the block or the problem. The images
 * committed in IMAGES-DIR run the same way, with no expectation but the
 * exercise's promises.
 */
#include "hostile-inputs.h"
#include "omfs-exercise.h"

#include <glib.h>

static void check_mount(const struct hostile_case *c, const struct omfs_exercise_result *r)
{
	if (c->mount == HM_FAILS && r->mount_err == 0)
		g_test_fail_printf("%s: the volume mounted; it must be refused", c->name);
	if (c->mount == HM_READS && r->mount_err != 0)
		g_test_fail_printf("%s: mount failed (%s); it must mount", c->name, r->mount_msg);
	if (r->mount_err && !hostile_names_problem(c, r->mount_msg))
		g_test_fail_printf("%s: mount's sentence \"%s\" names no block", c->name,
				   r->mount_msg);
}

static void check_fsck(const struct hostile_case *c, const struct omfs_exercise_result *r)
{
	if (!hostile_fsck_expected(c, r->fsck, false))
		g_test_fail_printf("%s: fsck returned %d", c->name, r->fsck);
	if (!hostile_fsck_expected(c, r->fsck_repair, true))
		g_test_fail_printf("%s: fsck --repair returned %d", c->name, r->fsck_repair);
}

static void test_case(gconstpointer data)
{
	const struct hostile_input *in = data;
	const struct hostile_case *c = &in->c;
	struct omfs_exercise_result r;
	struct hostile_image img;
	unsigned flags = OMFS_EX_ALL;

	g_test_message("%s: %s", c->name, c->why);
	if (c->mount == HM_READS)
		flags |= OMFS_EX_MUST_READ;
	hostile_input_image(in, &img);
	omfs_exercise(img.data, img.size, flags, &r);
	hostile_image_free(&img);
	g_test_message("mount %d (%s); fsck %d, --repair %d, then %d; after writes %d; "
		       "%u dirs, %u files, %llu bytes, %u errors", r.mount_err, r.mount_msg, r.fsck,
		       r.fsck_repair, r.fsck_after_repair, r.fsck_after_write, r.dirs, r.files,
		       (unsigned long long)r.bytes_read, r.errors);
	if (r.violations)
		g_test_fail_printf("%s: %s", c->name, r.violation);
	check_mount(c, &r);
	check_fsck(c, &r);
}

/* Every case once more, built twice: the images must not depend on anything but the table. */
static void test_deterministic(void)
{
	size_t n;
	const struct hostile_case *cases = hostile_cases(&n);

	for (size_t i = 0; i < n; i++) {
		struct hostile_image a, b;

		hostile_build(&cases[i], &a);
		hostile_build(&cases[i], &b);
		g_assert_cmpuint(a.size, ==, b.size);
		g_assert_true(memcmp(a.data, b.data, a.size) == 0);
		hostile_image_free(&a);
		hostile_image_free(&b);
	}
}

/* A corruption must change the image; a case that changes nothing tests nothing. */
static void test_cases_change_something(void)
{
	size_t n;
	const struct hostile_case *cases = hostile_cases(&n);
	struct hostile_image base[HOSTILE_NBASES] = { 0 };

	for (size_t i = 0; i < n; i++) {
		const struct hostile_case *c = &cases[i];
		struct hostile_image img;

		if (!c->apply)
			continue;
		if (!base[c->base].data)
			hostile_build_base(c->base, &base[c->base]);
		hostile_build(c, &img);
		if (img.size == base[c->base].size &&
		    memcmp(img.data, base[c->base].data, img.size) == 0)
			g_test_fail_printf("%s changes nothing", c->name);
		hostile_image_free(&img);
	}
	for (int b = 0; b < HOSTILE_NBASES; b++)
		hostile_image_free(&base[b]);
}

/* Usage: test-hostile-core [IMAGES-DIR] [gtest options] */
int main(int argc, char **argv)
{
	GPtrArray *inputs;
	int status;

	g_test_init(&argc, &argv, NULL);
	inputs = hostile_inputs("core", argc > 1 ? argv[1] : NULL);
	g_test_add_func("/hostile/images/deterministic", test_deterministic);
	g_test_add_func("/hostile/images/change-something", test_cases_change_something);
	for (guint i = 0; i < inputs->len; i++) {
		const struct hostile_input *in = inputs->pdata[i];

		g_test_add_data_func(in->test_path, in, test_case);
	}
	status = g_test_run();
	g_ptr_array_unref(inputs);
	return status;
}
