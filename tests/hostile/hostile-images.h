/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hostile-images.h - corrupted OMFS images, made from valid, populated
 * volumes (built with the core's own mkfs, create, mkdir and write) by
 * changing bytes at the layout's offsets (omfs-private.h). One table of cases
 * serves the image generator, the in-process test and the karmactl test.
 * Plain libc, so that the fuzzer's seed maker can use it too.
 */
#ifndef HOSTILE_IMAGES_H
#define HOSTILE_IMAGES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum hostile_base {
	/* 2 MiB, blocksize 4096, sysblock 2048, 2 mirrors, cluster 1: the tree below */
	HOSTILE_BASE_STD,
	/* 256 KiB, blocksize 1024, sysblock 512: one extent per inode, so /frag.bin has a
	 * chain of two continuation blocks */
	HOSTILE_BASE_SMALL,
	/* 64 KiB, blocksize 1024, sysblock 512: a fuzz seed */
	HOSTILE_BASE_TINY,
	/* 128 KiB, blocksize 2048, sysblock 1024, cluster 2: a fuzz seed */
	HOSTILE_BASE_MID,
	HOSTILE_NBASES,
};

/*
 * What the cases aim at. The files and directories are found by path in the
 * base; a base that lacks one has block 0 for it.
 *   STD:   /hello.txt /big.bin /frag.bin /filler.bin /empty/ /dir1/{a.txt,b.txt}
 *          /dir1/sub/deep.txt, and /10 /31 (bucket 81), /11 /30 /53 /72 (bucket 83),
 *          /1 /13e (bucket 49: a prefix of each other)
 *   SMALL: /hello.txt /frag.bin /filler.bin /empty/ /dir1/a.txt /dir1/sub/deep.txt,
 *          /a /j (one bucket of nine)
 */
enum hostile_obj {
	HO_NONE,
	HO_SUPER,
	HO_ROOT,	/* the root block */
	HO_ROOTDIR,
	HO_BITMAP,	/* its first block */
	HO_HELLO,
	HO_BIG,
	HO_FRAG,
	HO_FILLER,
	HO_EMPTY,
	HO_DIR1,
	HO_A,
	HO_B,
	HO_SUB,
	HO_DEEP,
	HO_N10,
	HO_N31,
	HO_N1,
	HO_N13E,
	HO_N11,
	HO_PA,
	HO_PJ,
	HO_CONT1,	/* /frag.bin's first continuation block */
	HO_CONT2,
	HO_NOBJS,
};

/* What a correct core does with the image. */
enum hostile_fsck {
	HF_CLEAN,	/* fsck 0: the image is odd but valid */
	HF_NOTE,	/* fsck 0 with notes: valid, as the kernel reads it; --repair normalises it (1) */
	HF_DIRTY,	/* fsck 4; --repair 1 or 4 */
	HF_UNMOUNTABLE,	/* fsck 4 or 8; --repair not 0 */
	HF_ANY,		/* not specified (fsck may or may not object) */
};

enum hostile_mount {
	HM_ANY,
	HM_FAILS,	/* with a sentence naming a block or the field */
	HM_READS,	/* mounts, and every directory and file reads without an error */
};

/* How a change reaches the copies of a sysblock. */
enum hostile_copies {
	HC_RAW_PRIMARY,		/* the primary only, checksums left stale */
	HC_RAW_ALL,		/* every copy, checksums left stale */
	HC_SEALED_PRIMARY,	/* the primary, resealed; the mirrors keep the old bytes */
	HC_SEALED_ALL,		/* every copy resealed: no mirror can hide the change */
};

/* How a case's value is computed. */
enum hostile_value {
	HV_CONST,	/* val */
	HV_END,		/* num_blocks + val */
	HV_BLOCK,	/* block of `ref` + val */
	HV_MAXEXT,	/* capacity of the extent table at `off` + val */
};

struct hostile_image;
struct hostile_case;

typedef void (*hostile_apply_fn)(struct hostile_image *img, const struct hostile_case *c);

struct hostile_case {
	const char *name;
	const char *why;
	enum hostile_base base;
	enum hostile_fsck fsck;
	enum hostile_mount mount;
	/* karmactl's cat/rm/mv/truncate aim at this object's path (default /dir1/a.txt) */
	enum hostile_obj target;
	hostile_apply_fn apply;	/* NULL: the base itself */
	/* parameters of apply */
	enum hostile_obj obj;
	uint32_t off;		/* byte offset; for apply_bucket, the object whose bucket */
	uint32_t width;		/* bytes of a poke; bit number of a flip */
	int64_t val;
	enum hostile_value kind;
	enum hostile_obj ref;
	enum hostile_copies copies;
	/* a word an error sentence must hold; NULL: "block" or "inode" */
	const char *needle;
	/* every karmactl command succeeds on it */
	bool cli_ok;
};

struct hostile_layout {
	uint32_t blocksize, sys_blocksize, mirrors, nbuckets;
	uint64_t num_blocks;
	uint64_t block[HO_NOBJS];
};

struct hostile_image {
	uint8_t *data;
	size_t size;
	struct hostile_layout lay;
};

const struct hostile_case *hostile_cases(size_t *n);
/* The image of one case (malloc'ed into img->data). Aborts when the base cannot be built. */
void hostile_build(const struct hostile_case *c, struct hostile_image *img);
/* An uncorrupted base volume. */
void hostile_build_base(enum hostile_base base, struct hostile_image *img);
void hostile_image_free(struct hostile_image *img);
/* Whether an fsck exit code is what a correct core gives for the case. */
bool hostile_fsck_expected(const struct hostile_case *c, int code, bool repair);
/* Whether an error sentence names the block (or inode), or the case's needle. */
bool hostile_names_problem(const struct hostile_case *c, const char *msg);
/* The path of a file or directory object, or NULL. */
const char *hostile_obj_path(enum hostile_obj obj);
/* Files and directories every base holds, to aim commands at. */
const char *hostile_target_path(const struct hostile_case *c);

#endif
