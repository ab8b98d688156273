/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-properties.c - parse and write a Karma object's "…1" properties file.
 *
 * The file is untrusted: every line is checked when it is parsed (a newline
 * at its end, no NUL byte, a key=value form, a printable ASCII key seen only
 * once, a valid UTF-8 string or a well-escaped binary value), so that the
 * accessors never meet a value they cannot decode, and serializing what was
 * parsed gives back the same bytes.
 */
#include "km-properties.h"

#include <string.h>

G_DEFINE_QUARK(km-properties-error-quark, km_properties_error)

typedef struct {
	char *key;
	/* The file's text for the key: raw UTF-8 for a string, escaped for a blob. */
	char *value;
} Entry;

struct _KmProperties {
	gatomicrefcount ref;
	guint32 fid;
	GPtrArray *entries;	/* Entry *, in file order */
	GPtrArray *keys;	/* the entries' keys, same order, NULL-terminated */
	GHashTable *index;	/* key -> Entry * */
};

static const char *const blob_keys[] = { "playlist", "profile" };

gboolean km_properties_is_blob_key(const char *key)
{
	gsize i;

	for (i = 0; i < G_N_ELEMENTS(blob_keys); i++)
		if (strcmp(key, blob_keys[i]) == 0)
			return TRUE;
	return FALSE;
}

/* Printable ASCII without '=' or space: every key libkarma or the player uses. */
static gboolean key_byte_ok(guchar c)
{
	return c > 0x20 && c < 0x7f && c != '=';
}

gboolean km_properties_key_is_valid(const char *key)
{
	const char *p;

	if (!key || !*key)
		return FALSE;
	for (p = key; *p; p++)
		if (!key_byte_ok((guchar)*p))
			return FALSE;
	return TRUE;
}

static void entry_free(gpointer data)
{
	Entry *entry = data;

	g_free(entry->key);
	g_free(entry->value);
	g_free(entry);
}

KmProperties *km_properties_new(void)
{
	KmProperties *props = g_new0(KmProperties, 1);

	g_atomic_ref_count_init(&props->ref);
	props->entries = g_ptr_array_new_with_free_func(entry_free);
	props->keys = g_ptr_array_new_null_terminated(16, NULL, TRUE);
	props->index = g_hash_table_new(g_str_hash, g_str_equal);
	return props;
}

KmProperties *km_properties_ref(KmProperties *props)
{
	g_return_val_if_fail(props, NULL);
	g_atomic_ref_count_inc(&props->ref);
	return props;
}

void km_properties_unref(KmProperties *props)
{
	if (!props || !g_atomic_ref_count_dec(&props->ref))
		return;
	g_hash_table_unref(props->index);
	g_ptr_array_unref(props->keys);
	g_ptr_array_unref(props->entries);
	g_free(props);
}

/* Takes key and value. */
static Entry *append_entry(KmProperties *props, char *key, char *value)
{
	Entry *entry = g_new(Entry, 1);

	entry->key = key;
	entry->value = value;
	g_ptr_array_add(props->entries, entry);
	g_ptr_array_add(props->keys, entry->key);
	g_hash_table_insert(props->index, entry->key, entry);
	return entry;
}

static Entry *find_entry(const KmProperties *props, const char *key)
{
	return g_hash_table_lookup(props->index, key);
}

/* Takes value: replaces the value, or appends the key at the end. */
static void set_text(KmProperties *props, const char *key, char *value)
{
	Entry *entry = find_entry(props, key);

	if (entry) {
		g_free(entry->value);
		entry->value = value;
		return;
	}
	append_entry(props, g_strdup(key), value);
}

KmProperties *km_properties_copy(const KmProperties *props)
{
	KmProperties *copy = km_properties_new();
	guint i;

	copy->fid = props->fid;
	for (i = 0; i < props->entries->len; i++) {
		const Entry *entry = g_ptr_array_index(props->entries, i);

		append_entry(copy, g_strdup(entry->key), g_strdup(entry->value));
	}
	return copy;
}

/*
 * Blob escapes, as libkarma's playlist code writes and reads them: \n, \\
 * and \xHH. Decodes text into out (when not NULL). Returns the offset of the
 * first bad or cut-off escape, or -1 when all of the text decodes.
 */
static gssize blob_decode(const char *text, gsize len, GByteArray *out)
{
	gsize i = 0;

	while (i < len) {
		guint8 byte = (guint8)text[i];
		gsize used = 1;

		if (byte == '\\') {
			char kind = i + 1 < len ? text[i + 1] : '\0';
			int hi = i + 3 < len ? g_ascii_xdigit_value(text[i + 2]) : -1;
			int lo = i + 3 < len ? g_ascii_xdigit_value(text[i + 3]) : -1;

			if (kind == 'n' || kind == '\\') {
				byte = kind == 'n' ? '\n' : '\\';
				used = 2;
			} else if (kind == 'x' && hi >= 0 && lo >= 0) {
				byte = (guint8)(hi << 4 | lo);
				used = 4;
			} else {
				return (gssize)i;
			}
		}
		if (out)
			g_byte_array_append(out, &byte, 1);
		i += used;
	}
	return -1;
}

