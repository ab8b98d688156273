/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench-session-add.c - the app's add, timed (session-add-bench.sh): a
 * session on a Karma disk image, opened as the window opens it, then the
 * folders given added through km_session_add_files_async() with a progress
 * callback, as a drop on the window adds them (km_player_view_add_files()),
 * converting as karmactl does by default. No window: the session and its
 * worker are the whole add, and the tracks list the window would show is
 * kept up to date on this main context all the same.
 *   bench-session-add IMAGE FOLDER...
 * Prints one line: "session: open_us=... add_us=... add_last_file_us=...
 * add_cpu_us=... close_us=... added=N tracks=N progress_calls=N"
 * (add_last_file_us: until the progress showed the last file begun;
 * add_cpu_us: the user and system time of every thread during the add);
 * exits 1 when a file was not added.
 */
#include <stdio.h>
#include <sys/resource.h>

#include "km-session.h"

typedef struct {
	GAsyncResult *result;
	guint progress_calls;
	gint64 start_us;	/* when the add was queued */
	gint64 last_file_us;	/* from then until the progress showed the last file begun */
} Waiter;

static void store_result(GObject *source, GAsyncResult *result, gpointer data)
{
	Waiter *w = data;

	w->result = g_object_ref(result);
}

/*
 * The window's callback redraws a row: here it is counted, and the moment
 * the last file begins noted (what comes after it is the last file and the
 * last commit, which rewrites smalldb: a cost per add, not per file).
 */
static void on_progress(KmSession *session, const KmProgress *progress, gpointer data)
{
	Waiter *w = data;

	w->progress_calls++;
	if (!w->last_file_us && progress->n_files && progress->file_index + 1 >= progress->n_files)
		w->last_file_us = g_get_monotonic_time() - w->start_us;
}

static GAsyncResult *wait_for(Waiter *w)
{
	while (!w->result)
		g_main_context_iteration(NULL, TRUE);
	return w->result;
}

/* Every list update the worker posted is in (the tracks list is complete). */
static void drain_main_context(void)
{
	while (g_main_context_pending(NULL))
		g_main_context_iteration(NULL, FALSE);
}

static gboolean open_session(KmSession *session, GError **error)
{
	Waiter w = { 0 };
	gboolean ok;

	km_session_open_async(session, NULL, NULL, NULL, NULL, store_result, &w);
	ok = km_session_open_finish(session, wait_for(&w), error);
	g_object_unref(w.result);
	drain_main_context();
	return ok;
}

static KmReport *add_folders(KmSession *session, char **folders, guint n, Waiter *w,
			     GError **error)
{
	g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func(g_object_unref);
	KmReport *report;

	for (guint i = 0; i < n; i++)
		g_ptr_array_add(files, g_file_new_for_path(folders[i]));
	w->start_us = g_get_monotonic_time();
	km_session_add_files_async(session, (GFile *const *)files->pdata, n, NULL,
				   KM_ADD_FLAGS_NONE, on_progress, w, NULL, NULL, store_result, w);
	report = km_session_add_files_finish(session, wait_for(w), error);
	g_object_unref(w->result);
	drain_main_context();
	return report;
}

/* User and system time of the whole process, every thread, so far. */
static gint64 cpu_us(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (gint64)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * G_USEC_PER_SEC +
	       ru.ru_utime.tv_usec + ru.ru_stime.tv_usec;
}

static gboolean close_session(KmSession *session, GError **error)
{
	Waiter w = { 0 };
	gboolean ok;

	km_session_close_async(session, NULL, store_result, &w);
	ok = km_session_close_finish(session, wait_for(&w), error);
	g_object_unref(w.result);
	drain_main_context();
	return ok;
}

int main(int argc, char **argv)
{
	const KmConvertSettings convert = { .lossy_to = KM_CONVERT_VORBIS,
					    .quality = KM_CONVERT_DEFAULT_QUALITY };
	g_autoptr(GError) error = NULL;
	g_autoptr(KmReport) report = NULL;
	KmSession *session;
	gint64 t0, t1, t2, t3, cpu1, cpu2;
	Waiter add = { 0 };
	guint n_tracks;

	if (argc < 3) {
		fprintf(stderr, "usage: bench-session-add IMAGE FOLDER...\n");
		return 2;
	}
	session = km_session_new_for_path(argv[1]);
	km_session_set_conversion(session, &convert);
	t0 = g_get_monotonic_time();
	if (!open_session(session, &error))
		g_error("opening %s: %s", argv[1], error->message);
	t1 = g_get_monotonic_time();
	cpu1 = cpu_us();
	report = add_folders(session, argv + 2, (guint)argc - 2, &add, &error);
	if (!report || report->error)
		g_error("adding: %s", report ? report->error->message : error->message);
	t2 = g_get_monotonic_time();
	cpu2 = cpu_us();
	n_tracks = g_list_model_get_n_items(km_session_get_tracks(session));
	if (!close_session(session, &error))
		g_error("closing: %s", error->message);
	t3 = g_get_monotonic_time();
	g_object_unref(session);
	printf("session: open_us=%" G_GINT64_FORMAT " add_us=%" G_GINT64_FORMAT
	       " add_last_file_us=%" G_GINT64_FORMAT " add_cpu_us=%" G_GINT64_FORMAT
	       " close_us=%" G_GINT64_FORMAT " added=%u tracks=%u progress_calls=%u\n", t1 - t0,
	       t2 - t1, add.last_file_us, cpu2 - cpu1, t3 - t2, report->counts[KM_ITEM_DONE],
	       n_tracks, add.progress_calls);
	return report->counts[KM_ITEM_DONE] == report->items->len ? 0 : 1;
}
