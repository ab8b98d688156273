/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hostile-gen.c - writes every hostile image to a directory, with an index:
 *   hostile-gen OUTDIR        OUTDIR/NAME.img for each case, OUTDIR/index.tsv
 *   hostile-gen OUTDIR NAME   just that one
 * The tests make the same images in memory; this is for looking at them
 * (karmactl, hexdump, the kernel) by hand.
 */
#include "hostile-images.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static const char *const fsck_words[] = {
	[HF_CLEAN] = "clean", [HF_NOTE] = "notes", [HF_DIRTY] = "dirty", [HF_UNMOUNTABLE] = "unmountable",
	[HF_ANY] = "any",
};
static const char *const mount_words[] = {
	[HM_ANY] = "any", [HM_FAILS] = "fails", [HM_READS] = "reads",
};

static int write_image(const char *dir, const struct hostile_case *c, FILE *index)
{
	struct hostile_image img;
	char path[4096];
	FILE *f;
	int ok;

	hostile_build(c, &img);
	snprintf(path, sizeof(path), "%s/%s.img", dir, c->name);
	f = fopen(path, "wb");
	ok = f && fwrite(img.data, 1, img.size, f) == img.size;
	if (f && fclose(f))
		ok = 0;
	hostile_image_free(&img);
	if (!ok) {
		fprintf(stderr, "hostile-gen: %s: %s\n", path, strerror(errno));
		return 1;
	}
	if (index)
		fprintf(index, "%s\t%s\t%s\t%s\t%s\n", c->name, fsck_words[c->fsck],
			mount_words[c->mount], hostile_target_path(c), c->why);
	return 0;
}

int main(int argc, char **argv)
{
	char path[4096];
	const struct hostile_case *cases;
	size_t n;
	FILE *index = NULL;
	int status = 0;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: hostile-gen OUTDIR [CASE]\n");
		return 2;
	}
	if (mkdir(argv[1], 0777) && errno != EEXIST) {
		fprintf(stderr, "hostile-gen: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	cases = hostile_cases(&n);
	if (argc == 2) {
		snprintf(path, sizeof(path), "%s/index.tsv", argv[1]);
		index = fopen(path, "w");
		if (!index) {
			fprintf(stderr, "hostile-gen: %s: %s\n", path, strerror(errno));
			return 1;
		}
		fprintf(index, "name\tfsck\tmount\ttarget\twhat\n");
	}
	for (size_t i = 0; i < n; i++)
		if (argc == 2 || strcmp(argv[2], cases[i].name) == 0)
			status |= write_image(argv[1], &cases[i], index);
	if (index && fclose(index))
		status = 1;
	return status;
}
