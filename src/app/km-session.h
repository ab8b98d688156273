/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-session.h - one open player (an image file, a block device node, the
 * demo over the simulated Karma, or a Rio Karma over USB), as the window
 * sees it.
 *
 * A session owns one worker thread, the only thread that touches the OMFS
 * core and the library for that player. Every km_session_*_async() call
 * queues a job (a GTask) for it and returns at once; jobs run one at a time,
 * in the order they were queued, and each one's callback runs on the main
 * context: the thread-default main context of the thread that created the
 * session, as do the progress callbacks and every signal and property
 * notification. Call the session from that one thread only.
 *
 * Every job takes a GCancellable. Cancelling it before the job runs fails it
 * with G_IO_ERROR_CANCELLED; during a copy it stops the copy at the next
 * chunk and rolls back the file being copied: what was committed stays (the
 * files copied completely before the cancel are committed). An edit (remove,
 * tags, playlists) is short and all or nothing: once it runs, it finishes. A
 * progress callback is never called once its job's cancellable is cancelled,
 * so a window that cancels in dispose gets no late calls.
 *
 * The results live on the main context: km_session_get_tracks() and
 * km_session_get_playlists() are kept up to date after every commit, by
 * items-changed signals that touch only what changed; the capacity
 * properties follow with notify.
 *
 * When the device fails (unplugged, I/O error), the session becomes
 * KM_SESSION_STATE_FAILED and emits `failed` once, when the job that met the
 * failure ends, just before that job's callback; every job after that fails
 * with KM_SESSION_ERROR_FAILED. Close it (that releases the device) and open
 * a new one. Closing (or finalizing) a failed session writes nothing back,
 * and succeeds even when the device refuses the goodbye (leave storage mode).
 *
 * Properties (read-only, notify on the main context):
 *   name          string   what to call the player ("Demo Player", the image's name)
 *   state         KmSessionState
 *   busy          gboolean a job is queued or running
 *   total-bytes   guint64  size of the music partition's filesystem
 *   free-bytes    guint64  free space on it
 *   used-bytes    guint64  total - free
 *   incomplete    gboolean a restore did not finish: the player cannot be read
 *                 until a restore does (km-session-backup.h)
 * Signals:
 *   failed (GError *error, KmReport *report)  the device failed; report is the
 *       running job's (what was and was not copied) or NULL
 *   changes-held ()  the first change was held (km_session_hold_changes())
 */
#ifndef KM_SESSION_H
#define KM_SESSION_H

#include <gio/gio.h>

#include "km-playlist-item.h"
#include "km-progress.h"
#include "km-report.h"
#include "km-track.h"
#include "km-plays.h"
#include "km-sync.h"
#include "km-verify.h"

G_BEGIN_DECLS

#define KM_SESSION_ERROR (km_session_error_quark())
GQuark km_session_error_quark(void);
typedef enum {
	KM_SESSION_ERROR_NOT_OPEN,	/* a job before open, or after close */
	KM_SESSION_ERROR_FAILED,	/* the device failed earlier: close the session */
	KM_SESSION_ERROR_FULL,		/* the next file does not fit in the free space */
	KM_SESSION_ERROR_INCOMPLETE,	/* a restore did not finish: restore again */
} KmSessionError;
/* Library, import and export errors keep their own domains (km-library.h…). */

typedef enum {
	KM_SESSION_STATE_NEW,		/* not opened yet */
	KM_SESSION_STATE_OPENING,
	KM_SESSION_STATE_OPEN,
	KM_SESSION_STATE_CLOSED,	/* closed (also after a failed open) */
	KM_SESSION_STATE_FAILED,	/* the device failed: only close works */
} KmSessionState;
#define KM_TYPE_SESSION_STATE (km_session_state_get_type())
GType km_session_state_get_type(void);

#define KM_TYPE_SESSION (km_session_get_type())
G_DECLARE_FINAL_TYPE(KmSession, km_session, KM, SESSION, GObject)

/*
 * A job's progress: called on the main context with the newest snapshot
 * (never two pending), and never after its job's cancellable is cancelled.
 * The job's progress_notify (may be NULL) frees progress_data on the main
 * context once the job is over and no further call will come.
 */
typedef void (*KmProgressCallback)(KmSession *session, const KmProgress *progress,
				   gpointer user_data);

/*
 * Constructors: nothing is read until km_session_open_async(). The worker
 * thread starts here and ends when the session is finalized; a queued job
 * holds a reference on the session, so that happens after the last job.
 * Finalizing a session that is still open closes it (on the worker) first.
 */
/* An image file (a whole Karma disk or a bare OMFS volume) or a block device node. */
KmSession *km_session_new_for_path(const char *path);
/*
 * The demo player: cache_dir/karma-manager/demo-karma.img, made on the first
 * open (KM_DEMO_TRACKS tracks) when it is not there, reached through the
 * simulated Karma and the USB protocol code, as a real player would be.
 */
#define KM_DEMO_TRACKS 20
KmSession *km_session_new_demo(const char *cache_dir);
/*
 * A Rio Karma over USB (libusb): the one at bus:address, or the first found
 * when bus is 0. No permission: G_IO_ERROR_PERMISSION_DENIED, whose message
 * gives the udev rule and the command that installs it.
 */
KmSession *km_session_new_for_usb(guint8 bus, guint8 address);
/* The same on its usbdevfs node opened by the USB portal; the session owns fd. */
KmSession *km_session_new_for_usb_fd(int fd);
/* Other sources (tests): km-session-source.h. */

const char *km_session_get_name(KmSession *session);
/*
 * The player's serial number, when the device tells it (on the main context,
 * before opening). One that is no serial worth the name (every Karma seen so
 * far: all zeros) is kept as none, as for the demo and an image.
 */
void km_session_set_serial(KmSession *session, const char *serial);
/* What tells this player from others: the serial, else the name. */
const char *km_session_get_player_id(KmSession *session);
/*
 * Whether the adds and sync plans queued from now on convert files the Karma
 * cannot play, and to what (km-convert.h; settings is copied). NULL: they
 * refuse them (the default). A job queued already keeps what it was given.
 * On the main context.
 */
void km_session_set_conversion(KmSession *session, const KmConvertSettings *settings);
/* Whether the next add converts; if so, settings gets how. */
gboolean km_session_get_conversion(KmSession *session, KmConvertSettings *settings);
KmSessionState km_session_get_state(KmSession *session);
gboolean km_session_is_busy(KmSession *session);
guint64 km_session_get_total_bytes(KmSession *session);
guint64 km_session_get_free_bytes(KmSession *session);
guint64 km_session_get_used_bytes(KmSession *session);

/* The player's tunes (KmTrack), in ascending fid order; owned by the session. */
GListModel *km_session_get_tracks(KmSession *session);
/* The player's playlists (KmPlaylistItem), in ascending fid order; owned by the session. */
GListModel *km_session_get_playlists(KmSession *session);
/* The track with this fid in km_session_get_tracks(), or NULL (owned by the session). */
KmTrack *km_session_lookup_track(KmSession *session, guint32 fid);

/*
 * Open the player (writable) and fill the lists. progress (may be NULL)
 * reports the demo image being made on the first open.
 */
void km_session_open_async(KmSession *session, KmProgressCallback progress,
			   gpointer progress_data, GDestroyNotify progress_notify,
			   GCancellable *cancellable, GAsyncReadyCallback callback,
			   gpointer user_data);
gboolean km_session_open_finish(KmSession *session, GAsyncResult *result, GError **error);

/*
 * Write everything back and close the device (for a USB player: leave
 * storage mode, so the player can be unplugged: "eject"). Runs after the jobs
 * already queued; cancel them first to close sooner. Closing a failed
 * session releases the device and succeeds.
 */
void km_session_close_async(KmSession *session, GCancellable *cancellable,
			    GAsyncReadyCallback callback, gpointer user_data);
gboolean km_session_close_finish(KmSession *session, GAsyncResult *result, GError **error);

typedef enum {
	KM_ADD_FLAGS_NONE = 0,
	/* Copy a file even when the player already has the track. */
	KM_ADD_COPY_DUPLICATES = 1 << 0,
} KmAddFlags;

/*
 * Copy host files to the player. A folder adds every file below it (not
 * following symlinks to folders). Files already on the player are skipped
 * (KM_ITEM_DUPLICATE) unless KM_ADD_COPY_DUPLICATES; files the Karma cannot
 * play are converted (km_session_set_conversion(); the progress says
 * `converting` while the copy waits for one) or, without a conversion or
 * when GStreamer cannot decode them, KM_ITEM_UNSUPPORTED; both with the
 * reason. Before each file, its size (a converted file's estimated from its
 * duration) is checked against the free space: one that does not fit stops the job
 * with KM_SESSION_ERROR_FULL before anything of it is written (the rest are
 * KM_ITEM_NOT_DONE). Tracks are committed in batches (every few files or
 * seconds), so they appear in the track list as they land, and a failure or
 * cancel loses at most the batch being written.
 *
 * item_cancellables (may be NULL, else n_files entries, each may be NULL):
 * cancelling entry i skips files[i] (all of a folder) or stops its copy; the
 * job goes on with the next. cancellable stops the whole job.
 */
void km_session_add_files_async(KmSession *session, GFile *const *files, guint n_files,
				GCancellable *const *item_cancellables, KmAddFlags flags,
				KmProgressCallback progress, gpointer progress_data,
				GDestroyNotify progress_notify, GCancellable *cancellable,
				GAsyncReadyCallback callback, gpointer user_data);
/*
 * The report, also when the job stopped early (then report->error says why,
 * and error gets a copy of it). NULL with error only when the job did not
 * run at all (cancelled before it started, session not open or failed).
 */
KmReport *km_session_add_files_finish(KmSession *session, GAsyncResult *result, GError **error);
/*
 * The M3U/M3U8 list file made a playlist (km-playlist-import.h): its files
 * added as above (those there already used; entries naming no file are
 * report items), then the playlist, named after the file, in the list's
 * order. Finished with km_session_add_files_finish().
 */
void km_session_import_playlist_async(KmSession *session, GFile *list, KmAddFlags flags,
				      KmProgressCallback progress, gpointer progress_data,
				      GDestroyNotify progress_notify, GCancellable *cancellable,
				      GAsyncReadyCallback callback, gpointer user_data);

/*
 * Copy tracks into folder, each to the name template makes (km-export.h;
 * NULL: KM_EXPORT_DEFAULT_TEMPLATE), never overwriting a file: a taken name
 * gets " (2)". A file cancelled half-way is removed.
 */
void km_session_export_async(KmSession *session, const guint32 *fids, guint n_fids,
			     GFile *folder, const char *template, KmProgressCallback progress,
			     gpointer progress_data, GDestroyNotify progress_notify,
			     GCancellable *cancellable, GAsyncReadyCallback callback,
			     gpointer user_data);
/*
 * The same for a playlist's tracks, each once, and folder/NAME.m3u8 listing
 * them in its order (km_library_export_playlist()); finished with
 * km_session_export_finish().
 */
void km_session_export_playlist_async(KmSession *session, guint32 playlist, GFile *folder,
				      const char *template, KmProgressCallback progress,
				      gpointer progress_data, GDestroyNotify progress_notify,
				      GCancellable *cancellable, GAsyncReadyCallback callback,
				      gpointer user_data);
/* As km_session_add_files_finish(). */
KmReport *km_session_export_finish(KmSession *session, GAsyncResult *result, GError **error);

/*
 * Edits: each runs as one transaction, committed at the end (all or
 * nothing). They all finish with km_session_edit_finish().
 */
/* Remove tracks (and their entries in every playlist). */
void km_session_remove_async(KmSession *session, const guint32 *fids, guint n_fids,
			     GCancellable *cancellable, GAsyncReadyCallback callback,
			     gpointer user_data);

/*
 * The tags the details pane edits. NULL leaves a tag as it is; "" removes
 * it. year: four digits; track_number: 1 to 255; text 255 bytes at most
 * (km-property-rules.h; anything else fails with KM_LIBRARY_ERROR_INVALID
 * and changes nothing).
 */
typedef struct {
	const char *title;
	const char *artist;
	const char *album;
	const char *genre;
	const char *year;
	const char *track_number;
} KmTagEdit;
/* Set the same tags on every track of fids (edit is copied). */
void km_session_set_tags_async(KmSession *session, const guint32 *fids, guint n_fids,
			       const KmTagEdit *edit, GCancellable *cancellable,
			       GAsyncReadyCallback callback, gpointer user_data);

void km_session_playlist_rename_async(KmSession *session, guint32 playlist, const char *name,
				      GCancellable *cancellable, GAsyncReadyCallback callback,
				      gpointer user_data);
void km_session_playlist_delete_async(KmSession *session, guint32 playlist,
				      GCancellable *cancellable, GAsyncReadyCallback callback,
				      gpointer user_data);
/* Insert the tracks, in this order, at entry index position (-1: at the end). */
void km_session_playlist_add_async(KmSession *session, guint32 playlist, const guint32 *fids,
				   guint n_fids, gint position, GCancellable *cancellable,
				   GAsyncReadyCallback callback, gpointer user_data);
/* Remove the entries at these indexes (any order, as they are before the removal). */
void km_session_playlist_remove_async(KmSession *session, guint32 playlist,
				      const guint *indexes, guint n_indexes,
				      GCancellable *cancellable, GAsyncReadyCallback callback,
				      gpointer user_data);
/* Move the entry at index from so that it ends up at index to. */
void km_session_playlist_move_async(KmSession *session, guint32 playlist, guint from, guint to,
				    GCancellable *cancellable, GAsyncReadyCallback callback,
				    gpointer user_data);
gboolean km_session_edit_finish(KmSession *session, GAsyncResult *result, GError **error);

/* A new, empty playlist; its fid from the finish. */
void km_session_playlist_create_async(KmSession *session, const char *name,
				      GCancellable *cancellable, GAsyncReadyCallback callback,
				      gpointer user_data);
gboolean km_session_playlist_create_finish(KmSession *session, GAsyncResult *result,
					   guint32 *fid, GError **error);

/*
 * Check the file system (KM_VERIFY_FLAG_FILE_SYSTEM), then read every file of
 * the library and compare with var/smalldb (km-verify.h); with repair, fix
 * what can be fixed, the file system first (the lists are then reloaded).
 */
void km_session_verify_async(KmSession *session, gboolean repair, GCancellable *cancellable,
			     GAsyncReadyCallback callback, gpointer user_data);
KmVerifyReport *km_session_verify_finish(KmSession *session, GAsyncResult *result,
					 GError **error);
/*
 * Whether opening found the player damaged (km_library_found_damage():
 * what verify reports too, not the player's own deletions). FALSE with an
 * error when the player is not open.
 */
void km_session_found_damage_async(KmSession *session, GCancellable *cancellable,
				   GAsyncReadyCallback callback, gpointer user_data);
gboolean km_session_found_damage_finish(KmSession *session, GAsyncResult *result,
					GError **error);

/*
 * Append the plays counted since the last export from this player to the
 * scrobbler log file (a local path), and remember them in the player's
 * ledger (km-plays.h): what was written comes with the finish.
 */
void km_session_export_plays_async(KmSession *session, GFile *log, GCancellable *cancellable,
				   GAsyncReadyCallback callback, gpointer user_data);
gboolean km_session_export_plays_finish(KmSession *session, GAsyncResult *result,
					KmPlaysResult *plays, GError **error);

/*
 * What a sync of folder would change (km-sync.h): its playable files the
 * player lacks (with the session's conversion, those it would convert too,
 * at their estimated size), the tunes none of its files is. Changes
 * nothing; a local folder only (G_IO_ERROR_NOT_SUPPORTED otherwise).
 */
void km_session_plan_sync_async(KmSession *session, GFile *folder, GCancellable *cancellable,
				GAsyncReadyCallback callback, gpointer user_data);
KmSyncPlan *km_session_plan_sync_finish(KmSession *session, GAsyncResult *result,
					GError **error);

/*
 * Hold the jobs that change the player (add, remove, tags, playlists,
 * verify with repair): from now on they wait, in order, and the first one
 * emits `changes-held`; the window then offers a backup. Other jobs (a
 * backup, an export) run meanwhile. Release lets the held jobs run, after
 * the jobs queued before the release; closing releases them first.
 */
void km_session_hold_changes(KmSession *session);
void km_session_release_changes(KmSession *session);
gboolean km_session_is_holding_changes(KmSession *session);

G_END_DECLS

#endif
