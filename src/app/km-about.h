/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-about.h - the About window, from the app's AppStream metainfo (compiled
 * into the app's resources), on every libadwaita the app builds with.
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

/*
 * The release notes of version in an AppStream metainfo document: the markup
 * of its <release>'s <description> (p, ul, ol, li, em, code), translated
 * copies (xml:lang) left out; NULL when there is no such release or the
 * document is not well-formed.
 */
char *km_about_release_notes(const char *metainfo, gsize length, const char *version);
/* Shows the About window (or dialog) over parent's window. */
void km_about_present(GtkWidget *parent);

G_END_DECLS
