/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-smalldb.c - read and write `var/smalldb` (docs/KARMA.md §9).
 *
 * Reading is done in two passes so that a hostile file costs nothing before
 * it has been checked: first every section is located and every count,
 * offset and size is checked against the bytes that are really there (no
 * allocation depends on a count that has not been checked this way); then
 * the rows are turned into objects, with the bytes of decoded strings and
 * blobs capped at a multiple of the file's size (many rows may point at one
 * long string).
 *
 * Where what libkarma 0.1.2 (riocp) does was in doubt, riocp was
 * run on test trees to find out what it really does; see the comments at
 * write_blob_column(), compare_pool_entries() and decode_record().
 */
#include "km-smalldb.h"

#include <string.h>

G_DEFINE_QUARK(km-smalldb-error-quark, km_smalldb_error)

enum column_type {
	COLUMN_U32 = 0,
	COLUMN_STRING = 1,
	COLUMN_BLOB = 2,
	COLUMN_U8 = 3,
	COLUMN_U16 = 4,
};

struct column {
	const char *name;
	enum column_type type;
	guint32 flag;		/* meaning unknown; libkarma writes these */
};

/* The order, types and flags libkarma writes (docs/KARMA.md §9.1, §9.2). */
static const struct column columns[KM_SMALLDB_N_COLUMNS] = {
	{ "fid", COLUMN_U32, 1 },
	{ "offset", COLUMN_U32, 0 },
	{ "trailer", COLUMN_U32, 0 },
	{ "duration", COLUMN_U32, 0 },
	{ "length", COLUMN_U32, 0 },
	{ "samplerate", COLUMN_U32, 0 },
	{ "ctime", COLUMN_U32, 1 },
	{ "options", COLUMN_U32, 0 },
	{ "bpm", COLUMN_U32, 0 },
	{ "rms", COLUMN_U32, 0 },
	{ "stddev", COLUMN_U32, 0 },
	{ "normalisation", COLUMN_U32, 0 },
	{ "play_last", COLUMN_U32, 1 },
	{ "play_count_limit", COLUMN_U16, 0 },
	{ "play_count", COLUMN_U16, 0 },
	{ "tracknr", COLUMN_U8, 1 },
	{ "file_id", COLUMN_U8, 0 },
	{ "marked", COLUMN_U8, 0 },
	{ "playlist", COLUMN_BLOB, 0 },
	{ "profile", COLUMN_BLOB, 0 },
	{ "type", COLUMN_STRING, 0 },
	{ "codec", COLUMN_STRING, 0 },
	{ "artist", COLUMN_STRING, 0 },
	{ "source", COLUMN_STRING, 0 },
	{ "title", COLUMN_STRING, 0 },
	{ "bitrate", COLUMN_STRING, 0 },
	{ "genre", COLUMN_STRING, 0 },
	{ "year", COLUMN_STRING, 0 },
	{ "rid", COLUMN_STRING, 0 },
	{ "fid_generation", COLUMN_U32, 0 },
	{ "profiler_version", COLUMN_U32, 0 },
	{ "replay_gain_peak", COLUMN_U32, 0 },
	{ "replay_gain_radio", COLUMN_U32, 0 },
	{ "replay_gain_audiophile", COLUMN_U32, 0 },
	{ "bytes_silence_sof", COLUMN_U32, 0 },
	{ "bytes_silence_eof", COLUMN_U32, 0 },
};

#define COLUMN_FID 0
#define COLUMN_ARTIST 22
#define PROFILE_SIZE 40

#define FRESH_VERSION 2
#define FRESH_H2 8
#define FRESH_H3 3

/*
 * Decoded strings and blobs may take this many times the file's size (plus
 * a little): real libraries share strings between rows (an album title for
 * each of its tracks) but stay far below this; a file whose rows all point at
 * one huge string does not.
 */
#define DECODE_EXPANSION 32
#define DECODE_SLACK (1024 * 1024)

static gboolean is_numeric(enum column_type type)
{
	return type == COLUMN_U32 || type == COLUMN_U16 || type == COLUMN_U8;
}

/* Bytes per row in the column data: the value, or the u32 offset. */
static gsize column_width(enum column_type type)
{
	switch (type) {
	case COLUMN_U8:
		return 1;
	case COLUMN_U16:
		return 2;
	default:
		return 4;
	}
}

static guint32 truncate_to_column(guint64 value, enum column_type type)
{
	switch (type) {
	case COLUMN_U8:
		return value & 0xff;
	case COLUMN_U16:
		return value & 0xffff;
	default:
		return (guint32)value;
	}
}

const char *km_smalldb_column_name(guint column)
{
	g_return_val_if_fail(column < KM_SMALLDB_N_COLUMNS, NULL);
	return columns[column].name;
}

static int column_index(const char *key)
{
	for (guint i = 0; i < KM_SMALLDB_N_COLUMNS; i++)
		if (strcmp(columns[i].name, key) == 0)
			return (int)i;
	return -1;
}

gboolean km_smalldb_is_column(const char *key)
{
	return column_index(key) >= 0;
}

gboolean km_smalldb_column_is_numeric(const char *key)
{
	int i = column_index(key);

	return i >= 0 && columns[i].type != COLUMN_STRING && columns[i].type != COLUMN_BLOB;
}

gboolean km_smalldb_column_max(const char *key, guint64 *max)
{
	int i = column_index(key);

	if (i < 0 || !km_smalldb_column_is_numeric(key))
		return FALSE;
	*max = truncate_to_column(G_MAXUINT64, columns[i].type);
	return TRUE;
}

