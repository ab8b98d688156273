/* SPDX-License-Identifier: GPL-2.0-or-later */
/* km-journal.c - change sets and their journal file (km-journal.h). */
#include "km-journal.h"

#include <string.h>

#include "km-fid.h"
#include "km-library.h"

#define MAGIC "KMJRNL1\n"
#define MAGIC_SIZE 8
#define DIGEST_SIZE 32
#define ENTRY_HEADER_SIZE 12

enum { OP_PUT = 1, OP_DELETE = 2 };

KmChangeSet *km_change_set_new(void)
{
	KmChangeSet *cs = g_new0(KmChangeSet, 1);

	cs->puts = g_ptr_array_new_with_free_func((GDestroyNotify)km_properties_unref);
	cs->deletes = g_array_new(FALSE, FALSE, sizeof(guint32));
	return cs;
}

void km_change_set_free(KmChangeSet *cs)
{
	if (!cs)
		return;
	g_ptr_array_unref(cs->puts);
	g_array_unref(cs->deletes);
	g_free(cs);
}

gboolean km_change_set_is_empty(const KmChangeSet *cs)
{
	return cs->puts->len == 0 && cs->deletes->len == 0;
}

void km_change_set_put(KmChangeSet *cs, KmProperties *object)
{
	g_ptr_array_add(cs->puts, km_properties_ref(object));
}

void km_change_set_delete(KmChangeSet *cs, guint32 fid)
{
	g_array_append_val(cs->deletes, fid);
}

static void put_le32(GByteArray *out, guint32 v)
{
	guint8 b[4] = { (guint8)v, (guint8)(v >> 8), (guint8)(v >> 16), (guint8)(v >> 24) };

	g_byte_array_append(out, b, 4);
}

static guint32 get_le32(const guint8 *p)
{
	return (guint32)p[0] | (guint32)p[1] << 8 | (guint32)p[2] << 16 | (guint32)p[3] << 24;
}

static void append_digest(GByteArray *out)
{
	g_autoptr(GChecksum) sum = g_checksum_new(G_CHECKSUM_SHA256);
	guint8 digest[DIGEST_SIZE];
	gsize len = sizeof(digest);

	g_checksum_update(sum, out->data, out->len);
	g_checksum_get_digest(sum, digest, &len);
	g_byte_array_append(out, digest, DIGEST_SIZE);
}

GBytes *km_journal_build(const KmChangeSet *cs)
{
	GByteArray *out = g_byte_array_new();

	g_byte_array_append(out, (const guint8 *)MAGIC, MAGIC_SIZE);
	put_le32(out, cs->puts->len + cs->deletes->len);
	for (guint i = 0; i < cs->puts->len; i++) {
		KmProperties *object = cs->puts->pdata[i];
		g_autoptr(GBytes) text = km_properties_serialize(object);
		gsize len;
		const guint8 *data = g_bytes_get_data(text, &len);

		put_le32(out, OP_PUT);
		put_le32(out, km_properties_get_fid(object));
		put_le32(out, (guint32)len);
		g_byte_array_append(out, data, (guint)len);
	}
	for (guint i = 0; i < cs->deletes->len; i++) {
		put_le32(out, OP_DELETE);
		put_le32(out, g_array_index(cs->deletes, guint32, i));
		put_le32(out, 0);
	}
	append_digest(out);
	return g_byte_array_free_to_bytes(out);
}

gsize km_journal_frame_size(void)
{
	return MAGIC_SIZE + 4 + DIGEST_SIZE;	/* the magic, the count, the digest */
}

gsize km_journal_entry_size(gsize text_size)
{
	return ENTRY_HEADER_SIZE + text_size;
}

static gboolean corrupt(GError **error, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static gboolean corrupt(GError **error, const char *fmt, ...)
{
	g_autofree char *msg = NULL;
	va_list ap;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_set_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_CORRUPT,
		    "var/" KM_JOURNAL_NAME ": %s", msg);
	return FALSE;
}

static gboolean check_frame(const guint8 *data, gsize len, GError **error)
{
	g_autoptr(GChecksum) sum = g_checksum_new(G_CHECKSUM_SHA256);
	guint8 digest[DIGEST_SIZE];
	gsize dlen = sizeof(digest);

	if (len < MAGIC_SIZE + 4 + DIGEST_SIZE || len > KM_JOURNAL_MAX_SIZE)
		return corrupt(error, "%" G_GSIZE_FORMAT " bytes cannot be a journal", len);
	if (memcmp(data, MAGIC, MAGIC_SIZE) != 0)
		return corrupt(error, "not a journal of ours (bad magic)");
	g_checksum_update(sum, data, len - DIGEST_SIZE);
	g_checksum_get_digest(sum, digest, &dlen);
	if (memcmp(digest, data + len - DIGEST_SIZE, DIGEST_SIZE) != 0)
		return corrupt(error, "its checksum does not match: it is damaged");
	return TRUE;
}

/* One entry at *pos (inside the checked frame); adds it to cs. */
static gboolean parse_entry(const guint8 *data, gsize end, gsize *pos, guint index, KmChangeSet *cs,
			    GError **error)
{
	g_autoptr(GError) local = NULL;
	KmProperties *object;
	guint32 op, fid, len;

	if (end - *pos < ENTRY_HEADER_SIZE)
		return corrupt(error, "entry %u at byte %" G_GSIZE_FORMAT " is cut short", index,
			       *pos);
	op = get_le32(data + *pos);
	fid = get_le32(data + *pos + 4);
	len = get_le32(data + *pos + 8);
	*pos += ENTRY_HEADER_SIZE;
	if (!km_fid_is_valid(fid))
		return corrupt(error, "entry %u: %u is not a fid", index, fid);
	if (len > end - *pos)
		return corrupt(error, "entry %u: %u bytes run past the end", index, len);
	if (op == OP_DELETE && len == 0) {
		km_change_set_delete(cs, fid);
		return TRUE;
	}
	if (op != OP_PUT)
		return corrupt(error, "entry %u: operation %u with %u bytes", index, op, len);
	object = km_properties_parse((const char *)data + *pos, len, &local);
	if (!object)
		return corrupt(error, "entry %u (fid %u): %s", index, fid, local->message);
	km_properties_set_fid(object, fid);
	g_ptr_array_add(cs->puts, object);
	*pos += len;
	return TRUE;
}

KmChangeSet *km_journal_parse(GBytes *bytes, GError **error)
{
	g_autoptr(KmChangeSet) cs = km_change_set_new();
	gsize len, pos = MAGIC_SIZE + 4, end;
	const guint8 *data = g_bytes_get_data(bytes, &len);
	guint32 n;

	if (!check_frame(data, len, error))
		return NULL;
	end = len - DIGEST_SIZE;
	n = get_le32(data + MAGIC_SIZE);
	if (n > (end - pos) / ENTRY_HEADER_SIZE) {
		corrupt(error, "%u entries cannot fit in %" G_GSIZE_FORMAT " bytes", n, len);
		return NULL;
	}
	for (guint32 i = 0; i < n; i++)
		if (!parse_entry(data, end, &pos, i, cs, error))
			return NULL;
	if (pos != end) {
		corrupt(error, "%" G_GSIZE_FORMAT " bytes after the last entry", end - pos);
		return NULL;
	}
	return g_steal_pointer(&cs);
}
