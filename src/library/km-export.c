/* SPDX-License-Identifier: GPL-2.0-or-later */
/* km-export.c - file names for exported tracks, and their creation (km-export.h). */
#include "km-export.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

G_DEFINE_QUARK(km-export-error-quark, km_export_error)

/* The free-text properties: cut first when a name is too long. */
struct free_text {
	char letter;
	const char *key;
	const char *placeholder;	/* NULL: the fid, as %f */
};

static const struct free_text free_texts[] = {
	{ 'a', "artist", "Unknown Artist" },
	{ 's', "source", "Unknown Album" },
	{ 't', "title", NULL },
	{ 'g', "genre", "Unknown Genre" },
	{ 'y', "year", "Unknown Year" },
};

/* Karma codec names (docs/KARMA.md §10) and the extensions players expect. */
static const struct {
	const char *codec;
	const char *extension;
} extensions[] = {
	{ "mp3", "mp3" },
	{ "vorbis", "ogg" },
	{ "flac", "flac" },
	{ "wave", "wav" },
	{ "wma", "wma" },
	/* A data file: its title is the original file name, extension included. */
	{ "taxi", "" },
};

#define UNKNOWN_EXTENSION "bin"

/* One piece of a folder or file name: template text or one expansion. */
struct segment {
	GString *text;
	gboolean shortenable;	/* from a free-text property: may be cut */
};

static void clear_segment(gpointer data)
{
	struct segment *seg = data;

	g_string_free(seg->text, TRUE);
}

/* Characters that are never kept in a name: they would change its meaning or hide. */
static gboolean is_forbidden(gunichar c)
{
	return c == '/' || g_unichar_iscntrl(c);
}

/* Nothing a name could show: then the placeholder says more. */
static gboolean is_blank(const char *value)
{
	const char *p;

	for (p = value; *p; p = g_utf8_next_char(p)) {
		gunichar c = g_utf8_get_char(p);

		if (c != '.' && !g_unichar_isspace(c) && !g_unichar_iscntrl(c))
			return FALSE;
	}
	return TRUE;
}

/* The length of the longest prefix of s (valid UTF-8) of at most max bytes. */
static gsize utf8_cut_length(const char *s, gsize len, gsize max)
{
	if (len <= max)
		return len;
	while (max > 0 && ((guchar)s[max] & 0xc0) == 0x80)
		max--;
	return max;
}

static void append_fid(GString *out, const KmProperties *props)
{
	g_string_append_printf(out, "%08x", km_properties_get_fid(props));
}

static void append_free_text(GString *out, const KmProperties *props, const struct free_text *ft)
{
	const char *value = km_properties_get(props, ft->key);
	g_autofree char *stripped = g_strstrip(g_strdup(value ? value : ""));

	if (!is_blank(stripped))
		g_string_append(out, stripped);
	else if (ft->placeholder)
		g_string_append(out, ft->placeholder);
	else
		append_fid(out, props);
}

static void append_extension(GString *out, const KmProperties *props)
{
	const char *codec = km_properties_get(props, "codec");
	gsize i;

	for (i = 0; codec && i < G_N_ELEMENTS(extensions); i++) {
		if (strcmp(codec, extensions[i].codec) == 0) {
			g_string_append(out, extensions[i].extension);
			return;
		}
	}
	g_string_append(out, UNKNOWN_EXTENSION);
}

static void append_track_number(GString *out, const KmProperties *props)
{
	guint64 tracknr;

	if (!km_properties_get_uint(props, "tracknr", &tracknr))
		tracknr = 0;
	g_string_append_printf(out, "%02" G_GUINT64_FORMAT, tracknr);
}

/*
 * Expand %letter into seg. FALSE for a letter that means nothing.
 */
static gboolean expand(const KmProperties *props, gunichar letter, struct segment *seg)
{
	gsize i;

	for (i = 0; i < G_N_ELEMENTS(free_texts); i++) {
		if (letter == (gunichar)free_texts[i].letter) {
			append_free_text(seg->text, props, &free_texts[i]);
			seg->shortenable = TRUE;
			return TRUE;
		}
	}
	switch (letter) {
	case 'n':
		append_track_number(seg->text, props);
		return TRUE;
	case 'c':
		append_extension(seg->text, props);
		return TRUE;
	case 'f':
		append_fid(seg->text, props);
		return TRUE;
	case '%':
		g_string_append_c(seg->text, '%');
		return TRUE;
	default:
		return FALSE;
	}
}