static guint32 get_le32(const guint8 *p)
{
	return (guint32)p[0] | (guint32)p[1] << 8 | (guint32)p[2] << 16 | (guint32)p[3] << 24;
}

static guint32 get_le16(const guint8 *p)
{
	return (guint32)p[0] | (guint32)p[1] << 8;
}

static guint32 get_number(const guint8 *p, enum column_type type)
{
	switch (type) {
	case COLUMN_U8:
		return p[0];
	case COLUMN_U16:
		return get_le16(p);
	default:
		return get_le32(p);
	}
}

/* One cell: a number, or the bytes of a string (NUL-terminated) or blob. */
typedef struct {
	guint32 number;
	const guint8 *bytes;
	gsize len;
} Cell;

typedef Cell RowCells[KM_SMALLDB_N_COLUMNS];

/* ------------------------------------------------------------------ */
/* Reading, pass 1: locate and check every section.                    */

typedef struct {
	const guint8 *data;
	gsize len;
	gsize pos;
	const char *section;
	const char *column;	/* NULL outside the column data */
} Reader;

typedef struct {
	const guint8 *values;	/* n numbers, or n u32 offsets */
	gsize values_at;
	const guint8 *pool;
	guint32 pool_size;
	gsize pool_at;
} ColumnData;

typedef struct {
	guint32 row;
	guint32 len;
	const guint8 *bytes;
	gsize at;
	guint32 fid;		/* known once the record has been checked */
} UpdateRecord;

typedef struct {
	KmSmalldbHeader hdr;
	guint32 n_rows;
	GArray *records;	/* UpdateRecord, in file order */
	ColumnData cols[KM_SMALLDB_N_COLUMNS];
	const guint8 *bitmap;
	guint32 bitmap_len;
	GArray *deleted_fids;	/* guint32: rows the bitmap drops */
	gsize budget;		/* decoded string and blob bytes still allowed */
} Layout;

static gboolean G_GNUC_PRINTF(5, 6)
fail_at(const Reader *r, gsize at, GError **error, gint code, const char *fmt, ...)
{
	g_autofree char *what = NULL;
	va_list args;

	va_start(args, fmt);
	what = g_strdup_vprintf(fmt, args);
	va_end(args);
	if (r->column)
		g_set_error(error, KM_SMALLDB_ERROR, code,
			    "smalldb, %s '%s' at byte %" G_GSIZE_FORMAT ": %s",
			    r->section, r->column, at, what);
	else
		g_set_error(error, KM_SMALLDB_ERROR, code,
			    "smalldb, %s at byte %" G_GSIZE_FORMAT ": %s",
			    r->section, at, what);
	return FALSE;
}

static gsize bytes_left(const Reader *r)
{
	return r->len - r->pos;
}

static gboolean take(Reader *r, gsize size, const guint8 **out, GError **error)
{
	if (size > bytes_left(r))
		return fail_at(r, r->pos, error, KM_SMALLDB_ERROR_TRUNCATED,
			       "%" G_GSIZE_FORMAT " bytes needed, only %" G_GSIZE_FORMAT " left",
			       size, bytes_left(r));
	*out = r->data + r->pos;
	r->pos += size;
	return TRUE;
}

static gboolean take_u32(Reader *r, guint32 *value, GError **error)
{
	const guint8 *p = NULL;

	if (!take(r, 4, &p, error))
		return FALSE;
	*value = get_le32(p);
	return TRUE;
}

/* n items of item_size bytes, refusing a count the remaining bytes cannot hold. */
static gboolean take_array(Reader *r, guint32 n, gsize item_size, const char *what,
			   const guint8 **out, GError **error)
{
	if (n > bytes_left(r) / item_size)
		return fail_at(r, r->pos, error, KM_SMALLDB_ERROR_TRUNCATED,
			       "%u %s of %" G_GSIZE_FORMAT " bytes do not fit in the %"
			       G_GSIZE_FORMAT " bytes left", n, what, item_size, bytes_left(r));
	return take(r, (gsize)n * item_size, out, error);
}

static gboolean read_header(Reader *r, Layout *l, GError **error)
{
	guint32 ncols;

	r->section = "header";
	if (!take_u32(r, &l->hdr.version, error) || !take_u32(r, &l->hdr.timestamp, error) ||
	    !take_u32(r, &l->hdr.h2, error) || !take_u32(r, &l->hdr.h3, error) ||
	    !take_u32(r, &ncols, error))
		return FALSE;
	if (ncols != KM_SMALLDB_N_COLUMNS)
		return fail_at(r, r->pos - 4, error, KM_SMALLDB_ERROR_UNSUPPORTED,
			       "%u columns; only the %d-column layout is known",
			       ncols, KM_SMALLDB_N_COLUMNS);
	return TRUE;
}

static gboolean read_descriptors(Reader *r, GError **error)
{
	r->section = "column descriptors";
	for (guint i = 0; i < KM_SMALLDB_N_COLUMNS; i++) {
		guint32 type, flag;

		/* The flag's meaning is unknown: any value is accepted. */
		if (!take_u32(r, &type, error) || !take_u32(r, &flag, error))
			return FALSE;
		if (type != columns[i].type)
			return fail_at(r, r->pos - 8, error, KM_SMALLDB_ERROR_UNSUPPORTED,
				       "column %u ('%s') has type %u, expected %u",
				       i, columns[i].name, type, columns[i].type);
	}
	return TRUE;
}

