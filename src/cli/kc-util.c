/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kc-util.c - karmactl's messages, size parsing, host I/O and path helpers. */
#include "kc.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void print_prefix(const struct kc_ctx *ctx)
{
	fputs("karmactl: ", stderr);
	if (ctx->cmd)
		fprintf(stderr, "%s: ", ctx->cmd);
}

int kc_fail(const struct kc_ctx *ctx, const char *what, int err)
{
	const char *sentence = ctx->fs ? omfs_errmsg(ctx->fs) : NULL;

	print_prefix(ctx);
	fprintf(stderr, "%s: %s", what, g_strerror(-err));
	if (sentence && sentence[0])
		fprintf(stderr, " (%s)", sentence);
	fputc('\n', stderr);
	return KC_EXIT_FAIL;
}

int kc_fail_errno(const struct kc_ctx *ctx, const char *what, int err)
{
	print_prefix(ctx);
	fprintf(stderr, "%s: %s\n", what, g_strerror(err));
	return KC_EXIT_FAIL;
}

int kc_failf(const struct kc_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	print_prefix(ctx);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return KC_EXIT_FAIL;
}

int kc_usage(const struct kc_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	print_prefix(ctx);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (ctx->cmd)
		fprintf(stderr, " (see 'karmactl %s --help')\n", ctx->cmd);
	else
		fputs(" (see 'karmactl --help')\n", stderr);
	return KC_EXIT_USAGE;
}

static unsigned suffix_shift(const char *s)
{
	static const char units[] = "KMGT";
	const char *unit;

	if (!*s)
		return 0;
	unit = strchr(units, g_ascii_toupper(*s));
	if (!unit)
		return UINT_MAX;
	s++;
	/* accept K, KB, KiB (all powers of 1024) */
	if (*s == 'i')
		s++;
	if (*s == 'B')
		s++;
	return *s ? UINT_MAX : 10 * (unsigned)(unit - units + 1);
}

bool kc_parse_size(const char *s, uint64_t *out)
{
	unsigned long long v;
	unsigned shift;
	char *end;

	if (!g_ascii_isdigit(*s))
		return false;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return false;
	shift = suffix_shift(end);
	if (shift == UINT_MAX || (shift && v > (UINT64_MAX >> shift)))
		return false;
	*out = (uint64_t)v << shift;
	return true;
}

int kc_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return errno;
		}
		p += n;
		len -= n;
	}
	return 0;
}

ssize_t kc_read_full(int fd, void *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = read(fd, (char *)buf + done, len - done);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		done += n;
	}
	return done;
}

char *kc_path_normalize(const char *path)
{
	GString *out = g_string_new("");
	const char *p = path;

	while (*p) {
		const char *end = strchrnul(p, '/');
		size_t len = end - p;

		if (len == 2 && p[0] == '.' && p[1] == '.') {
			char *slash = strrchr(out->str, '/');

			g_string_truncate(out, slash ? (size_t)(slash - out->str) : 0);
		} else if (len && !(len == 1 && p[0] == '.')) {
			g_string_append_c(out, '/');
			g_string_append_len(out, p, len);
		}
		p = *end ? end + 1 : end;
	}
	return g_string_free(out, FALSE);
}

const char *kc_path_show(const char *npath)
{
	return npath[0] ? npath : "/";
}

const char *kc_path_name(const char *npath)
{
	const char *slash = strrchr(npath, '/');

	return slash ? slash + 1 : npath;
}

char *kc_path_child(const char *npath, const char *name)
{
	return g_strconcat(npath, "/", name, NULL);
}

char *kc_host_basename(const char *path)
{
	char *copy = g_strdup(path);
	size_t len = strlen(copy);
	char *slash;
	char *name;

	while (len > 1 && copy[len - 1] == '/')
		copy[--len] = '\0';
	slash = strrchr(copy, '/');
	name = g_strdup(slash && len > 1 ? slash + 1 : (slash ? "" : copy));
	g_free(copy);
	return name;
}

/* ---- Ctrl-C: a flag the long commands look at between pieces of work ---- */

static volatile sig_atomic_t sigint_caught;

static void on_sigint(int sig)
{
	(void)sig;
	sigint_caught = 1;
}

void kc_sigint_catch(struct sigaction *old)
{
	/* SA_RESTART: a read or write of the image must not fail with EINTR */
	struct sigaction sa = { .sa_handler = on_sigint, .sa_flags = SA_RESTART };

	sigemptyset(&sa.sa_mask);
	sigint_caught = 0;
	sigaction(SIGINT, &sa, old);
}

bool kc_sigint_caught(void)
{
	return sigint_caught;
}

void kc_json_string(GString *out, const char *s)
{
	g_string_append_c(out, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			g_string_append_printf(out, "\\%c", c);
		else if (c == '\n')
			g_string_append(out, "\\n");
		else if (c == '\t')
			g_string_append(out, "\\t");
		else if (c == '\r')
			g_string_append(out, "\\r");
		else if (c < 0x20 || c == 0x7f)
			g_string_append_printf(out, "\\u%04x", c);
		else	/* the rest of valid UTF-8 (callers give no other) as it is */
			g_string_append_c(out, (char)c);
	}
	g_string_append_c(out, '"');
}

char *kc_shown(const char *s)
{
	GString *out = g_string_sized_new(strlen(s));

	while (*s) {
		gunichar c = g_utf8_get_char_validated(s, -1);
		const char *next = g_utf8_next_char(s);

		if (c == (gunichar)-1 || c == (gunichar)-2) {
			g_string_append_printf(out, "\\x%02X", (guchar)*s);
			next = s + 1;
		} else if (c < 0x20 || (c >= 0x7f && c < 0xa0)) {
			for (const char *p = s; p < next; p++)
				g_string_append_printf(out, "\\x%02X", (guchar)*p);
		} else {
			g_string_append_len(out, s, next - s);
		}
		s = next;
	}
	return g_string_free(out, FALSE);
}

/* CPU time: on a shared machine the wall clock also counts the other processes. */
gint64 kc_cpu_us(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
		return 0;
	return (gint64)ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}