static char *blob_encode(const guint8 *data, gsize len)
{
	GString *text = g_string_sized_new(len + 16);
	gsize i;

	for (i = 0; i < len; i++) {
		if (data[i] == '\n')
			g_string_append(text, "\\n");
		else if (data[i] == '\\')
			g_string_append(text, "\\\\");
		else if (data[i] < 0x20)
			g_string_append_printf(text, "\\x%02X", data[i]);
		else
			g_string_append_c(text, (char)data[i]);
	}
	return g_string_free(text, FALSE);
}

static gboolean line_error(GError **error, KmPropertiesError code, guint line, const char *fmt, ...)
	G_GNUC_PRINTF(4, 5);

static gboolean line_error(GError **error, KmPropertiesError code, guint line, const char *fmt, ...)
{
	va_list ap;
	char *what;

	va_start(ap, fmt);
	what = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_set_error(error, KM_PROPERTIES_ERROR, code, "properties line %u: %s", line, what);
	g_free(what);
	return FALSE;
}

static gboolean check_key(const char *text, gsize len, guint line, GError **error)
{
	gsize i;

	if (len == 0)
		return line_error(error, KM_PROPERTIES_ERROR_SYNTAX, line, "the key before '=' is empty");
	for (i = 0; i < len; i++)
		if (!key_byte_ok((guchar)text[i]))
			return line_error(error, KM_PROPERTIES_ERROR_SYNTAX, line,
					  "byte 0x%02x at column %" G_GSIZE_FORMAT
					  " of the key (keys are printable ASCII)",
					  (guchar)text[i], i + 1);
	return TRUE;
}

/* column: of the value's first byte in the line, for the messages. */
static gboolean check_value(const char *key, const char *value, gsize len, gsize column,
			    guint line, GError **error)
{
	const char *end;
	gssize bad;

	if (km_properties_is_blob_key(key)) {
		bad = blob_decode(value, len, NULL);
		if (bad >= 0)
			return line_error(error, KM_PROPERTIES_ERROR_SYNTAX, line,
					  "bad escape at column %" G_GSIZE_FORMAT
					  " in the binary value of '%s' (only \\n, \\\\ and \\xHH)",
					  column + (gsize)bad, key);
		return TRUE;
	}
	if (!g_utf8_validate_len(value, len, &end))
		return line_error(error, KM_PROPERTIES_ERROR_ENCODING, line,
				  "the value of '%s' is not valid UTF-8 (byte 0x%02x at column %"
				  G_GSIZE_FORMAT ")",
				  key, (guchar)*end, column + (gsize)(end - value));
	return TRUE;
}

static gboolean parse_line(KmProperties *props, const char *text, gsize len, guint line,
			   GError **error)
{
	const char *nul = memchr(text, '\0', len);
	const char *eq;
	gsize key_len;
	char *key;

	if (nul)
		return line_error(error, KM_PROPERTIES_ERROR_ENCODING, line,
				  "a NUL byte at column %" G_GSIZE_FORMAT, (gsize)(nul - text) + 1);
	eq = memchr(text, '=', len);
	if (!eq)
		return line_error(error, KM_PROPERTIES_ERROR_SYNTAX, line,
				  "no '=' (every line is key=value; a value broken by a raw newline?)");
	key_len = (gsize)(eq - text);
	if (!check_key(text, key_len, line, error))
		return FALSE;
	key = g_strndup(text, key_len);
	if (find_entry(props, key)) {
		line_error(error, KM_PROPERTIES_ERROR_SYNTAX, line, "the key '%s' appears twice", key);
		goto fail;
	}
	if (!check_value(key, eq + 1, len - key_len - 1, key_len + 2, line, error))
		goto fail;
	append_entry(props, key, g_strndup(eq + 1, len - key_len - 1));
	return TRUE;
fail:
	g_free(key);
	return FALSE;
}

/* A decimal number, or 0x and hex digits (the Pearl numeric form). */
static gboolean parse_uint(const char *text, guint64 *value)
{
	guint base = 10;
	guint64 v = 0;
	const char *p = text;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
	}
	if (!*p)
		return FALSE;
	for (; *p; p++) {
		int digit = base == 16 ? g_ascii_xdigit_value(*p) : g_ascii_digit_value(*p);

		if (digit < 0 || v > (G_MAXUINT64 - (guint64)digit) / base)
			return FALSE;
		v = v * base + (guint64)digit;
	}
	*value = v;
	return TRUE;
}

/* The fid is the file name's; a "fid=" line (libkarma writes one) is a hint until then. */
static void take_fid_from_line(KmProperties *props)
{
	const Entry *entry = find_entry(props, "fid");
	guint64 fid;

	if (entry && parse_uint(entry->value, &fid) && fid <= G_MAXUINT32)
		props->fid = (guint32)fid;
}

