/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kc-progress.h - the progress line of karmactl's bulk commands (add,
 * export): the file, its bytes, the bytes of the whole job, the rate and
 * the time left. On standard error, only when asked (a terminal on standard
 * output, or --progress); on a terminal one line rewritten in place and
 * cleared when the file is done (what the command prints about it follows),
 * else one line per file.
 */
#ifndef KC_PROGRESS_H
#define KC_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

struct kc_progress {
	bool enabled;
	bool tty;		/* rewrite one line in place */
	unsigned n_files, file_index;
	uint64_t total_bytes;	/* of the whole job */
	uint64_t done_bytes;	/* of the files finished */
	uint64_t file_bytes, file_done;
	const char *file_name;
	int64_t start_us, last_print_us;
};

/* forced: --progress; otherwise shown when standard output is a terminal. */
void kc_progress_init(struct kc_progress *p, bool forced, unsigned n_files, uint64_t total_bytes);
void kc_progress_file_begin(struct kc_progress *p, const char *name, uint64_t size);
/* done: bytes of the current file so far (a KmProgressFunc's figure). */
void kc_progress_file_update(struct kc_progress *p, uint64_t done);
/*
 * The file is being converted before its copy (KM_PHASE_CONVERTING) into
 * format (its title): done_ms of total_ms of its audio. On a
 * terminal, the line says so until the copy starts; elsewhere the file's
 * one line comes when it is done.
 */
void kc_progress_file_converting(struct kc_progress *p, uint64_t done_ms, uint64_t total_ms,
				 const char *format);
/* The file is finished (or given up: its bytes count as done either way). */
void kc_progress_file_end(struct kc_progress *p);
/* Clears the in-place line (a command stopped in the middle of a file). */
void kc_progress_finish(struct kc_progress *p);

#endif
