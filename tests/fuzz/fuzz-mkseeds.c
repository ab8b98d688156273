/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-mkseeds.c - writes the fuzzer's seed volumes: small images made by
 * our mkfs and filled through the core (the hostile tests' base volumes),
 * plus a ReplayTV variant without a bitmap.
 *   fuzz-mkseeds OUTDIR
 */
#include "hostile-images.h"

#include "omfs-private.h"

#include <errno.h>
#include <stdio.h>

static int write_seed(const char *dir, const char *name, const struct hostile_image *img)
{
	char path[4096];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	ok = f && fwrite(img->data, 1, img->size, f) == img->size;
	if (f && fclose(f))
		ok = 0;
	if (!ok)
		fprintf(stderr, "fuzz-mkseeds: %s: %s\n", path, strerror(errno));
	return !ok;
}

/* No bitmap: r_bitmap all ones in every copy of the root block, resealed. */
static void make_replaytv(struct hostile_image *img)
{
	uint64_t root = img->lay.block[HO_ROOT];

	for (uint32_t i = 0; i < img->lay.mirrors; i++) {
		uint8_t *blk = img->data + (root + i) * img->lay.blocksize;

		omfs_put_be64(blk + OMFS_R_BITMAP, OMFS_NIL);
		omfs_seal_header(blk, img->lay.sys_blocksize);
	}
}

int main(int argc, char **argv)
{
	struct hostile_image img;
	int status = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: fuzz-mkseeds OUTDIR\n");
		return 2;
	}
	hostile_build_base(HOSTILE_BASE_TINY, &img);
	status |= write_seed(argv[1], "seed-tiny-64k", &img);
	make_replaytv(&img);
	status |= write_seed(argv[1], "seed-tiny-replaytv-64k", &img);
	hostile_image_free(&img);
	hostile_build_base(HOSTILE_BASE_MID, &img);
	status |= write_seed(argv[1], "seed-mid-128k", &img);
	hostile_image_free(&img);
	hostile_build_base(HOSTILE_BASE_SMALL, &img);
	status |= write_seed(argv[1], "seed-small-256k", &img);
	hostile_image_free(&img);
	return status;
}
