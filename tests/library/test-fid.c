/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-fid.c - fid <-> path vectors, canonical parsing, fid allocation. */
#include <string.h>

#include "km-fid.h"

struct vector {
	guint32 fid;
	const char *data;
	const char *props;
	const char *dir;
};

static const struct vector vectors[] = {
	{ 0x00001230, "fids0/_00001/230", "fids0/_00001/231", "_00001" },	/* docs/KARMA.md §6.2 */
	{ 0x00000110, "fids0/_00000/110", "fids0/_00000/111", "_00000" },	/* the first fid */
	{ 0x00000000, "fids0/_00000/000", "fids0/_00000/001", "_00000" },
	{ 0x0abcdef0, "fids0/_0abcd/ef0", "fids0/_0abcd/ef1", "_0abcd" },
	{ 0x0000fff0, "fids0/_0000f/ff0", "fids0/_0000f/ff1", "_0000f" },
	{ 0xfffffff0, "fids0/_fffff/ff0", "fids0/_fffff/ff1", "_fffff" },
};

static void test_vectors(void)
{
	gsize i;

	for (i = 0; i < G_N_ELEMENTS(vectors); i++) {
		const struct vector *v = &vectors[i];
		g_autofree char *data = km_fid_to_path(v->fid, KM_FID_FILE_DATA);
		g_autofree char *props = km_fid_to_path(v->fid, KM_FID_FILE_PROPERTIES);
		g_autofree char *dir = km_fid_dir_name(v->fid);
		char buf[KM_FID_PATH_SIZE];
		guint32 fid = 1;
		KmFidFile which = KM_FID_FILE_PROPERTIES;

		g_assert_cmpstr(data, ==, v->data);
		g_assert_cmpstr(props, ==, v->props);
		g_assert_cmpstr(dir, ==, v->dir);
		km_fid_format_path(v->fid, KM_FID_FILE_DATA, buf);
		g_assert_cmpstr(buf, ==, v->data);

		g_assert_true(km_fid_from_path(v->data, &fid, &which));
		g_assert_cmphex(fid, ==, v->fid);
		g_assert_cmpint(which, ==, KM_FID_FILE_DATA);
		g_assert_true(km_fid_from_path(v->props, &fid, &which));
		g_assert_cmphex(fid, ==, v->fid);
		g_assert_cmpint(which, ==, KM_FID_FILE_PROPERTIES);
		g_assert_true(km_fid_from_names(v->dir, v->data + 13, &fid, NULL));
		g_assert_cmphex(fid, ==, v->fid);
	}
}

static void test_round_trip_random(void)
{
	GRand *rand = g_rand_new_with_seed(7);
	guint i;

	for (i = 0; i < 10000; i++) {
		guint32 fid = g_rand_int(rand) & ~(KM_FID_STEP - 1);
		KmFidFile which = i % 2 ? KM_FID_FILE_PROPERTIES : KM_FID_FILE_DATA;
		KmFidFile back_which;
		g_autofree char *path = km_fid_to_path(fid, which);
		guint32 back;

		g_assert_cmpuint(strlen(path), ==, KM_FID_PATH_SIZE - 1);
		g_assert_true(km_fid_from_path(path, &back, &back_which));
		g_assert_cmphex(back, ==, fid);
		g_assert_cmpint(back_which, ==, which);
	}
	g_rand_free(rand);
}

static void test_not_canonical(void)
{
	const char *bad[] = {
		"fids0/_00001/232",	/* neither data (0) nor properties (1) */
		"fids0/_00001/23f",
		"fids0/_0000A/230",	/* upper case */
		"fids0/_0000a/23A",
		"FIDS0/_00001/230",
		"/fids0/_00001/230",	/* absolute */
		"./fids0/_00001/230",
		"fids0//_00001/230",
		"fids0/_00001//230",
		"fids0/_00001/230/",
		"fids0/_0001/230",	/* digit counts */
		"fids0/_000001/230",
		"fids0/_00001/0230",
		"fids0/_00001/23",
		"fids0/00001/230",	/* no '_' */
		"fids0/-00001/230",
		"fids1/_00001/230",
		"fids0/_00001\\230",
		"fids0/_00001/2 0",
		"fids0/_ 0001/230",
		"fids0/_-0001/230",
		"fids0/_+0001/230",
		"fids0/_00001/+30",
		"fids0/_0000g/230",
		"fids0/_00001/230 ",
		"fids0/_00001/23\303\251",
		"fids0",
		"",
	};
	gsize i;

	for (i = 0; i < G_N_ELEMENTS(bad); i++) {
		guint32 fid = 0x5a5a5a5a;

		g_test_message("%s", bad[i]);
		g_assert_false(km_fid_from_path(bad[i], &fid, NULL));
		g_assert_cmphex(fid, ==, 0x5a5a5a5a);
	}
	g_assert_false(km_fid_from_names("_00001", "232", &(guint32){ 0 }, NULL));
	g_assert_false(km_fid_from_names("00001", "230", &(guint32){ 0 }, NULL));
	g_assert_false(km_fid_from_names("_00001", "23", &(guint32){ 0 }, NULL));
	g_assert_false(km_fid_from_names("_00001", "", &(guint32){ 0 }, NULL));
	g_assert_false(km_fid_from_names("_", "230", &(guint32){ 0 }, NULL));
	g_assert_false(km_fid_from_names(".", "..", &(guint32){ 0 }, NULL));
}