/* The names block: each column's name followed by one space. */
static GString *names_block(void)
{
	GString *s = g_string_new(NULL);

	for (guint i = 0; i < KM_SMALLDB_N_COLUMNS; i++) {
		g_string_append(s, columns[i].name);
		g_string_append_c(s, ' ');
	}
	return s;
}

static gboolean read_names(Reader *r, GError **error)
{
	g_autoptr(GString) expected = names_block();
	const guint8 *names = NULL;
	gsize at, i, col = 0, start = 0;
	guint32 names_len;

	r->section = "column names";
	if (!take_u32(r, &names_len, error))
		return FALSE;
	at = r->pos;
	if (!take(r, names_len, &names, error))
		return FALSE;
	if (names_len == expected->len && memcmp(names, expected->str, names_len) == 0)
		return TRUE;
	/* Say which name is wrong. */
	for (i = 0; i < names_len && col < KM_SMALLDB_N_COLUMNS; i++) {
		if (names[i] != ' ')
			continue;
		if (i - start != strlen(columns[col].name) ||
		    memcmp(names + start, columns[col].name, i - start) != 0)
			return fail_at(r, at + start, error, KM_SMALLDB_ERROR_UNSUPPORTED,
				       "column %" G_GSIZE_FORMAT " is named '%.*s', expected '%s'",
				       col, (int)MIN(i - start, 64), (const char *)names + start,
				       columns[col].name);
		col++;
		start = i + 1;
	}
	return fail_at(r, at, error, KM_SMALLDB_ERROR_UNSUPPORTED,
		       "%u bytes of names do not name the %d known columns, each followed by a space",
		       names_len, KM_SMALLDB_N_COLUMNS);
}

static gboolean read_update_records(Reader *r, Layout *l, GError **error)
{
	guint32 n_records;

	r->section = "update records";
	if (!take_u32(r, &n_records, error))
		return FALSE;
	/* Each record takes at least its two words. */
	if (n_records > bytes_left(r) / 8)
		return fail_at(r, r->pos - 4, error, KM_SMALLDB_ERROR_TRUNCATED,
			       "%u records do not fit in the %" G_GSIZE_FORMAT " bytes left",
			       n_records, bytes_left(r));
	l->records = g_array_sized_new(FALSE, FALSE, sizeof(UpdateRecord), n_records);
	for (guint32 i = 0; i < n_records; i++) {
		UpdateRecord rec;

		if (!take_u32(r, &rec.row, error) || !take_u32(r, &rec.len, error))
			return FALSE;
		rec.at = r->pos;
		if (!take(r, rec.len, &rec.bytes, error))
			return FALSE;
		g_array_append_val(l->records, rec);
	}
	l->hdr.n_update_records = n_records;
	return TRUE;
}

/* The smallest number of bytes one row takes in the column data. */
static gsize min_row_size(void)
{
	gsize size = 0;

	for (guint i = 0; i < KM_SMALLDB_N_COLUMNS; i++)
		size += column_width(columns[i].type);
	return size;
}

static gboolean read_row_count(Reader *r, Layout *l, GError **error)
{
	r->section = "row count";
	/* libkarma writes the row count twice and reads only the second. */
	if (!take_u32(r, &l->hdr.row_count_first, error) || !take_u32(r, &l->n_rows, error))
		return FALSE;
	if (l->n_rows > bytes_left(r) / min_row_size())
		return fail_at(r, r->pos - 4, error, KM_SMALLDB_ERROR_TRUNCATED,
			       "%u rows need at least %" G_GUINT64_FORMAT " bytes of column data, only %"
			       G_GSIZE_FORMAT " left", l->n_rows,
			       (guint64)l->n_rows * min_row_size(), bytes_left(r));
	l->hdr.n_rows = l->n_rows;
	return TRUE;
}

static gboolean read_pool(Reader *r, ColumnData *c, GError **error)
{
	c->pool_at = r->pos;
	return take(r, c->pool_size, &c->pool, error);
}

/* String column: pool_size, n offsets, pool of NUL-terminated strings. */
static gboolean read_string_column(Reader *r, guint32 n, ColumnData *c, GError **error)
{
	if (!take_u32(r, &c->pool_size, error))
		return FALSE;
	c->values_at = r->pos;
	if (!take_array(r, n, 4, "string offsets", &c->values, error) || !read_pool(r, c, error))
		return FALSE;
	/* A final NUL bounds every string that starts inside the pool. */
	if (c->pool_size > 0 && c->pool[c->pool_size - 1] != '\0')
		return fail_at(r, c->pool_at + c->pool_size - 1, error, KM_SMALLDB_ERROR_CORRUPT,
			       "the string pool does not end with a NUL byte");
	for (guint32 i = 0; i < n; i++) {
		guint32 offset = get_le32(c->values + 4 * (gsize)i);

		if (offset >= c->pool_size)
			return fail_at(r, c->values_at + 4 * (gsize)i, error, KM_SMALLDB_ERROR_CORRUPT,
				       "offset %u of row %u is outside the pool of %u bytes",
				       offset, i, c->pool_size);
	}
	return TRUE;
}

