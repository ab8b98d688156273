/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kc-convert-opts.h - the options that say how files the player cannot
 * play are converted (docs/KARMA.md §10.1), shared by add, sync and
 * playlist import: KC_CONVERT_OPTIONS goes into a command's option table,
 * kc_convert_settings() reads them.
 */
#ifndef KC_CONVERT_OPTS_H
#define KC_CONVERT_OPTS_H

#include "kc.h"
#include "km-convert.h"

extern char *kc_convert_to;
extern int kc_convert_quality;
extern gboolean kc_no_convert;

#define KC_CONVERT_OPTIONS \
	{ "convert-to", 0, 0, G_OPTION_ARG_STRING, &kc_convert_to, \
	  "Convert lossy files the player cannot play (AAC, Opus…) to vorbis (the default), " \
	  "mp3 or flac; lossless ones always become flac", "FORMAT" }, \
	{ "quality", 0, 0, G_OPTION_ARG_INT, &kc_convert_quality, \
	  "Quality of converted Ogg Vorbis or MP3, 0 to 10 (default 5, about 160 kbit/s)", \
	  "Q" }, \
	{ "no-convert", 0, 0, G_OPTION_ARG_NONE, &kc_no_convert, \
	  "Refuse files the player cannot play instead of converting them", NULL }

/*
 * The settings the options give: *convert points into settings, or is NULL
 * with --no-convert. A usage error (exit status 2) for a bad value.
 */
int kc_convert_settings(const struct kc_ctx *ctx, KmConvertSettings *settings,
			const KmConvertSettings **convert);

#endif
