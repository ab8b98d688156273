/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kc-progress.c - the progress line of add and export (kc-progress.h). */
#include "kc-progress.h"

#include <glib.h>
#include <inttypes.h>
#include <stdio.h>
#include <unistd.h>

/* Redraw at most this often: a line per MiB written would slow a fast copy down. */
#define REDRAW_US (200 * 1000)

void kc_progress_init(struct kc_progress *p, bool forced, unsigned n_files, uint64_t total_bytes)
{
	*p = (struct kc_progress){ 0 };
	p->enabled = forced || isatty(STDOUT_FILENO);
	p->tty = isatty(STDERR_FILENO);
	p->n_files = n_files;
	p->total_bytes = total_bytes;
	p->start_us = g_get_monotonic_time();
}

static void format_bytes(char *buf, size_t len, uint64_t n)
{
	if (n >= 1 << 20)
		g_snprintf(buf, len, "%.1f MiB", (double)n / (1 << 20));
	else
		g_snprintf(buf, len, "%.1f KiB", (double)n / 1024);
}

/* "[2/5] song.m4a: converting to Ogg Vorbis, 1:05 of 3:10" */
static void print_converting(struct kc_progress *p, int64_t now, uint64_t done_ms,
			     uint64_t total_ms, const char *format)
{
	uint64_t done_s = done_ms / 1000, total_s = total_ms / 1000;

	fprintf(stderr, "\r\033[K[%u/%u] %s: converting to %s, %" PRIu64 ":%02" PRIu64 " of %" PRIu64
		":%02" PRIu64, p->file_index, p->n_files, p->file_name ? p->file_name : "", format,
		done_s / 60, done_s % 60, total_s / 60, total_s % 60);
	fflush(stderr);
	p->last_print_us = now;
}

static void print_line(struct kc_progress *p, int64_t now)
{
	uint64_t done = p->done_bytes + p->file_done;
	double secs = (double)(now - p->start_us) / 1e6;
	double rate = secs > 0 ? (double)done / secs : 0;
	char d[32], t[32], r[32], left[32] = "";

	format_bytes(d, sizeof(d), done);
	format_bytes(t, sizeof(t), p->total_bytes);
	format_bytes(r, sizeof(r), (uint64_t)rate);
	if (rate > 0 && p->total_bytes > done) {
		uint64_t s = (uint64_t)((double)(p->total_bytes - done) / rate);

		g_snprintf(left, sizeof(left), ", %" PRIu64 ":%02" PRIu64 " left", s / 60, s % 60);
	}
	fprintf(stderr, "%s[%u/%u] %s: %s of %s, %s/s%s%s", p->tty ? "\r\033[K" : "",
		p->file_index, p->n_files, p->file_name ? p->file_name : "", d, t, r, left,
		p->tty ? "" : "\n");
	fflush(stderr);
	p->last_print_us = now;
}

void kc_progress_file_begin(struct kc_progress *p, const char *name, uint64_t size)
{
	p->file_index++;
	p->file_name = name;
	p->file_bytes = size;
	p->file_done = 0;
	if (p->enabled && p->tty)
		print_line(p, g_get_monotonic_time());
}

void kc_progress_file_update(struct kc_progress *p, uint64_t done)
{
	int64_t now;

	p->file_done = done < p->file_bytes ? done : p->file_bytes;
	if (!p->enabled || !p->tty)
		return;
	now = g_get_monotonic_time();
	if (now - p->last_print_us >= REDRAW_US)
		print_line(p, now);
}

/* The in-place line goes away before what is printed about the file. */
void kc_progress_file_converting(struct kc_progress *p, uint64_t done_ms, uint64_t total_ms,
				 const char *format)
{
	int64_t now;

	if (!p->enabled || !p->tty)
		return;
	now = g_get_monotonic_time();
	if (now - p->last_print_us >= REDRAW_US)
		print_converting(p, now, done_ms, total_ms, format);
}

static void clear_line(struct kc_progress *p)
{
	if (p->enabled && p->tty) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
}

void kc_progress_file_end(struct kc_progress *p)
{
	p->file_done = p->file_bytes;
	if (p->enabled && !p->tty)
		print_line(p, g_get_monotonic_time());
	clear_line(p);
	p->done_bytes += p->file_bytes;
	p->file_done = 0;
}

void kc_progress_finish(struct kc_progress *p)
{
	clear_line(p);
}