/* Blob column: n offsets, pool_size, pool; row i ends where row i+1 starts. */
static gboolean read_blob_column(Reader *r, guint32 n, ColumnData *c, GError **error)
{
	guint32 previous = 0;

	c->values_at = r->pos;
	if (!take_array(r, n, 4, "blob offsets", &c->values, error) ||
	    !take_u32(r, &c->pool_size, error) || !read_pool(r, c, error))
		return FALSE;
	for (guint32 i = 0; i < n; i++) {
		guint32 offset = get_le32(c->values + 4 * (gsize)i);

		if (offset < previous || offset > c->pool_size)
			return fail_at(r, c->values_at + 4 * (gsize)i, error, KM_SMALLDB_ERROR_CORRUPT,
				       "offset %u of row %u is not between the previous row's %u and the pool size %u",
				       offset, i, previous, c->pool_size);
		previous = offset;
	}
	return TRUE;
}

static gboolean read_columns(Reader *r, Layout *l, GError **error)
{
	r->section = "column";
	for (guint i = 0; i < KM_SMALLDB_N_COLUMNS; i++) {
		ColumnData *c = &l->cols[i];
		gboolean ok;

		r->column = columns[i].name;
		switch (columns[i].type) {
		case COLUMN_STRING:
			ok = read_string_column(r, l->n_rows, c, error);
			break;
		case COLUMN_BLOB:
			ok = read_blob_column(r, l->n_rows, c, error);
			break;
		default:
			c->values_at = r->pos;
			ok = take_array(r, l->n_rows, column_width(columns[i].type), "values",
					&c->values, error);
			break;
		}
		if (!ok)
			return FALSE;
	}
	r->column = NULL;
	return TRUE;
}

static gboolean read_bitmap_and_trailer(Reader *r, Layout *l, GError **error)
{
	guint32 trailer;

	r->section = "deletion bitmap";
	if (!take_u32(r, &l->bitmap_len, error) || !take(r, l->bitmap_len, &l->bitmap, error))
		return FALSE;
	r->section = "trailer";
	if (!take_u32(r, &trailer, error))
		return FALSE;
	if (trailer != l->hdr.timestamp)
		return fail_at(r, r->pos - 4, error, KM_SMALLDB_ERROR_CORRUPT,
			       "trailer %u differs from the header's timestamp %u (an unfinished write?)",
			       trailer, l->hdr.timestamp);
	if (bytes_left(r) != 0)
		return fail_at(r, r->pos, error, KM_SMALLDB_ERROR_CORRUPT,
			       "%" G_GSIZE_FORMAT " bytes after the trailer", bytes_left(r));
	return TRUE;
}

static gboolean read_layout(Reader *r, Layout *l, GError **error)
{
	return read_header(r, l, error) && read_descriptors(r, error) && read_names(r, error) &&
	       read_update_records(r, l, error) && read_row_count(r, l, error) &&
	       read_columns(r, l, error) && read_bitmap_and_trailer(r, l, error);
}

/* ------------------------------------------------------------------ */
/* Reading, pass 2: cells, update records, objects.                    */

static gboolean charge_budget(const Reader *r, Layout *l, gsize len, gsize at, GError **error)
{
	if (len > l->budget)
		return fail_at(r, at, error, KM_SMALLDB_ERROR_CORRUPT,
			       "the decoded strings and blobs would exceed %d times the file's size",
			       DECODE_EXPANSION);
	l->budget -= len;
	return TRUE;
}

static gboolean check_utf8(const Reader *r, const guint8 *s, gsize len, gsize at, GError **error)
{
	const char *end;

	if (g_utf8_validate((const char *)s, len, &end))
		return TRUE;
	return fail_at(r, at + (gsize)((const guint8 *)end - s), error, KM_SMALLDB_ERROR_CORRUPT,
		       "a string is not valid UTF-8");
}

static gboolean column_cell(Reader *r, Layout *l, guint col, guint32 row, Cell *cell,
			    GError **error)
{
	const ColumnData *c = &l->cols[col];
	enum column_type type = columns[col].type;
	guint32 offset, end;

	r->section = "column";
	r->column = columns[col].name;
	if (is_numeric(type)) {
		cell->number = get_number(c->values + column_width(type) * row, type);
		return TRUE;
	}
	offset = get_le32(c->values + 4 * (gsize)row);
	cell->bytes = c->pool + offset;
	if (type == COLUMN_STRING) {
		/* Bounded: pass 1 checked that the pool ends with a NUL. */
		cell->len = strlen((const char *)cell->bytes);
		return charge_budget(r, l, cell->len, c->pool_at + offset, error) &&
		       check_utf8(r, cell->bytes, cell->len, c->pool_at + offset, error);
	}
	end = row + 1 < l->n_rows ? get_le32(c->values + 4 * ((gsize)row + 1)) : c->pool_size;
	cell->len = end - offset;
	return charge_budget(r, l, cell->len, c->pool_at + offset, error);
}

/* The column after the last string column: libkarma reads it and the rest from the record's end. */
static guint first_tail_column(void)
{
	guint tail = KM_SMALLDB_N_COLUMNS;

	while (tail > 0 && columns[tail - 1].type != COLUMN_STRING)
		tail--;
	return tail;
}

static gsize tail_size(guint from)
{
	gsize size = 0;

	for (guint i = from; i < KM_SMALLDB_N_COLUMNS; i++)
		size += column_width(columns[i].type);
	return size;
}

static gboolean record_take(Reader *r, const UpdateRecord *rec, guint col, gsize *pos,
			    gsize size, gsize align, const guint8 **out, GError **error)
{
	gsize start = (*pos + align - 1) / align * align;

	if (start > rec->len || size > rec->len - start)
		return fail_at(r, rec->at + MIN(start, rec->len), error, KM_SMALLDB_ERROR_TRUNCATED,
			       "record for row %u: column '%s' needs %" G_GSIZE_FORMAT
			       " bytes at record byte %" G_GSIZE_FORMAT ", the record has %u",
			       rec->row, columns[col].name, size, start, rec->len);
	*out = rec->bytes + start;
	*pos = start + size;
	return TRUE;
}

