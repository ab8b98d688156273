/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-storage-lock.c - flock on the storage, and who holds it (/proc/locks
 * for a lock, /proc/PID/fd for a USB node claimed by another process).
 */
#include "km-storage-lock.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "km-fail.h"

/*
 * udev probes a disk it has seen written with a shared lock held for a
 * moment (systemd's block device locking convention): a writer tries again
 * this long before it calls the disk busy.
 */
#define BLOCKDEV_RETRY_MS 500
#define RETRY_STEP_MS 50

/* "NAME, pid N" of pid, the name from /proc/PID/comm. */
static void describe_pid(long pid, char *out, size_t outlen)
{
	char path[64], name[64] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
	f = fopen(path, "re");
	if (f) {
		if (fgets(name, sizeof(name), f))
			name[strcspn(name, "\n")] = '\0';
		fclose(f);
	}
	snprintf(out, outlen, "%s, pid %ld", name[0] ? name : "a process", pid);
}

/*
 * One line of /proc/locks: "1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF"
 * (a waiter's reads "1: -> FLOCK ..."): the holder's pid when it is a held
 * lock on (dev, ino), else 0.
 */
static long lock_line_holder(const char *line, dev_t dev, ino_t ino)
{
	char kind[16], mode[16], access[16];
	unsigned maj, min;
	uintmax_t line_ino;
	long pid;

	if (strstr(line, "->"))
		return 0;
	if (sscanf(line, "%*d: %15s %15s %15s %ld %x:%x:%ju", kind, mode, access, &pid, &maj,
		   &min, &line_ino) != 7)
		return 0;
	if (maj != major(dev) || min != minor(dev) || line_ino != (uintmax_t)ino)
		return 0;
	return pid > 0 ? pid : 0;
}

bool km_storage_lock_holder(dev_t dev, ino_t ino, char *out, size_t outlen)
{
	FILE *f = fopen("/proc/locks", "re");
	char line[256];
	long pid = 0;

	if (!f)
		return false;
	while (!pid && fgets(line, sizeof(line), f))
		pid = lock_line_holder(line, dev, ino);
	fclose(f);
	if (pid)
		describe_pid(pid, out, outlen);
	return pid != 0;
}

/* Whether process `pid` has a file descriptor open on (dev, ino). */
static bool pid_has_open(const char *pid, dev_t dev, ino_t ino)
{
	char path[320];
	struct dirent *e;
	struct stat st;
	bool found = false;
	DIR *d;

	if (strlen(pid) > 32)
		return false;
	snprintf(path, sizeof(path), "/proc/%s/fd", pid);
	d = opendir(path);
	if (!d)
		return false;	/* another user's process, or gone */
	while (!found && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/fd/%s", pid, e->d_name);
		found = stat(path, &st) == 0 && st.st_dev == dev && st.st_ino == ino;
	}
	closedir(d);
	return found;
}

bool km_storage_node_user(const char *path, char *out, size_t outlen)
{
	long self = (long)getpid();
	struct dirent *e;
	struct stat st;
	long pid = 0;
	DIR *proc;

	if (stat(path, &st) < 0)
		return false;
	proc = opendir("/proc");
	if (!proc)
		return false;
	while (!pid && (e = readdir(proc))) {
		char *end;
		long p = strtol(e->d_name, &end, 10);

		if (*end || p <= 0 || p == self)
			continue;
		if (pid_has_open(e->d_name, st.st_dev, st.st_ino))
			pid = p;
	}
	closedir(proc);
	if (pid)
		describe_pid(pid, out, outlen);
	return pid != 0;
}

static void sleep_ms(unsigned ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/*
 * A holder can let go between our failed flock and our reading of
 * /proc/locks: then nobody is named, and the lock is free to take. Try again
 * this many times before calling the holder unknown.
 */
#define VANISHED_HOLDER_TRIES 20

int km_storage_lock(int fd, const char *path, bool exclusive, char *msg, size_t msglen)
{
	char holder[96];
	struct stat st;
	unsigned waited = 0, vanished = 0;

	if (fstat(fd, &st) < 0)
		return km_fail(-errno, msg, msglen, "%s: %s", path, strerror(errno));
	for (;;) {
		if (flock(fd, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB) == 0)
			return 0;
		if (errno == EINTR)
			continue;
		if (errno != EWOULDBLOCK)
			return km_fail(-errno, msg, msglen, "%s: cannot lock it: %s", path,
				       strerror(errno));
		if (exclusive && S_ISBLK(st.st_mode) && waited < BLOCKDEV_RETRY_MS) {
			sleep_ms(RETRY_STEP_MS);
			waited += RETRY_STEP_MS;
			continue;
		}
		if (km_storage_lock_holder(st.st_dev, st.st_ino, holder, sizeof(holder)))
			return km_fail(-EBUSY, msg, msglen, "%s is in use by %s", path, holder);
		if (++vanished >= VANISHED_HOLDER_TRIES)
			return km_fail(-EBUSY, msg, msglen, "%s is in use by another program",
				       path);
	}
}