/* Each forbidden character becomes one '_'. */
static void replace_forbidden(GString *text)
{
	GString *clean = g_string_sized_new(text->len);
	const char *p;

	for (p = text->str; *p; p = g_utf8_next_char(p)) {
		if (is_forbidden(g_utf8_get_char(p)))
			g_string_append_c(clean, '_');
		else
			g_string_append_len(clean, p, g_utf8_next_char(p) - p);
	}
	g_string_assign(text, clean->str);
	g_string_free(clean, TRUE);
}

static struct segment *longest_shortenable(GArray *segments)
{
	struct segment *longest = NULL;
	guint i;

	for (i = 0; i < segments->len; i++) {
		struct segment *seg = &g_array_index(segments, struct segment, i);

		if (seg->shortenable && seg->text->len > 0 &&
		    (!longest || seg->text->len > longest->text->len))
			longest = seg;
	}
	return longest;
}

static gsize total_length(GArray *segments)
{
	gsize total = 0;
	guint i;

	for (i = 0; i < segments->len; i++)
		total += g_array_index(segments, struct segment, i).text->len;
	return total;
}

/*
 * Cut the free-text parts, the longest one character at a time, until the
 * name fits; the track number and the extension stay whole. No part needs
 * more than the whole name, so the loop runs at most about NAME_MAX times
 * per part.
 */
static void shorten_segments(GArray *segments)
{
	gsize total;
	guint i;

	for (i = 0; i < segments->len; i++) {
		struct segment *seg = &g_array_index(segments, struct segment, i);

		if (seg->shortenable)
			g_string_truncate(seg->text, utf8_cut_length(seg->text->str, seg->text->len,
								     KM_EXPORT_NAME_MAX));
	}
	for (total = total_length(segments); total > KM_EXPORT_NAME_MAX;) {
		struct segment *seg = longest_shortenable(segments);
		gsize len;

		if (!seg)
			break;
		len = utf8_cut_length(seg->text->str, seg->text->len, seg->text->len - 1);
		total -= seg->text->len - len;
		g_string_truncate(seg->text, len);
	}
}

static gboolean is_edge_junk(char c)
{
	return c == '.' || c == ' ';
}

/*
 * Leading dots hide a file (and make "." and ".."); trailing dots and
 * spaces are dropped or refused by some file systems (FAT, SMB).
 */
static void strip_edges(GString *name)
{
	gsize start = 0;

	while (start < name->len && is_edge_junk(name->str[start]))
		start++;
	g_string_erase(name, 0, start);
	while (name->len > 0 && is_edge_junk(name->str[name->len - 1]))
		g_string_truncate(name, name->len - 1);
}

/* One safe folder or file name from its pieces, appended to path. */
static void append_safe_name(GString *path, GArray *segments)
{
	GString *name = g_string_new(NULL);
	guint i;

	for (i = 0; i < segments->len; i++)
		replace_forbidden(g_array_index(segments, struct segment, i).text);
	shorten_segments(segments);
	for (i = 0; i < segments->len; i++)
		g_string_append_len(name, g_array_index(segments, struct segment, i).text->str,
				    g_array_index(segments, struct segment, i).text->len);
	/* Only template text is left that is too long: cut it too. */
	g_string_truncate(name, utf8_cut_length(name->str, name->len, KM_EXPORT_NAME_MAX));
	strip_edges(name);
	if (name->len == 0)
		g_string_append_c(name, '_');
	g_string_append_len(path, name->str, name->len);
	g_string_free(name, TRUE);
}

static gboolean template_error(GError **error, const char *template, const char *at,
			       const char *problem)
{
	g_set_error(error, KM_EXPORT_ERROR, KM_EXPORT_ERROR_TEMPLATE,
		    "template \"%s\", at byte %d: %s", template, (int)(at - template), problem);
	return FALSE;
}

/* An empty folder name, ".", "..": mistakes, not something to repair. */
static gboolean check_template_name(const char *template, const char *name, gsize len,
				    GError **error)
{
	if (len == 0 && name == template)
		return template_error(error, template, name,
				      "it starts with '/' (it must be relative)");
	if (len == 0 && name[0] == '\0')
		return template_error(error, template, name, "it ends with '/' (no file name)");
	if (len == 0)
		return template_error(error, template, name, "an empty folder name ('//')");
	if ((len == 1 && name[0] == '.') || (len == 2 && strncmp(name, "..", 2) == 0))
		return template_error(error, template, name,
				      "a name \".\" or \"..\" would leave the target folder");
	return TRUE;
}