/*
 * One record holds a value for every column, fid first, in column order.
 * How, was found in libkarma's reader (docs/KARMA.md §9.4): numbers and
 * blob lengths sit at their natural alignment in the record (libkarma skips
 * one byte after `marked`, before the first blob's u32 length), strings are
 * NUL-terminated, blobs are a u32 length and the bytes, and the u32 columns
 * after the last string (`rid`) are the record's last bytes.
 */
static gboolean decode_record(Reader *r, const UpdateRecord *rec, RowCells cells, GError **error)
{
	guint tail = first_tail_column();
	const guint8 *p = NULL;
	gsize pos = 0;

	r->section = "update records";
	r->column = NULL;
	for (guint col = 0; col < KM_SMALLDB_N_COLUMNS; col++) {
		enum column_type type = columns[col].type;
		const guint8 *nul;

		if (col == tail) {
			if (rec->len < tail_size(tail) || rec->len - tail_size(tail) < pos)
				return fail_at(r, rec->at, error, KM_SMALLDB_ERROR_TRUNCATED,
					       "record for row %u: %u bytes are too few for its values",
					       rec->row, rec->len);
			pos = rec->len - tail_size(tail);
		}
		if (is_numeric(type)) {
			/* The tail is where libkarma reads it, aligned or not. */
			gsize align = col >= tail ? 1 : column_width(type);

			if (!record_take(r, rec, col, &pos, column_width(type), align, &p, error))
				return FALSE;
			cells[col].number = get_number(p, type);
		} else if (type == COLUMN_BLOB) {
			if (!record_take(r, rec, col, &pos, 4, 4, &p, error) ||
			    !record_take(r, rec, col, &pos, get_le32(p), 1, &cells[col].bytes, error))
				return FALSE;
			cells[col].len = get_le32(p);
		} else {
			nul = memchr(rec->bytes + pos, '\0', rec->len - pos);
			if (!nul)
				return fail_at(r, rec->at + pos, error, KM_SMALLDB_ERROR_CORRUPT,
					       "record for row %u: column '%s' has no NUL byte before the record's end",
					       rec->row, columns[col].name);
			cells[col].bytes = rec->bytes + pos;
			cells[col].len = (gsize)(nul - cells[col].bytes);
			if (!check_utf8(r, cells[col].bytes, cells[col].len, rec->at + pos, error))
				return FALSE;
			pos += cells[col].len + 1;
		}
	}
	return TRUE;
}

static KmProperties *object_from_cells(const RowCells cells)
{
	KmProperties *props = km_properties_new();

	km_properties_set_fid(props, cells[COLUMN_FID].number);
	for (guint col = 1; col < KM_SMALLDB_N_COLUMNS; col++) {
		const Cell *cell = &cells[col];

		if (is_numeric(columns[col].type)) {
			if (cell->number != 0)
				km_properties_set_uint(props, columns[col].name, cell->number);
		} else if (cell->len == 0) {
			continue;
		} else if (columns[col].type == COLUMN_STRING) {
			/* NUL-terminated in the pool and in records alike. */
			km_properties_set(props, columns[col].name, (const char *)cell->bytes);
		} else {
			g_autoptr(GBytes) blob = g_bytes_new(cell->bytes, cell->len);

			km_properties_set_blob(props, columns[col].name, blob);
		}
	}
	return props;
}

static gboolean row_cells(Reader *r, Layout *l, guint32 row, RowCells cells, GError **error)
{
	for (guint col = 0; col < KM_SMALLDB_N_COLUMNS; col++)
		if (!column_cell(r, l, col, row, &cells[col], error))
			return FALSE;
	return TRUE;
}

static gboolean row_is_deleted(const Layout *l, guint32 row)
{
	return row / 8 < l->bitmap_len && (l->bitmap[row / 8] >> (row % 8) & 1);
}

/* The bytes of a record's strings and blobs, which objects will copy. */
static gsize decoded_size(const RowCells cells)
{
	gsize size = 0;

	for (guint col = 0; col < KM_SMALLDB_N_COLUMNS; col++)
		if (!is_numeric(columns[col].type))
			size += cells[col].len;
	return size;
}

/*
 * Check every record (decoding it into one buffer, so that memory does not
 * grow with their number); map each row to its last record, the one that
 * counts (index + 1).
 */
static GHashTable *check_records(Reader *r, Layout *l, GError **error)
{
	g_autoptr(GHashTable) last = g_hash_table_new(NULL, NULL);
	RowCells cells;

	for (guint i = 0; i < l->records->len; i++) {
		UpdateRecord *rec = &g_array_index(l->records, UpdateRecord, i);
		guint32 row_fid;

		if (!decode_record(r, rec, cells, error) ||
		    !charge_budget(r, l, decoded_size(cells), rec->at, error))
			return NULL;
		rec->fid = cells[COLUMN_FID].number;
		/* A record past the last row adds an object, as in libkarma. */
		row_fid = rec->row < l->n_rows ?
			  get_le32(l->cols[COLUMN_FID].values + 4 * (gsize)rec->row) : rec->fid;
		if (rec->fid != row_fid) {
			fail_at(r, rec->at, error, KM_SMALLDB_ERROR_CORRUPT,
				"the record for row %u has fid %u, the row has fid %u",
				rec->row, rec->fid, row_fid);
			return NULL;
		}
		g_hash_table_insert(last, GUINT_TO_POINTER(rec->row), GUINT_TO_POINTER(i + 1));
	}
	return g_steal_pointer(&last);
}

