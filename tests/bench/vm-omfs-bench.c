/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vm-omfs-bench.c - the OMFS core as karmactl reaches a disk (km_image_device:
 * large reads around the page cache), in a static program with no library
 * but the C library, so that it runs inside the kernel oracle's VM beside
 * the kernel's own omfs driver (tests/bench/kernel-bench.sh).
 *
 *   vm-omfs-bench DEV cat PATH   read PATH in 1 MiB calls, print its size
 *   vm-omfs-bench DEV walk       list and stat every entry of the tree (what
 *                                `find -type f` does), print how many
 *   vm-omfs-bench time CMD...    run CMD with its output discarded, print its
 *                                wall time in seconds (the VM's busybox has
 *                                no finer clock than 10 ms)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "km-image-device.h"

#define IO_SIZE ((size_t)1 << 20)

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int time_command(char **argv)
{
	double t0 = now_s();
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return perror("fork"), 1;
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		if (null >= 0)
			dup2(null, STDOUT_FILENO);
		execvp(argv[0], argv);
		perror(argv[0]);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return perror("waitpid"), 1;
	printf("%.4f\n", now_s() - t0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

static int cat_file(struct omfs_fs *fs, const char *path)
{
	void *buf;
	uint64_t ino, off = 0;
	int64_t n;

	/* page aligned, as karmactl's buffer: the direct reads need no copy */
	if (posix_memalign(&buf, 4096, IO_SIZE))
		return fprintf(stderr, "out of memory\n"), 1;
	if (omfs_resolve(fs, path, &ino))
		return fprintf(stderr, "%s: %s\n", path, omfs_errmsg(fs)), 1;
	while ((n = omfs_read(fs, ino, off, buf, IO_SIZE)) > 0)
		off += (uint64_t)n;
	free(buf);
	if (n < 0)
		return fprintf(stderr, "%s: %s\n", path, omfs_errmsg(fs)), 1;
	printf("%llu bytes\n", (unsigned long long)off);
	return 0;
}

/* Entries under dir, or -1; depth bounds a corrupt tree's loops. */
static long walk(struct omfs_fs *fs, uint64_t dir, int depth)
{
	struct omfs_dirent e;
	struct omfs_stat st;
	uint64_t pos = 0;
	long n = 0;
	int r;

	if (depth > 64)
		return fprintf(stderr, "directory %llu: deeper than 64\n", (unsigned long long)dir), -1;
	while ((r = omfs_readdir(fs, dir, &pos, &e)) == 1) {
		long sub = 0;

		if (omfs_stat(fs, e.ino, &st))
			return fprintf(stderr, "%s: %s\n", e.name, omfs_errmsg(fs)), -1;
		if (e.is_dir && (sub = walk(fs, e.ino, depth + 1)) < 0)
			return -1;
		n += 1 + sub;
	}
	if (r < 0)
		return fprintf(stderr, "directory %llu: %s\n", (unsigned long long)dir,
			       omfs_errmsg(fs)), -1;
	return n;
}

int main(int argc, char **argv)
{
	struct km_image_device *dev;
	struct omfs_mount_opts opts = { .read_only = true };
	struct omfs_fs *fs;
	char msg[OMFS_ERRMSG_MAX];
	int status = 2;
	long n;

	if (argc >= 3 && !strcmp(argv[1], "time"))
		return time_command(argv + 2);
	if (argc < 3 || (strcmp(argv[2], "walk") && (strcmp(argv[2], "cat") || argc < 4))) {
		fprintf(stderr, "usage: vm-omfs-bench DEV cat PATH | DEV walk | time CMD...\n");
		return 2;
	}
	dev = km_image_device_open(argv[1], false, 0, 0, msg, sizeof(msg));
	if (!dev)
		return fprintf(stderr, "%s\n", msg), 1;
	if (omfs_mount(km_image_device_blockdev(dev), &opts, &fs, msg, sizeof(msg))) {
		fprintf(stderr, "mount: %s\n", msg);
		km_image_device_close(dev);
		return 1;
	}
	if (!strcmp(argv[2], "cat")) {
		status = cat_file(fs, argv[3]);
	} else {
		n = walk(fs, omfs_root_ino(fs), 0);
		status = n < 0;
		if (n >= 0)
			printf("%ld entries\n", n);
	}
	omfs_unmount(fs);
	km_image_device_close(dev);
	return status;
}
