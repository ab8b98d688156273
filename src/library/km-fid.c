/* SPDX-License-Identifier: GPL-2.0-or-later */
/* km-fid.c - fid <-> path, and fid allocation. */
#include "km-fid.h"

#include <string.h>

#define DIR_DIGITS 5
#define NAME_DIGITS 3
#define NAME_BITS (NAME_DIGITS * 4)

gboolean km_fid_is_valid(guint32 fid)
{
	return fid % KM_FID_STEP == 0;
}

void km_fid_format_path(guint32 fid, KmFidFile which, char path[KM_FID_PATH_SIZE])
{
	guint32 file = fid | (which == KM_FID_FILE_PROPERTIES ? 1 : 0);

	g_return_if_fail(km_fid_is_valid(fid));
	g_snprintf(path, KM_FID_PATH_SIZE, KM_FID_ROOT "/_%05x/%03x", file >> NAME_BITS,
		   file & ((1u << NAME_BITS) - 1));
}

char *km_fid_to_path(guint32 fid, KmFidFile which)
{
	char path[KM_FID_PATH_SIZE];

	g_return_val_if_fail(km_fid_is_valid(fid), NULL);
	km_fid_format_path(fid, which, path);
	return g_strdup(path);
}

char *km_fid_dir_name(guint32 fid)
{
	return g_strdup_printf("_%05x", fid >> NAME_BITS);
}

/* Exactly n lower-case hex digits, the whole string: the firmware's form. */
static gboolean parse_lower_hex(const char *s, gsize n, guint32 *value)
{
	guint32 v = 0;
	gsize i;

	if (strlen(s) != n)
		return FALSE;
	for (i = 0; i < n; i++) {
		int digit = g_ascii_xdigit_value(s[i]);

		if (digit < 0 || g_ascii_isupper(s[i]))
			return FALSE;
		v = v << 4 | (guint32)digit;
	}
	*value = v;
	return TRUE;
}

gboolean km_fid_from_names(const char *dir, const char *name, guint32 *fid, KmFidFile *which)
{
	guint32 hi, lo, kind;

	if (dir[0] != '_' || !parse_lower_hex(dir + 1, DIR_DIGITS, &hi) ||
	    !parse_lower_hex(name, NAME_DIGITS, &lo))
		return FALSE;
	kind = lo % KM_FID_STEP;
	if (kind > 1)
		return FALSE;
	*fid = (hi << NAME_BITS | lo) - kind;
	if (which)
		*which = kind ? KM_FID_FILE_PROPERTIES : KM_FID_FILE_DATA;
	return TRUE;
}

gboolean km_fid_from_path(const char *path, guint32 *fid, KmFidFile *which)
{
	/* fids0/ _hhhhh / lll */
	const gsize root_len = strlen(KM_FID_ROOT "/");
	const gsize dir_len = 1 + DIR_DIGITS;
	char dir[1 + DIR_DIGITS + 1];

	if (strlen(path) != KM_FID_PATH_SIZE - 1 ||
	    strncmp(path, KM_FID_ROOT "/", root_len) != 0 ||
	    path[root_len + dir_len] != '/')
		return FALSE;
	memcpy(dir, path + root_len, dir_len);
	dir[dir_len] = '\0';
	return km_fid_from_names(dir, path + root_len + dir_len + 1, fid, which);
}

struct _KmFidAllocator {
	GHashTable *used;
	/* Every fid from KM_FID_FIRST up to (not including) next is in use. */
	guint64 next;
};

KmFidAllocator *km_fid_allocator_new(void)
{
	KmFidAllocator *alloc = g_new0(KmFidAllocator, 1);

	alloc->used = g_hash_table_new(g_direct_hash, g_direct_equal);
	alloc->next = KM_FID_FIRST;
	return alloc;
}

void km_fid_allocator_free(KmFidAllocator *alloc)
{
	if (!alloc)
		return;
	g_hash_table_unref(alloc->used);
	g_free(alloc);
}

gboolean km_fid_allocator_is_used(const KmFidAllocator *alloc, guint32 fid)
{
	return g_hash_table_contains(alloc->used, GUINT_TO_POINTER(fid));
}

guint km_fid_allocator_count(const KmFidAllocator *alloc)
{
	return g_hash_table_size(alloc->used);
}

gboolean km_fid_allocator_mark_used(KmFidAllocator *alloc, guint32 fid)
{
	g_return_val_if_fail(km_fid_is_valid(fid), FALSE);
	return g_hash_table_add(alloc->used, GUINT_TO_POINTER(fid));
}

gboolean km_fid_allocator_release(KmFidAllocator *alloc, guint32 fid)
{
	g_return_val_if_fail(km_fid_is_valid(fid), FALSE);
	if (!g_hash_table_remove(alloc->used, GUINT_TO_POINTER(fid)))
		return FALSE;
	if (fid >= KM_FID_FIRST && fid < alloc->next)
		alloc->next = fid;
	return TRUE;
}

gboolean km_fid_allocator_allocate(KmFidAllocator *alloc, guint32 *fid)
{
	guint64 candidate = alloc->next;

	/* Bounded: at most one step per fid in use. */
	while (candidate <= KM_FID_LAST &&
	       km_fid_allocator_is_used(alloc, (guint32)candidate))
		candidate += KM_FID_STEP;
	if (candidate > KM_FID_LAST) {
		alloc->next = candidate;
		return FALSE;
	}
	g_hash_table_add(alloc->used, GUINT_TO_POINTER((guint32)candidate));
	alloc->next = candidate + KM_FID_STEP;
	*fid = (guint32)candidate;
	return TRUE;
}
