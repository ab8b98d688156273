/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kc-convert-opts.c - --convert-to, --quality, --no-convert (kc-convert-opts.h). */
#include "kc-convert-opts.h"

char *kc_convert_to;
int kc_convert_quality = KM_CONVERT_DEFAULT_QUALITY;
gboolean kc_no_convert;

int kc_convert_settings(const struct kc_ctx *ctx, KmConvertSettings *settings,
			const KmConvertSettings **convert)
{
	*convert = NULL;
	settings->lossy_to = KM_CONVERT_VORBIS;
	settings->quality = KM_CONVERT_DEFAULT_QUALITY;
	if (kc_convert_to && !km_convert_format_from_name(kc_convert_to, &settings->lossy_to))
		return kc_usage(ctx, "--convert-to takes vorbis, mp3 or flac, not '%s'",
				kc_convert_to);
	if (kc_convert_quality < 0 || kc_convert_quality > KM_CONVERT_MAX_QUALITY)
		return kc_usage(ctx, "--quality takes 0 to %d, not %d", KM_CONVERT_MAX_QUALITY,
				kc_convert_quality);
	if (kc_no_convert && kc_convert_to)
		return kc_usage(ctx, "--no-convert and --convert-to contradict each other");
	settings->quality = (guint)kc_convert_quality;
	if (!kc_no_convert)
		*convert = settings;
	return KC_EXIT_OK;
}