static void test_valid(void)
{
	g_assert_true(km_fid_is_valid(0));
	g_assert_true(km_fid_is_valid(0x110));
	g_assert_true(km_fid_is_valid(0xfffffff0));
	g_assert_false(km_fid_is_valid(0x111));
	g_assert_false(km_fid_is_valid(0x118));
	g_assert_false(km_fid_is_valid(0xffffffff));
}

static guint32 allocate(KmFidAllocator *alloc)
{
	guint32 fid = 0;

	g_assert_true(km_fid_allocator_allocate(alloc, &fid));
	g_assert_true(km_fid_allocator_is_used(alloc, fid));
	return fid;
}

static void test_allocation_order(void)
{
	g_autoptr(KmFidAllocator) alloc = km_fid_allocator_new();

	g_assert_cmphex(allocate(alloc), ==, 0x110);
	g_assert_cmphex(allocate(alloc), ==, 0x120);
	g_assert_cmphex(allocate(alloc), ==, 0x130);
	/* a fid found on the disk is skipped */
	g_assert_true(km_fid_allocator_mark_used(alloc, 0x140));
	g_assert_false(km_fid_allocator_mark_used(alloc, 0x140));
	g_assert_cmphex(allocate(alloc), ==, 0x150);
	g_assert_cmpuint(km_fid_allocator_count(alloc), ==, 5);
	/* fids below 0x110 are never handed out, even when free */
	g_assert_false(km_fid_allocator_is_used(alloc, 0x100));
	g_assert_cmphex(allocate(alloc), ==, 0x160);
}

static void test_reuse(void)
{
	g_autoptr(KmFidAllocator) alloc = km_fid_allocator_new();
	const guint32 on_disk[] = { 0x110, 0x120, 0x140, 0x150, 0x100, 0x1000 };
	gsize i;

	for (i = 0; i < G_N_ELEMENTS(on_disk); i++)
		g_assert_true(km_fid_allocator_mark_used(alloc, on_disk[i]));
	g_assert_cmphex(allocate(alloc), ==, 0x130);	/* the gap */
	g_assert_cmphex(allocate(alloc), ==, 0x160);

	g_assert_true(km_fid_allocator_release(alloc, 0x140));
	g_assert_true(km_fid_allocator_release(alloc, 0x120));
	g_assert_false(km_fid_allocator_release(alloc, 0x120));
	g_assert_false(km_fid_allocator_is_used(alloc, 0x120));
	g_assert_cmphex(allocate(alloc), ==, 0x120);	/* lowest freed first */
	g_assert_cmphex(allocate(alloc), ==, 0x140);
	g_assert_cmphex(allocate(alloc), ==, 0x170);

	/* releasing a fid below 0x110 does not make it allocatable */
	g_assert_true(km_fid_allocator_release(alloc, 0x100));
	g_assert_cmphex(allocate(alloc), ==, 0x180);
	g_assert_false(km_fid_allocator_release(alloc, 0x2000));
}

/* Allocation order against a plain model, with random marks and releases. */
static void test_against_model(void)
{
	g_autoptr(KmFidAllocator) alloc = km_fid_allocator_new();
	GRand *rand = g_rand_new_with_seed(99);
	/* fid = index * 16; marks and releases below 448, allocations anywhere */
	static gboolean used[8192];
	guint round;

	for (round = 0; round < 20000; round++) {
		guint index = (guint)g_rand_int_range(rand, 0, 448);
		guint32 fid = index * KM_FID_STEP;
		guint expected;

		switch (g_rand_int_range(rand, 0, 3)) {
		case 0:
			g_assert_cmpint(km_fid_allocator_mark_used(alloc, fid), ==, !used[index]);
			used[index] = TRUE;
			break;
		case 1:
			g_assert_cmpint(km_fid_allocator_release(alloc, fid), ==, used[index]);
			used[index] = FALSE;
			break;
		default:
			for (expected = KM_FID_FIRST / KM_FID_STEP; used[expected]; expected++)
				g_assert_cmpuint(expected + 1, <, G_N_ELEMENTS(used));
			g_assert_cmphex(allocate(alloc), ==, expected * KM_FID_STEP);
			used[expected] = TRUE;
			break;
		}
	}
	g_rand_free(rand);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/fid/path/vectors", test_vectors);
	g_test_add_func("/fid/path/round-trip", test_round_trip_random);
	g_test_add_func("/fid/path/not-canonical", test_not_canonical);
	g_test_add_func("/fid/valid", test_valid);
	g_test_add_func("/fid/allocator/order", test_allocation_order);
	g_test_add_func("/fid/allocator/reuse", test_reuse);
	g_test_add_func("/fid/allocator/model", test_against_model);
	return g_test_run();
}