KmProperties *km_properties_parse(const char *data, gsize len, GError **error)
{
	g_autoptr(KmProperties) props = NULL;
	gsize pos = 0;
	guint line = 1;

	if (len > KM_PROPERTIES_MAX_SIZE) {
		g_set_error(error, KM_PROPERTIES_ERROR, KM_PROPERTIES_ERROR_TOO_LARGE,
			    "properties file of %" G_GSIZE_FORMAT " bytes: larger than any real one (%u bytes at most)",
			    len, KM_PROPERTIES_MAX_SIZE);
		return NULL;
	}
	props = km_properties_new();
	while (pos < len) {
		const char *text = data + pos;
		const char *nl = memchr(text, '\n', len - pos);

		if (!nl) {
			line_error(error, KM_PROPERTIES_ERROR_SYNTAX, line,
				   "no newline at its end: the file is cut short");
			return NULL;
		}
		if (!parse_line(props, text, (gsize)(nl - text), line, error))
			return NULL;
		pos += (gsize)(nl - text) + 1;
		line++;
	}
	take_fid_from_line(props);
	return g_steal_pointer(&props);
}

GBytes *km_properties_serialize(const KmProperties *props)
{
	GString *out = g_string_sized_new(512);
	guint i;

	for (i = 0; i < props->entries->len; i++) {
		const Entry *entry = g_ptr_array_index(props->entries, i);

		g_string_append(out, entry->key);
		g_string_append_c(out, '=');
		g_string_append(out, entry->value);
		g_string_append_c(out, '\n');
	}
	return g_string_free_to_bytes(out);
}

const char *km_properties_get(const KmProperties *props, const char *key)
{
	const Entry *entry = find_entry(props, key);

	if (!entry || km_properties_is_blob_key(key))
		return NULL;
	return entry->value;
}

void km_properties_set(KmProperties *props, const char *key, const char *utf8_value)
{
	char *value, *p;

	g_return_if_fail(km_properties_key_is_valid(key));
	g_return_if_fail(!km_properties_is_blob_key(key));
	g_return_if_fail(utf8_value && g_utf8_validate(utf8_value, -1, NULL));
	value = g_strdup(utf8_value);
	for (p = value; *p; p++)
		if (*p == '\n')
			*p = ' ';
	set_text(props, key, value);
}

gboolean km_properties_get_uint(const KmProperties *props, const char *key, guint64 *value)
{
	const char *text = km_properties_get(props, key);

	return text && parse_uint(text, value);
}

void km_properties_set_uint(KmProperties *props, const char *key, guint64 value)
{
	g_return_if_fail(km_properties_key_is_valid(key));
	g_return_if_fail(!km_properties_is_blob_key(key));
	set_text(props, key, g_strdup_printf("%" G_GUINT64_FORMAT, value));
}

GBytes *km_properties_get_blob(const KmProperties *props, const char *key)
{
	const Entry *entry = find_entry(props, key);
	GByteArray *bytes;

	if (!entry || !km_properties_is_blob_key(key))
		return NULL;
	bytes = g_byte_array_sized_new((guint)strlen(entry->value));
	/* Cannot fail: parse checked the escapes, and set_blob writes good ones. */
	if (blob_decode(entry->value, strlen(entry->value), bytes) >= 0)
		g_warn_if_reached();
	return g_byte_array_free_to_bytes(bytes);
}

void km_properties_set_blob(KmProperties *props, const char *key, GBytes *value)
{
	gsize len;
	const guint8 *data;

	g_return_if_fail(km_properties_is_blob_key(key));
	g_return_if_fail(value);
	data = g_bytes_get_data(value, &len);
	set_text(props, key, blob_encode(data, len));
}

gboolean km_properties_remove(KmProperties *props, const char *key)
{
	Entry *entry = find_entry(props, key);

	if (!entry)
		return FALSE;
	g_hash_table_remove(props->index, key);
	g_ptr_array_remove(props->keys, entry->key);
	g_ptr_array_remove(props->entries, entry);
	return TRUE;
}

gboolean km_properties_contains(const KmProperties *props, const char *key)
{
	return find_entry(props, key) != NULL;
}

const char *const *km_properties_keys(const KmProperties *props, guint *n_keys)
{
	if (n_keys)
		*n_keys = props->keys->len;
	return (const char *const *)props->keys->pdata;
}

guint32 km_properties_get_fid(const KmProperties *props)
{
	return props->fid;
}

KmObjectType km_properties_get_object_type(const KmProperties *props)
{
	static const struct {
		const char *name;
		KmObjectType type;
	} types[] = {
		{ "tune", KM_OBJECT_TUNE },
		{ "playlist", KM_OBJECT_PLAYLIST },
		{ "taxi", KM_OBJECT_TAXI },
	};
	const char *type = props ? km_properties_get(props, "type") : NULL;

	for (guint i = 0; type && i < G_N_ELEMENTS(types); i++)
		if (strcmp(type, types[i].name) == 0)
			return types[i].type;
	return KM_OBJECT_OTHER;
}

void km_properties_set_fid(KmProperties *props, guint32 fid)
{
	props->fid = fid;
	/* Keep a "fid=" line, when there is one, telling the truth. */
	if (find_entry(props, "fid"))
		km_properties_set_uint(props, "fid", fid);
}