/* A checked record's object. */
static KmProperties *object_from_record(Reader *r, const Layout *l, guint index)
{
	RowCells cells;

	if (!decode_record(r, &g_array_index(l->records, UpdateRecord, index), cells, NULL))
		g_return_val_if_reached(NULL);
	return object_from_cells(cells);
}

static gint compare_fids(gconstpointer a, gconstpointer b)
{
	guint32 fa = km_properties_get_fid(*(KmProperties *const *)a);
	guint32 fb = km_properties_get_fid(*(KmProperties *const *)b);

	return fa < fb ? -1 : fa > fb;
}

/* Sort by fid; returns a fid two objects share (two objects with one fid cannot both be real), or -1. */
static gint64 sort_find_shared_fid(GPtrArray *objects)
{
	g_ptr_array_sort(objects, compare_fids);
	for (guint i = 1; i < objects->len; i++) {
		guint32 fid = km_properties_get_fid(objects->pdata[i]);

		if (fid == km_properties_get_fid(objects->pdata[i - 1]))
			return fid;
	}
	return -1;
}

/* Where the second copy of a fid is: the last record with it, else the second row. */
static gboolean shared_fid_error(Reader *r, const Layout *l, guint32 fid, GError **error)
{
	const ColumnData *c = &l->cols[COLUMN_FID];
	gsize at = 0;
	guint seen = 0;

	for (guint32 row = 0; row < l->n_rows && seen < 2; row++)
		if (get_le32(c->values + 4 * (gsize)row) == fid && seen++ == 1)
			at = c->values_at + 4 * (gsize)row;
	for (guint i = 0; i < l->records->len; i++)
		if (g_array_index(l->records, UpdateRecord, i).fid == fid)
			at = g_array_index(l->records, UpdateRecord, i).at;
	r->section = "column";
	r->column = "fid";
	return fail_at(r, at, error, KM_SMALLDB_ERROR_CORRUPT,
		       "fid %u (0x%x) is in two rows", fid, fid);
}

static GPtrArray *build_objects(Reader *r, Layout *l, GError **error)
{
	g_autoptr(GPtrArray) objects = g_ptr_array_new_with_free_func((GDestroyNotify)km_properties_unref);
	g_autoptr(GHashTable) last = NULL;
	RowCells cells;
	gint64 shared;

	last = check_records(r, l, error);
	if (!last)
		return NULL;
	for (guint32 row = 0; row < l->n_rows; row++) {
		guint rec = GPOINTER_TO_UINT(g_hash_table_lookup(last, GUINT_TO_POINTER(row)));

		if (rec) {
			g_ptr_array_add(objects, object_from_record(r, l, rec - 1));
		} else if (row_is_deleted(l, row)) {
			guint32 fid = get_le32(l->cols[COLUMN_FID].values + 4 * (gsize)row);

			g_array_append_val(l->deleted_fids, fid);
			l->hdr.n_deleted++;
		} else {
			if (!row_cells(r, l, row, cells, error))
				return NULL;
			g_ptr_array_add(objects, object_from_cells(cells));
		}
	}
	for (guint i = 0; i < l->records->len; i++) {
		guint32 row = g_array_index(l->records, UpdateRecord, i).row;

		if (row >= l->n_rows &&
		    GPOINTER_TO_UINT(g_hash_table_lookup(last, GUINT_TO_POINTER(row))) == i + 1)
			g_ptr_array_add(objects, object_from_record(r, l, i));
	}
	shared = sort_find_shared_fid(objects);
	if (shared >= 0) {
		shared_fid_error(r, l, (guint32)shared, error);
		return NULL;
	}
	return g_steal_pointer(&objects);
}

GPtrArray *km_smalldb_parse(GBytes *data, KmSmalldbHeader *hdr_out, GArray **deleted_fids_out,
			    GError **error)
{
	Reader r = { 0 };
	Layout l = { 0 };
	GPtrArray *objects = NULL;

	g_return_val_if_fail(data != NULL, NULL);
	g_return_val_if_fail(error == NULL || *error == NULL, NULL);

	r.data = g_bytes_get_data(data, &r.len);
	l.budget = r.len <= (G_MAXSIZE - DECODE_SLACK) / DECODE_EXPANSION ?
		   r.len * DECODE_EXPANSION + DECODE_SLACK : G_MAXSIZE;
	l.deleted_fids = g_array_new(FALSE, FALSE, sizeof(guint32));
	if (read_layout(&r, &l, error))
		objects = build_objects(&r, &l, error);
	if (objects && hdr_out)
		*hdr_out = l.hdr;
	if (objects && deleted_fids_out)
		*deleted_fids_out = g_steal_pointer(&l.deleted_fids);
	if (l.deleted_fids)
		g_array_unref(l.deleted_fids);
	if (l.records)
		g_array_unref(l.records);
	return objects;
}

/* ------------------------------------------------------------------ */
/* Writing.                                                            */

/* Little-endian whatever the host (libkarma wrote host order). */
static void put_number(GByteArray *out, guint32 v, enum column_type type)
{
	guint8 b[4] = { v & 0xff, v >> 8 & 0xff, v >> 16 & 0xff, v >> 24 };

	g_byte_array_append(out, b, column_width(type));
}