static struct segment *add_segment(GArray *segments)
{
	struct segment seg = { g_string_new(NULL), FALSE };

	g_array_append_val(segments, seg);
	return &g_array_index(segments, struct segment, segments->len - 1);
}

/* Split one name of the template (len bytes at name) into text and expansions. */
static gboolean parse_name(const KmProperties *props, const char *template, const char *name,
			   gsize len, GArray *segments, GError **error)
{
	const char *end = name + len;
	const char *p = name;

	while (p < end) {
		const char *percent = memchr(p, '%', end - p);
		g_autofree char *problem = NULL;

		if (percent != p) {
			if (!percent)
				percent = end;
			g_string_append_len(add_segment(segments)->text, p, percent - p);
			p = percent;
			continue;
		}
		if (p + 1 == end)
			return template_error(error, template, p, "a '%' with no letter after it");
		if (expand(props, g_utf8_get_char(p + 1), add_segment(segments))) {
			p = g_utf8_next_char(p + 1);
			continue;
		}
		problem = g_strdup_printf(
			"unknown expansion \"%%%.*s\" (known: %%a %%s %%t %%n %%g %%y %%c %%f %%%%)",
			(int)(g_utf8_next_char(p + 1) - (p + 1)), p + 1);
		return template_error(error, template, p, problem);
	}
	return TRUE;
}

char *km_export_relative_path(const KmProperties *props, const char *template, GError **error)
{
	g_autoptr(GString) path = g_string_new(NULL);
	const char *name;

	g_return_val_if_fail(props, NULL);
	g_return_val_if_fail(!error || !*error, NULL);
	if (!template)
		template = KM_EXPORT_DEFAULT_TEMPLATE;
	if (!g_utf8_validate(template, -1, NULL)) {
		g_set_error(error, KM_EXPORT_ERROR, KM_EXPORT_ERROR_TEMPLATE,
			    "the template is not valid UTF-8");
		return NULL;
	}
	if (!*template) {
		g_set_error(error, KM_EXPORT_ERROR, KM_EXPORT_ERROR_TEMPLATE,
			    "the template is empty");
		return NULL;
	}
	for (name = template;;) {
		const char *end = strchrnul(name, '/');
		g_autoptr(GArray) segments = g_array_new(FALSE, FALSE, sizeof(struct segment));

		g_array_set_clear_func(segments, clear_segment);
		if (!check_template_name(template, name, end - name, error) ||
		    !parse_name(props, template, name, end - name, segments, error))
			return NULL;
		append_safe_name(path, segments);
		if (!*end)
			break;
		g_string_append_c(path, '/');
		name = end + 1;
	}
	return g_string_free(g_steal_pointer(&path), FALSE);
}

/*
 * The names of a relative path; NULL unless it is a plain relative path
 * (not empty, no leading '/', no empty, "." or ".." names) that cannot
 * leave the folder it is joined to.
 */
static char **split_relative(const char *relative_path, GError **error)
{
	g_auto(GStrv) names = NULL;
	gsize i;

	if (!*relative_path || relative_path[0] == '/')
		goto bad;
	names = g_strsplit(relative_path, "/", -1);
	for (i = 0; names[i]; i++) {
		if (!*names[i] || strcmp(names[i], ".") == 0 || strcmp(names[i], "..") == 0)
			goto bad;
	}
	return g_steal_pointer(&names);
bad:
	g_set_error(error, KM_EXPORT_ERROR, KM_EXPORT_ERROR_PATH,
		    "\"%s\" is not a relative path that stays inside the target folder",
		    relative_path);
	return NULL;
}

/*
 * Try number n of a file name: n = 1 is the name itself, then "stem (n).ext"
 * (the extension is what follows the last '.'), with the stem cut so that
 * the result still fits in KM_EXPORT_NAME_MAX bytes.
 */
static char *numbered_name(const char *name, guint n)
{
	g_autofree char *suffix = NULL;
	const char *dot = strrchr(name, '.');
	gsize stem_len, ext_len;

	if (n == 1)
		return g_strdup(name);
	suffix = g_strdup_printf(" (%u)", n);
	if (!dot || dot == name || strlen(dot) + strlen(suffix) >= KM_EXPORT_NAME_MAX)
		dot = name + strlen(name);
	ext_len = strlen(dot);
	stem_len = utf8_cut_length(name, dot - name,
				   KM_EXPORT_NAME_MAX - ext_len - strlen(suffix));
	return g_strdup_printf("%.*s%s%s", (int)stem_len, name, suffix, dot);
}

