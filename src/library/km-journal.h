/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-journal.h - (internal) a set of changes to a library's files, and
 * var/km-journal, its copy on disk while a commit runs (km-commit.c).
 *
 * The journal is ours: the player and libkarma never look at it. Layout,
 * little-endian: "KMJRNL1\n"; LE32 number of entries; per entry LE32 op
 * (1 put, 2 delete), LE32 fid, LE32 length and that many bytes (a put's
 * whole properties file; nothing for a delete); then the SHA-256 of all the
 * bytes before it.
 */
#ifndef KM_JOURNAL_H
#define KM_JOURNAL_H

#include <glib.h>

#include "km-properties.h"

G_BEGIN_DECLS

#define KM_JOURNAL_NAME "km-journal"
/* Larger than any real commit (a thousand full playlists); a commit refuses more. */
#define KM_JOURNAL_MAX_SIZE (256u << 20)

typedef struct {
	/* KmProperties* (fid set): their properties file (a playlist's data too) is written */
	GPtrArray *puts;
	/* guint32: objects whose properties and data files are removed */
	GArray *deletes;
} KmChangeSet;

KmChangeSet *km_change_set_new(void);
void km_change_set_free(KmChangeSet *cs);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(KmChangeSet, km_change_set_free)
gboolean km_change_set_is_empty(const KmChangeSet *cs);
/* Takes a new reference. */
void km_change_set_put(KmChangeSet *cs, KmProperties *object);
void km_change_set_delete(KmChangeSet *cs, guint32 fid);

GBytes *km_journal_build(const KmChangeSet *cs);
/*
 * The size of km_journal_build()'s journal without its entries, and of one
 * entry (a put's, whose properties file is text_size bytes; a delete's: 0),
 * for counting a journal's size without building it.
 */
gsize km_journal_frame_size(void);
gsize km_journal_entry_size(gsize text_size);
/* Every size, fid and properties file is checked; the error names the entry. */
KmChangeSet *km_journal_parse(GBytes *bytes, GError **error);

G_END_DECLS

#endif