static void put_u32(GByteArray *out, guint32 v)
{
	put_number(out, v, COLUMN_U32);
}

/* A number as libkarma stores it: see km-smalldb.h. */
static guint32 number_of(const KmProperties *props, guint col)
{
	const char *name = columns[col].name;
	const char *text;
	guint64 value;
	gint64 negative;

	if (col == COLUMN_FID)
		return km_properties_get_fid(props);
	/* Most columns are absent from most objects: one lookup for those. */
	text = km_properties_get(props, name);
	if (!text)
		return 0;
	if (km_properties_get_uint(props, name, &value))
		return truncate_to_column(value, columns[col].type);
	if (g_ascii_string_to_signed(text, 10, G_MININT64, -1, &negative, NULL))
		return truncate_to_column((guint64)negative, columns[col].type);
	return 0;
}

static const char *string_of(const KmProperties *props, guint col)
{
	const char *s = km_properties_get(props, columns[col].name);

	return s ? s : "";
}

/* The blob smalldb stores (never NULL); a profile that is not 40 bytes is dropped. */
static GBytes *blob_of(const KmProperties *props, guint col)
{
	GBytes *blob = km_properties_get_blob(props, columns[col].name);

	if (blob && strcmp(columns[col].name, "profile") == 0 &&
	    g_bytes_get_size(blob) != PROFILE_SIZE)
		g_clear_pointer(&blob, g_bytes_unref);
	return blob ? blob : g_bytes_new_static("", 0);
}

typedef struct {
	const char *str;
	guint first_row;
	guint32 offset;
} PoolEntry;

/* Byte-wise; for artists a leading "The " or "the " is skipped. */
static const char *sort_key(const char *s, gboolean artist)
{
	if (artist && (strncmp(s, "The ", 4) == 0 || strncmp(s, "the ", 4) == 0))
		return s + 4;
	return s;
}

/*
 * Two artists can compare equal ("The Who" and "Who"): libkarma's sort keeps
 * them in row order, so they are ordered by the first row that has them.
 * (libkarma also keeps a string twice when its equals are not next to each
 * other after that sort, e.g. Who, The Who, Who; here every string is
 * stored once: docs/KARMA.md §9.3.)
 */
static gint compare_pool_entries(gconstpointer pa, gconstpointer pb, gpointer artist)
{
	const PoolEntry *a = pa, *b = pb;
	gint c = strcmp(sort_key(a->str, GPOINTER_TO_INT(artist)),
			sort_key(b->str, GPOINTER_TO_INT(artist)));

	if (c)
		return c;
	return a->first_row < b->first_row ? -1 : a->first_row > b->first_row;
}

/* Pool offsets are u32, and a GByteArray cannot pass 4 GiB either. */
static gboolean fits(const GByteArray *out, guint64 pool_size, const char *column, GError **error)
{
	if (pool_size <= G_MAXUINT32 && pool_size + out->len <= G_MAXUINT32 - 64)
		return TRUE;
	g_set_error(error, KM_SMALLDB_ERROR, KM_SMALLDB_ERROR_INVALID_OBJECTS,
		    "smalldb: with the values of column '%s' the file passes 4 GiB", column);
	return FALSE;
}

static gboolean write_string_column(GByteArray *out, GPtrArray *rows, guint col, GError **error)
{
	g_autoptr(GHashTable) index = g_hash_table_new(g_str_hash, g_str_equal);
	g_autoptr(GArray) entries = g_array_new(FALSE, FALSE, sizeof(PoolEntry));
	g_autofree guint *row_entry = g_new(guint, rows->len + 1);
	g_autofree guint *position = NULL;
	guint64 pool_size = 0;

	for (guint i = 0; i < rows->len; i++) {
		const char *s = string_of(rows->pdata[i], col);
		gpointer found;

		if (!g_hash_table_lookup_extended(index, s, NULL, &found)) {
			PoolEntry e = { s, i, 0 };

			found = GUINT_TO_POINTER(entries->len);
			g_array_append_val(entries, e);
			g_hash_table_insert(index, (gpointer)s, found);
		}
		row_entry[i] = GPOINTER_TO_UINT(found);
	}
	g_array_sort_with_data(entries, compare_pool_entries, GINT_TO_POINTER(col == COLUMN_ARTIST));
	/* Sorting moved the entries: map first-seen order to sorted order. */
	position = g_new(guint, entries->len + 1);
	for (guint k = 0; k < entries->len; k++) {
		PoolEntry *e = &g_array_index(entries, PoolEntry, k);

		position[row_entry[e->first_row]] = k;
		e->offset = (guint32)pool_size;
		pool_size += strlen(e->str) + 1;
		if (!fits(out, pool_size + 4 * (guint64)rows->len, columns[col].name, error))
			return FALSE;
	}
	put_u32(out, (guint32)pool_size);
	for (guint i = 0; i < rows->len; i++)
		put_u32(out, g_array_index(entries, PoolEntry, position[row_entry[i]]).offset);
	for (guint k = 0; k < entries->len; k++) {
		const char *s = g_array_index(entries, PoolEntry, k).str;

		g_byte_array_append(out, (const guint8 *)s, strlen(s) + 1);
	}
	return TRUE;
}

/*
 * Every row's blob is stored whole at the end of the pool, so a row's
 * length is the next row's offset minus its own, which is how libkarma reads
 * it.  (libkarma's writer gives a blob equal to the previous row's the pool
 * end without storing it again; its own reader then finds it empty, so
 * such "sharing" would lose the second copy.)
 */
