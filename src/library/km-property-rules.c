/* SPDX-License-Identifier: GPL-2.0-or-later */
/* km-property-rules.c - what a property's key and value may be (km-property-rules.h). */
#include "km-property-rules.h"

#include <string.h>

#include "km-library.h"
#include "km-properties.h"
#include "km-smalldb.h"

#define MAX_TRACKNR 255		/* a byte in smalldb, and track 0 is no track */

static gboolean invalid(GError **error, const char *key, const char *value, const char *rule)
{
	g_autofree char *shown_key = g_strescape(key, NULL);
	g_autofree char *shown_value = NULL;

	if (!value) {
		g_set_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_INVALID, "'%s' %s",
			    shown_key, rule);
		return FALSE;
	}
	/* a value too long to be useful in a message is not repeated */
	shown_value = strlen(value) > KM_PROPERTY_MAX_TEXT ? g_strdup("…")
							    : g_strescape(value, NULL);
	g_set_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_INVALID, "%s='%s': %s",
		    shown_key, shown_value, rule);
	return FALSE;
}

/* Decimal digits only (g_ascii_string_to_unsigned alone would take a leading '+'). */
static gboolean is_number_up_to(const char *value, guint64 min, guint64 max)
{
	guint64 number;

	if (!*value || strspn(value, "0123456789") != strlen(value))
		return FALSE;
	return g_ascii_string_to_unsigned(value, 10, min, max, &number, NULL);
}

static gboolean check_number(const char *key, const char *value, GError **error)
{
	g_autofree char *rule = NULL;
	guint64 max;

	if (strcmp(key, "tracknr") == 0) {
		if (is_number_up_to(value, 1, MAX_TRACKNR))
			return TRUE;
		return invalid(error, key, value, "a track number is 1 to 255");
	}
	if (strcmp(key, "year") == 0) {
		if (strlen(value) == 4 && is_number_up_to(value, 0, 9999))
			return TRUE;
		return invalid(error, key, value, "a year is four digits");
	}
	if (!km_smalldb_column_max(key, &max) || is_number_up_to(value, 0, max))
		return TRUE;
	rule = g_strdup_printf("a number from 0 to %" G_GUINT64_FORMAT " is needed", max);
	return invalid(error, key, value, rule);
}

gboolean km_property_check(const char *key, const char *value, GError **error)
{
	g_autofree char *rule = NULL;

	if (!km_properties_key_is_valid(key) || strlen(key) > KM_PROPERTY_MAX_KEY) {
		rule = g_strdup_printf("is no property name: printable ASCII without '=' or "
				       "spaces, %d characters at most", KM_PROPERTY_MAX_KEY);
		return invalid(error, key ? key : "", NULL, rule);
	}
	if (!value)
		return TRUE;
	if (!g_utf8_validate(value, -1, NULL))
		return invalid(error, key, NULL, "the value is not UTF-8 text");
	if (strlen(value) > KM_PROPERTY_MAX_TEXT) {
		rule = g_strdup_printf("the value is %zu bytes long, %d at most", strlen(value),
				       KM_PROPERTY_MAX_TEXT);
		return invalid(error, key, NULL, rule);
	}
	return check_number(key, value, error);
}

char *km_property_cap_text(const char *utf8)
{
	const char *end = utf8;

	/* whole characters while they fit */
	while (*end) {
		const char *next = g_utf8_next_char(end);

		if (next - utf8 > KM_PROPERTY_MAX_TEXT)
			break;
		end = next;
	}
	return g_strndup(utf8, (gsize)(end - utf8));
}