static void set_file_error(GError **error, int errnum, const char *what, const char *path)
{
	g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(errnum), "%s %s: %s", what,
		    path, g_strerror(errnum));
}

static void set_too_many_error(GError **error, const char *folder, const char *name)
{
	g_autofree char *path = g_build_filename(folder, name, NULL);

	g_set_error(error, KM_EXPORT_ERROR, KM_EXPORT_ERROR_TOO_MANY,
		    "%s and its numbered names up to (%d) all exist already", path,
		    KM_EXPORT_MAX_NUMBER);
}

/* dir and the names of a relative path but the last, joined. */
static char *join_folders(const char *dir, char **names)
{
	guint n = g_strv_length(names);
	g_autofree char *folders = NULL;
	char *last = names[n - 1];

	names[n - 1] = NULL;
	folders = g_strjoinv("/", names);
	names[n - 1] = last;
	return g_build_filename(dir, folders, NULL);
}

char *km_export_unique_path(const char *dir, const char *relative_path, GError **error)
{
	g_auto(GStrv) names = NULL;
	g_autofree char *folder = NULL;
	const char *last;
	guint n;

	g_return_val_if_fail(dir && relative_path, NULL);
	names = split_relative(relative_path, error);
	if (!names)
		return NULL;
	folder = join_folders(dir, names);
	last = names[g_strv_length(names) - 1];
	for (n = 1; n <= KM_EXPORT_MAX_NUMBER; n++) {
		g_autofree char *name = numbered_name(last, n);
		g_autofree char *path = g_build_filename(folder, name, NULL);
		struct stat st;

		if (lstat(path, &st) == 0)
			continue;
		if (errno != ENOENT) {
			set_file_error(error, errno, "cannot look at", path);
			return NULL;
		}
		return g_steal_pointer(&path);
	}
	set_too_many_error(error, folder, last);
	return NULL;
}

/* Make (when missing) and open the folder name below parent, never through a symlink. */
static int open_folder(int parent, const char *name, const char *path, GError **error)
{
	int fd;

	if (mkdirat(parent, name, 0755) < 0 && errno != EEXIST) {
		set_file_error(error, errno, "cannot create the folder", path);
		return -1;
	}
	fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0)
		return fd;
	if (errno == ENOTDIR || errno == ELOOP)
		g_set_error(error, KM_EXPORT_ERROR, KM_EXPORT_ERROR_IN_THE_WAY,
			    "cannot use the folder %s: a file or symlink of that name is in the way",
			    path);
	else
		set_file_error(error, errno, "cannot open the folder", path);
	return -1;
}

/* The folders of names (all but the last) below dir, made when missing; the last one's fd. */
static int open_folders(const char *dir, char **names, GError **error)
{
	g_autofree char *path = g_strdup(dir);
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	guint i;

	if (fd < 0) {
		set_file_error(error, errno, "cannot open the folder", dir);
		return -1;
	}
	for (i = 0; names[i] && names[i + 1] && fd >= 0; i++) {
		char *child = g_build_filename(path, names[i], NULL);
		int child_fd = open_folder(fd, names[i], child, error);

		g_free(path);
		path = child;
		close(fd);
		fd = child_fd;
	}
	return fd;
}

int km_export_create_unique(const char *dir, const char *relative_path, char **out_path,
			    GError **error)
{
	g_auto(GStrv) names = NULL;
	g_autofree char *folder = NULL;
	const char *last;
	int dir_fd;
	guint n;

	g_return_val_if_fail(dir && relative_path, -1);
	g_return_val_if_fail(!error || !*error, -1);
	names = split_relative(relative_path, error);
	if (!names)
		return -1;
	dir_fd = open_folders(dir, names, error);
	if (dir_fd < 0)
		return -1;
	folder = join_folders(dir, names);
	last = names[g_strv_length(names) - 1];
	for (n = 1; n <= KM_EXPORT_MAX_NUMBER; n++) {
		g_autofree char *name = numbered_name(last, n);
		g_autofree char *path = g_build_filename(folder, name, NULL);
		/* O_EXCL: fails on any existing name, a symlink too, without following it. */
		int fd = openat(dir_fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
				0644);

		if (fd < 0 && errno == EEXIST)
			continue;
		if (fd < 0)
			set_file_error(error, errno, "cannot create", path);
		else if (out_path)
			*out_path = g_steal_pointer(&path);
		close(dir_fd);
		return fd;
	}
	close(dir_fd);
	set_too_many_error(error, folder, last);
	return -1;
}