static gboolean write_blob_column(GByteArray *out, GPtrArray *rows, guint col, GError **error)
{
	g_autoptr(GByteArray) pool = g_byte_array_new();

	for (guint i = 0; i < rows->len; i++) {
		g_autoptr(GBytes) blob = blob_of(rows->pdata[i], col);
		gsize size;
		gconstpointer bytes = g_bytes_get_data(blob, &size);

		if (!fits(out, (guint64)pool->len + size, columns[col].name, error))
			return FALSE;
		put_u32(out, pool->len);
		g_byte_array_append(pool, bytes, size);
	}
	put_u32(out, pool->len);
	g_byte_array_append(out, pool->data, pool->len);
	return TRUE;
}

static void write_header(GByteArray *out, const KmSmalldbHeader *hdr, guint32 timestamp)
{
	g_autoptr(GString) names = names_block();

	put_u32(out, hdr ? hdr->version : FRESH_VERSION);
	put_u32(out, timestamp);
	put_u32(out, hdr ? hdr->h2 : FRESH_H2);
	put_u32(out, hdr ? hdr->h3 : FRESH_H3);
	put_u32(out, KM_SMALLDB_N_COLUMNS);
	for (guint i = 0; i < KM_SMALLDB_N_COLUMNS; i++) {
		put_u32(out, columns[i].type);
		put_u32(out, columns[i].flag);
	}
	put_u32(out, names->len);
	g_byte_array_append(out, (const guint8 *)names->str, names->len);
}

static gboolean write_columns(GByteArray *out, GPtrArray *rows, GError **error)
{
	for (guint col = 0; col < KM_SMALLDB_N_COLUMNS; col++) {
		switch (columns[col].type) {
		case COLUMN_STRING:
			if (!write_string_column(out, rows, col, error))
				return FALSE;
			break;
		case COLUMN_BLOB:
			if (!write_blob_column(out, rows, col, error))
				return FALSE;
			break;
		default:
			for (guint i = 0; i < rows->len; i++)
				put_number(out, number_of(rows->pdata[i], col), columns[col].type);
			break;
		}
	}
	return TRUE;
}

GBytes *km_smalldb_build(GPtrArray *objects, const KmSmalldbHeader *hdr,
			 guint32 timestamp, GError **error)
{
	g_autoptr(GPtrArray) rows = NULL;
	g_autoptr(GByteArray) out = g_byte_array_new();
	gint64 shared;

	g_return_val_if_fail(objects != NULL, NULL);
	g_return_val_if_fail(error == NULL || *error == NULL, NULL);

	/* A copy to sort, which must not unref the caller's objects. */
	rows = g_ptr_array_copy(objects, NULL, NULL);
	g_ptr_array_set_free_func(rows, NULL);
	shared = sort_find_shared_fid(rows);
	if (shared >= 0) {
		g_set_error(error, KM_SMALLDB_ERROR, KM_SMALLDB_ERROR_INVALID_OBJECTS,
			    "smalldb: two objects have fid %u (0x%x)", (guint32)shared, (guint32)shared);
		return NULL;
	}
	write_header(out, hdr, timestamp);
	put_u32(out, 0);		/* no update records */
	put_u32(out, rows->len);	/* the row count, twice */
	put_u32(out, rows->len);
	if (!write_columns(out, rows, error))
		return NULL;
	put_u32(out, 0);		/* empty deletion bitmap */
	put_u32(out, timestamp);
	return g_byte_array_free_to_bytes(g_steal_pointer(&out));
}

/* ------------------------------------------------------------------ */

static gboolean column_differs(const KmProperties *a, const KmProperties *b, guint col)
{
	if (is_numeric(columns[col].type))
		return number_of(a, col) != number_of(b, col);
	if (columns[col].type == COLUMN_STRING)
		return strcmp(string_of(a, col), string_of(b, col)) != 0;
	{
		g_autoptr(GBytes) blob_a = blob_of(a, col);
		g_autoptr(GBytes) blob_b = blob_of(b, col);

		return !g_bytes_equal(blob_a, blob_b);
	}
}

gboolean km_smalldb_row_equal(const KmProperties *a, const KmProperties *b,
			      const char **differing_column)
{
	for (guint col = 0; col < KM_SMALLDB_N_COLUMNS; col++) {
		if (column_differs(a, b, col)) {
			if (differing_column)
				*differing_column = columns[col].name;
			return FALSE;
		}
	}
	return TRUE;
}

char *km_smalldb_row_diff(const KmProperties *a, const KmProperties *b, guint *n_columns)
{
	GString *names = NULL;

	*n_columns = 0;
	for (guint col = 0; col < KM_SMALLDB_N_COLUMNS; col++) {
		if (!column_differs(a, b, col))
			continue;
		if (!names)
			names = g_string_new(NULL);
		g_string_append_printf(names, "%s%s", names->len ? ", " : "", columns[col].name);
		(*n_columns)++;
	}
	return names ? g_string_free(names, FALSE) : NULL;
}

gboolean km_smalldb_number_fits(const char *key, const char *value, guint64 *max)
{
	int col = column_index(key);
	guint64 v;

	*max = 0;
	if (col < 0 || col == COLUMN_FID || !is_numeric(columns[col].type))
		return TRUE;
	*max = columns[col].type == COLUMN_U8 ? G_MAXUINT8 :
	       columns[col].type == COLUMN_U16 ? G_MAXUINT16 : G_MAXUINT32;
	return g_ascii_string_to_unsigned(value, 10, 0, *max, &v, NULL);
}
