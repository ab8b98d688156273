/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-export.c - export file names: template expansion, every sanitizing
 * rule against hostile property values, and collisions in a real folder.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "km-export.h"

/* Properties of fid 0x110 from key, value, ... NULL. */
static KmProperties *props_new(const char *key, ...)
{
	KmProperties *props = km_properties_new();
	va_list ap;

	km_properties_set_fid(props, 0x110);
	va_start(ap, key);
	for (; key; key = va_arg(ap, const char *))
		km_properties_set(props, key, va_arg(ap, const char *));
	va_end(ap);
	return props;
}

static KmProperties *full_tune(void)
{
	return props_new("type", "tune", "codec", "mp3", "artist", "Artist", "source", "Album",
			 "title", "Title", "genre", "Rock", "year", "1999", "tracknr", "1", NULL);
}

static char *expand_ok(const KmProperties *props, const char *template)
{
	g_autoptr(GError) error = NULL;
	char *path = km_export_relative_path(props, template, &error);

	g_assert_no_error(error);
	g_assert_nonnull(path);
	return path;
}

static void assert_expands(const KmProperties *props, const char *template, const char *expected)
{
	g_autofree char *path = expand_ok(props, template);

	g_assert_cmpstr(path, ==, expected);
}

/* Every rule of km-export.h that a result must obey, whatever went in. */
static void assert_safe(const char *path)
{
	g_auto(GStrv) names = g_strsplit(path, "/", -1);
	gsize i;

	g_assert_true(g_utf8_validate(path, -1, NULL));
	g_assert_cmpint(path[0], !=, '/');
	for (i = 0; names[i]; i++) {
		const char *name = names[i];
		gsize len = strlen(name);
		const char *p;

		g_assert_cmpuint(len, >, 0);
		g_assert_cmpuint(len, <=, KM_EXPORT_NAME_MAX);
		g_assert_cmpint(name[0], !=, '.');
		g_assert_cmpint(name[0], !=, ' ');
		g_assert_cmpint(name[len - 1], !=, '.');
		g_assert_cmpint(name[len - 1], !=, ' ');
		for (p = name; *p; p = g_utf8_next_char(p))
			g_assert_false(g_unichar_iscntrl(g_utf8_get_char(p)));
	}
}

static guint count_names(const char *path)
{
	g_auto(GStrv) names = g_strsplit(path, "/", -1);

	return g_strv_length(names);
}

static void test_default_template(void)
{
	g_autoptr(KmProperties) props = full_tune();

	assert_expands(props, KM_EXPORT_DEFAULT_TEMPLATE, "Artist/Album/01 Title.mp3");
	assert_expands(props, NULL, "Artist/Album/01 Title.mp3");
}

static void test_every_letter(void)
{
	g_autoptr(KmProperties) props = full_tune();

	assert_expands(props, "%a|%s|%t|%g|%y|%n|%c|%f|%%",
		       "Artist|Album|Title|Rock|1999|01|mp3|00000110|%");
	assert_expands(props, "%y - %s/%%%n%%", "1999 - Album/%01%");
	assert_expands(props, "plain", "plain");
	assert_expands(props, "%f/%f.%c", "00000110/00000110.mp3");
	km_properties_set_fid(props, 0xabcdef0);
	assert_expands(props, "%f", "0abcdef0");
}

static void test_track_numbers(void)
{
	static const struct {
		const char *tracknr;	/* NULL: absent */
		const char *expected;
	} vectors[] = {
		{ "0", "00" }, { "7", "07" }, { "12", "12" }, { "123", "123" },
		{ "0x0a", "10" }, { "abc", "00" }, { "", "00" }, { "-3", "00" },
		{ NULL, "00" },
	};
	gsize i;

	for (i = 0; i < G_N_ELEMENTS(vectors); i++) {
		g_autoptr(KmProperties) props = full_tune();

		if (vectors[i].tracknr)
			km_properties_set(props, "tracknr", vectors[i].tracknr);
		else
			g_assert_true(km_properties_remove(props, "tracknr"));
		assert_expands(props, "%n", vectors[i].expected);
	}
}

static void test_codecs(void)
{
	static const struct {
		const char *codec;	/* NULL: absent */
		const char *expected;
	} vectors[] = {
		{ "mp3", "01 Title.mp3" }, { "vorbis", "01 Title.ogg" }, { "flac", "01 Title.flac" },
		{ "wave", "01 Title.wav" }, { "wma", "01 Title.wma" },
		/* a data file: the title is the file name, the dangling '.' goes */
		{ "taxi", "01 Title" },
		{ "aac", "01 Title.bin" }, { "../x", "01 Title.bin" }, { "MP3", "01 Title.bin" },
		{ NULL, "01 Title.bin" },
	};
	gsize i;

	for (i = 0; i < G_N_ELEMENTS(vectors); i++) {
		g_autoptr(KmProperties) props = full_tune();

		if (vectors[i].codec)
			km_properties_set(props, "codec", vectors[i].codec);
		else
			g_assert_true(km_properties_remove(props, "codec"));
		assert_expands(props, "%n %t.%c", vectors[i].expected);
	}
}

static void test_placeholders(void)
{
	g_autoptr(KmProperties) empty = props_new(NULL);
	/* Values that show nothing are as good as absent. */
	static const char *const blanks[] = { "", "   ", ".", "..", "...", " . . ", "\t", "\n", ". \x01" };
	gsize i;

	assert_expands(empty, NULL, "Unknown Artist/Unknown Album/00 00000110.bin");
	assert_expands(empty, "%g/%y", "Unknown Genre/Unknown Year");
	for (i = 0; i < G_N_ELEMENTS(blanks); i++) {
		g_autoptr(KmProperties) props = props_new("artist", blanks[i], "source", blanks[i],
							  "title", blanks[i], "genre", blanks[i],
							  "year", blanks[i], "codec", "mp3", NULL);

		assert_expands(props, "%a/%s/%g %y/%n %t.%c",
			       "Unknown Artist/Unknown Album/Unknown Genre Unknown Year/00 00000110.mp3");
	}
}

static void assert_template_error(const char *template)
{
	g_autoptr(KmProperties) props = full_tune();
	g_autoptr(GError) error = NULL;
	char *path = km_export_relative_path(props, template, &error);

	g_assert_error(error, KM_EXPORT_ERROR, KM_EXPORT_ERROR_TEMPLATE);
	g_assert_null(path);
	g_test_message("%s", error->message);
}

static void test_template_errors(void)
{
	static const char *const bad[] = {
		"", "%", "%t%", "%q", "%A", "%n %T", "%\xc3\xa9", "%/x",
		"/abs/%t", "/", "a//%t", "%a/", "../%t", "./%t", "%a/../%t", "%a/./%t", "..",
		"\xff%t", "%t\xc3",
	};
	gsize i;

	for (i = 0; i < G_N_ELEMENTS(bad); i++)
		assert_template_error(bad[i]);
}

/* One hostile value in every free-text property, through a few templates. */
static void test_hostile_values(void)
{
	static const struct {
		const char *value;
		const char *as_folder;	/* "%a" */
		const char *in_name;	/* "%n %t.%c" with the value as title */
	} vectors[] = {
		{ "../../etc", "_.._etc", "01 .._.._etc.mp3" },
		{ "/abs", "_abs", "01 _abs.mp3" },
		{ "a/b", "a_b", "01 a_b.mp3" },
		{ "AC/DC", "AC_DC", "01 AC_DC.mp3" },
		{ ".hidden", "hidden", "01 .hidden.mp3" },
		{ "...And You Will Know Us", "And You Will Know Us", "01 ...And You Will Know Us.mp3" },
		{ "name.", "name", "01 name..mp3" },
		{ "name. . ", "name", "01 name. ..mp3" },
		{ "  spaced  ", "spaced", "01 spaced.mp3" },
		{ "a\tb\x01" "c\x7f" "d\x1b[31m", "a_b_c_d_[31m", "01 a_b_c_d_[31m.mp3" },
		{ "next\xc2\x85line", "next_line", "01 next_line.mp3" },	/* U+0085, a C1 control */
		{ "line\nbreak", "line break", "01 line break.mp3" },	/* km_properties_set: '\n' -> ' ' */
		{ "%t %a", "%t %a", "01 %t %a.mp3" },	/* values are not templates */
		{ "\xe2\x80\xae" "3pm.exe", "\xe2\x80\xae" "3pm.exe", "01 \xe2\x80\xae" "3pm.exe.mp3" },
	};
	gsize i;

	for (i = 0; i < G_N_ELEMENTS(vectors); i++) {
		g_autoptr(KmProperties) props = full_tune();
		g_autofree char *path = NULL;

		km_properties_set(props, "artist", vectors[i].value);
		km_properties_set(props, "title", vectors[i].value);
		assert_expands(props, "%a", vectors[i].as_folder);
		assert_expands(props, "%n %t.%c", vectors[i].in_name);
		path = expand_ok(props, KM_EXPORT_DEFAULT_TEMPLATE);
		assert_safe(path);
		g_assert_true(g_str_has_prefix(path, vectors[i].as_folder));
		g_assert_true(g_str_has_suffix(path, vectors[i].in_name));
		/* exactly the template's folders: nothing added, nothing escaped */
		g_assert_cmpuint(count_names(path), ==, 3);
	}
}

/* The template's own text obeys the same rules, except what is a mistake. */
static void test_template_text_sanitized(void)
{
	g_autoptr(KmProperties) props = full_tune();

	assert_expands(props, ".%t", "Title");
	assert_expands(props, "...x/ %t. ", "x/Title");
	assert_expands(props, "..x/%t", "x/Title");
	assert_expands(props, "a\tb/%t", "a_b/Title");
	assert_expands(props, "%%.", "%");
	assert_expands(props, "...%c", "mp3");
	km_properties_set(props, "codec", "taxi");
	assert_expands(props, "%c/%t.%c", "_/Title");
}

/* Count the characters of s before the first occurrence of c. */
static gsize chars_before(const char *s, char c)
{
	const char *end = strchr(s, c);

	g_assert_nonnull(end);
	return end - s;
}

static void test_long_names(void)
{
	/* 1-, 2-, 3- and 4-byte characters, so that cuts land inside them */
	static const char *const units[] = { "x", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9d\x84\x9e" };
	gsize i, pad;

	for (i = 0; i < G_N_ELEMENTS(units); i++) {
		for (pad = 0; pad < 4; pad++) {
			g_autoptr(KmProperties) props = full_tune();
			g_autoptr(GString) value = g_string_new(NULL);
			g_autofree char *path = NULL;
			g_auto(GStrv) names = NULL;

			g_string_append_len(value, "abc", pad);
			while (value->len < 2000)
				g_string_append(value, units[i]);
			km_properties_set(props, "artist", value->str);
			km_properties_set(props, "source", value->str);
			km_properties_set(props, "title", value->str);
			path = expand_ok(props, NULL);
			assert_safe(path);
			names = g_strsplit(path, "/", -1);
			g_assert_cmpuint(g_strv_length(names), ==, 3);
			/* cut as close to the limit as the characters allow */
			g_assert_cmpuint(strlen(names[0]), >, KM_EXPORT_NAME_MAX - 4);
			g_assert_cmpuint(strlen(names[2]), >, KM_EXPORT_NAME_MAX - 4);
			/* the track number and the extension stay */
			g_assert_true(g_str_has_prefix(names[2], "01 "));
			g_assert_true(g_str_has_suffix(names[2], ".mp3"));
			g_assert_true(g_str_has_prefix(value->str, names[0]));
		}
	}
}

/* Two long values in one name share the room; neither disappears. */
static void test_long_names_shared(void)
{
	g_autoptr(KmProperties) props = full_tune();
	g_autofree char *long_a = g_strnfill(600, 'a');
	g_autofree char *long_t = g_strnfill(300, 't');
	g_autofree char *path = NULL;

	km_properties_set(props, "artist", long_a);
	km_properties_set(props, "title", long_t);
	path = expand_ok(props, "%a - %n - %t.%c");
	assert_safe(path);
	g_assert_cmpuint(strlen(path), ==, KM_EXPORT_NAME_MAX);
	g_assert_true(g_str_has_suffix(path, "t.mp3"));
	/* 255 - " - 01 - " - ".mp3" = 243 bytes for the two, split evenly */
	g_assert_cmpuint(chars_before(path, ' '), >=, 121);
	g_assert_cmpuint(chars_before(path, ' '), <=, 122);
	g_assert_nonnull(strstr(path, " - 01 - "));
}

/* Only template text longer than a name: cut as well, still safe. */
static void test_long_template_text(void)
{
	g_autoptr(KmProperties) props = full_tune();
	g_autofree char *long_text = g_strnfill(400, 'L');
	g_autofree char *template = g_strconcat(long_text, "%t/", long_text, NULL);
	g_autofree char *path = expand_ok(props, template);

	assert_safe(path);
	g_assert_cmpuint(strlen(path), ==, 2 * KM_EXPORT_NAME_MAX + 1);
}

/* Random hostile values and templates: every result obeys every rule. */
static void test_random_hostile(void)
{
	static const char *const pieces[] = {
		"/", "..", ".", " ", "\t", "\x01", "\x7f", "\xc2\x85", "\n", "%", "%t", "x", "Ab",
		"\xc3\xa9", "\xe2\x82\xac", "\xf0\x9d\x84\x9e", "\\", "~", "-",
	};
	static const char *const template_pieces[] = {
		"%a", "%s", "%t", "%n", "%g", "%y", "%c", "%f", "%%", "/", ".", " ", "x", "-", "\t",
	};
	static const char *const keys[] = { "artist", "source", "title", "genre", "year", "tracknr",
					    "codec" };
	GRand *rand = g_rand_new_with_seed(3);
	guint round;

	for (round = 0; round < 3000; round++) {
		g_autoptr(KmProperties) props = props_new(NULL);
		g_autoptr(GString) template = g_string_new(NULL);
		g_autoptr(GError) error = NULL;
		g_autofree char *path = NULL;
		gsize k;
		gint n;

		for (k = 0; k < G_N_ELEMENTS(keys); k++) {
			g_autoptr(GString) value = g_string_new(NULL);
			gint len = g_rand_int_range(rand, 0, round % 10 == 0 ? 400 : 12);

			for (n = 0; n < len; n++)
				g_string_append(value, pieces[g_rand_int_range(rand, 0, G_N_ELEMENTS(pieces))]);
			km_properties_set(props, keys[k], value->str);
		}
		n = g_rand_int_range(rand, 1, 10);
		while (n--)
			g_string_append(template, template_pieces[g_rand_int_range(
					rand, 0, G_N_ELEMENTS(template_pieces))]);
		path = km_export_relative_path(props, template->str, &error);
		if (!path) {
			/* only the template's own mistakes are errors */
			g_assert_error(error, KM_EXPORT_ERROR, KM_EXPORT_ERROR_TEMPLATE);
			continue;
		}
		g_assert_no_error(error);
		assert_safe(path);
		/* folders come from the template's '/' only */
		g_assert_cmpuint(count_names(path), ==, count_names(template->str));
	}
	g_rand_free(rand);
}

/* What km-properties.h promises about the values km_export sees. */
static void test_properties_contract(void)
{
	g_autoptr(KmProperties) props = full_tune();
	g_autoptr(GError) error = NULL;
	static const char bad_file[] = "title=ab\xff\xfe" "cd\n";
	KmProperties *parsed;

	/* invalid UTF-8 is refused: the old value stays */
	g_test_expect_message(NULL, G_LOG_LEVEL_CRITICAL, "*utf8*");
	km_properties_set(props, "title", "bad\xff");
	g_test_assert_expected_messages();
	g_assert_cmpstr(km_properties_get(props, "title"), ==, "Title");
	/* a line break becomes a space */
	km_properties_set(props, "title", "a\nb");
	g_assert_cmpstr(km_properties_get(props, "title"), ==, "a b");
	/* a file with invalid UTF-8 does not parse */
	parsed = km_properties_parse(bad_file, sizeof(bad_file) - 1, &error);
	g_assert_null(parsed);
	g_assert_error(error, KM_PROPERTIES_ERROR, KM_PROPERTIES_ERROR_ENCODING);
}

/* ----- collisions, in a real folder ----- */

static char *make_tmp_dir(void)
{
	g_autoptr(GError) error = NULL;
	char *dir = g_dir_make_tmp("km-export-XXXXXX", &error);

	g_assert_no_error(error);
	return dir;
}

static void remove_tree(const char *path)
{
	struct stat st;
	GDir *dir;
	const char *name;

	g_assert_cmpint(lstat(path, &st), ==, 0);
	if (S_ISDIR(st.st_mode)) {
		dir = g_dir_open(path, 0, NULL);
		g_assert_nonnull(dir);
		while ((name = g_dir_read_name(dir))) {
			g_autofree char *child = g_build_filename(path, name, NULL);

			remove_tree(child);
		}
		g_dir_close(dir);
		g_assert_cmpint(g_rmdir(path), ==, 0);
	} else {
		g_assert_cmpint(g_unlink(path), ==, 0);
	}
}

static void write_file(const char *path, const char *contents)
{
	g_autoptr(GError) error = NULL;

	g_file_set_contents(path, contents, -1, &error);
	g_assert_no_error(error);
}

static void assert_contents(const char *path, const char *expected)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *contents = NULL;

	g_file_get_contents(path, &contents, NULL, &error);
	g_assert_no_error(error);
	g_assert_cmpstr(contents, ==, expected);
}

/* km_export_create_unique, write contents, close; the created path. */
static char *create_with(const char *dir, const char *rel, const char *contents)
{
	g_autoptr(GError) error = NULL;
	char *path = NULL;
	int fd = km_export_create_unique(dir, rel, &path, &error);

	g_assert_no_error(error);
	g_assert_cmpint(fd, >=, 0);
	g_assert_nonnull(path);
	g_assert_cmpint(write(fd, contents, strlen(contents)), ==, (gssize)strlen(contents));
	g_assert_cmpint(close(fd), ==, 0);
	return path;
}

static void assert_path(const char *path, const char *dir, const char *rel)
{
	g_autofree char *expected = g_build_filename(dir, rel, NULL);

	g_assert_cmpstr(path, ==, expected);
}

static void test_create_numbering(void)
{
	g_autofree char *dir = make_tmp_dir();
	const char *rel = "Artist/Album/01 Title.mp3";
	g_autofree char *first = create_with(dir, rel, "one");
	g_autofree char *second = create_with(dir, rel, "two");
	g_autofree char *third = create_with(dir, rel, "three");
	g_autofree char *plain = create_with(dir, "Artist/README", "r1");
	g_autofree char *plain2 = create_with(dir, "Artist/README", "r2");
	g_autofree char *many = create_with(dir, "a.tar.gz", "t1");
	g_autofree char *many2 = create_with(dir, "a.tar.gz", "t2");

	assert_path(first, dir, "Artist/Album/01 Title.mp3");
	assert_path(second, dir, "Artist/Album/01 Title (2).mp3");
	assert_path(third, dir, "Artist/Album/01 Title (3).mp3");
	assert_path(plain2, dir, "Artist/README (2)");
	assert_path(many2, dir, "a.tar (2).gz");
	/* nothing overwritten */
	assert_contents(first, "one");
	assert_contents(second, "two");
	assert_contents(third, "three");
	assert_contents(plain, "r1");
	assert_contents(many, "t1");
	remove_tree(dir);
}

static void test_unique_path(void)
{
	g_autofree char *dir = make_tmp_dir();
	g_autoptr(GError) error = NULL;
	g_autofree char *free_path = NULL;
	g_autofree char *taken = NULL;
	g_autofree char *dangling = NULL;
	g_autofree char *target = NULL;
	g_autofree char *link = NULL;

	/* nothing there yet, not even the folders */
	free_path = km_export_unique_path(dir, "A/B/01 T.mp3", &error);
	g_assert_no_error(error);
	assert_path(free_path, dir, "A/B/01 T.mp3");
	g_free(create_with(dir, "A/B/01 T.mp3", "x"));
	g_free(create_with(dir, "A/B/01 T.mp3", "y"));
	taken = km_export_unique_path(dir, "A/B/01 T.mp3", &error);
	g_assert_no_error(error);
	assert_path(taken, dir, "A/B/01 T (3).mp3");
	/* a dangling symlink is taken too */
	target = g_build_filename(dir, "nowhere", NULL);
	link = g_build_filename(dir, "A/B/02 U.mp3", NULL);
	g_assert_cmpint(symlink(target, link), ==, 0);
	dangling = km_export_unique_path(dir, "A/B/02 U.mp3", &error);
	g_assert_no_error(error);
	assert_path(dangling, dir, "A/B/02 U (2).mp3");
	remove_tree(dir);
}

static void test_bad_relative_paths(void)
{
	static const char *const bad[] = {
		"", "/x", "/", "../x", "a/../x", "a/..", "..", ".", "./x", "a//b", "a/", "a/./b",
	};
	g_autofree char *dir = make_tmp_dir();
	gsize i;

	for (i = 0; i < G_N_ELEMENTS(bad); i++) {
		g_autoptr(GError) error = NULL;
		g_autoptr(GError) error2 = NULL;
		char *path = (char *)1;
		char *unique = km_export_unique_path(dir, bad[i], &error);
		int fd = km_export_create_unique(dir, bad[i], &path, &error2);

		g_assert_null(unique);
		g_assert_error(error, KM_EXPORT_ERROR, KM_EXPORT_ERROR_PATH);
		g_assert_cmpint(fd, ==, -1);
		g_assert_error(error2, KM_EXPORT_ERROR, KM_EXPORT_ERROR_PATH);
		g_assert_true(path == (char *)1);
	}
	/* nothing was created */
	g_assert_cmpint(g_rmdir(dir), ==, 0);
}

/* Symlinks and files below the target folder are never gone through. */
static void test_in_the_way(void)
{
	g_autofree char *dir = make_tmp_dir();
	g_autofree char *outside = make_tmp_dir();
	g_autofree char *link = g_build_filename(dir, "Linked", NULL);
	g_autofree char *file = g_build_filename(dir, "File", NULL);
	g_autofree char *victim = g_build_filename(outside, "victim.mp3", NULL);
	g_autofree char *file_link = g_build_filename(dir, "victim.mp3", NULL);
	g_autofree char *created = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(GError) error2 = NULL;
	char *path = NULL;

	g_assert_cmpint(symlink(outside, link), ==, 0);
	write_file(file, "file");
	write_file(victim, "precious");
	g_assert_cmpint(symlink(victim, file_link), ==, 0);

	/* a symlink where a folder must be */
	g_assert_cmpint(km_export_create_unique(dir, "Linked/x.mp3", &path, &error), ==, -1);
	g_assert_error(error, KM_EXPORT_ERROR, KM_EXPORT_ERROR_IN_THE_WAY);
	g_assert_null(path);
	/* a file where a folder must be */
	g_assert_cmpint(km_export_create_unique(dir, "File/x.mp3", &path, &error2), ==, -1);
	g_assert_error(error2, KM_EXPORT_ERROR, KM_EXPORT_ERROR_IN_THE_WAY);
	assert_contents(file, "file");
	/* a symlink with the file's name: a numbered name, the target untouched */
	created = create_with(dir, "victim.mp3", "new");
	assert_path(created, dir, "victim (2).mp3");
	assert_contents(victim, "precious");
	/* the outside folder holds only the victim */
	{
		GDir *d = g_dir_open(outside, 0, NULL);

		g_assert_cmpstr(g_dir_read_name(d), ==, "victim.mp3");
		g_assert_null(g_dir_read_name(d));
		g_dir_close(d);
	}
	remove_tree(dir);
	remove_tree(outside);
}

/* A name at the length limit keeps its extension and its UTF-8 when numbered. */
static void test_numbered_long_name(void)
{
	g_autofree char *dir = make_tmp_dir();
	g_autoptr(GString) name = g_string_new(NULL);
	g_autofree char *first = NULL;
	g_autofree char *second = NULL;
	g_autofree char *base = NULL;

	while (name->len + 2 + 4 <= KM_EXPORT_NAME_MAX)
		g_string_append(name, "\xc3\xa9");
	g_string_append(name, "x.mp3");
	g_assert_cmpuint(name->len, ==, KM_EXPORT_NAME_MAX);
	first = create_with(dir, name->str, "1");
	second = create_with(dir, name->str, "2");
	base = g_path_get_basename(second);
	g_assert_cmpuint(strlen(base), <=, KM_EXPORT_NAME_MAX);
	g_assert_true(g_utf8_validate(base, -1, NULL));
	g_assert_true(g_str_has_suffix(base, " (2).mp3"));
	assert_contents(first, "1");
	remove_tree(dir);
}

/* Every numbered name taken: an error, and nothing overwritten. */
static void test_too_many(void)
{
	g_autofree char *dir = make_tmp_dir();
	g_autoptr(GError) error = NULL;
	g_autoptr(GError) error2 = NULL;
	g_autofree char *unique = NULL;
	char *path = NULL;
	guint n;

	for (n = 1; n <= KM_EXPORT_MAX_NUMBER; n++) {
		g_autofree char *name = n == 1 ? g_strdup("t.mp3") : g_strdup_printf("t (%u).mp3", n);
		g_autofree char *file = g_build_filename(dir, name, NULL);
		int fd = open(file, O_WRONLY | O_CREAT | O_EXCL, 0644);

		g_assert_cmpint(fd, >=, 0);
		close(fd);
	}
	unique = km_export_unique_path(dir, "t.mp3", &error);
	g_assert_null(unique);
	g_assert_error(error, KM_EXPORT_ERROR, KM_EXPORT_ERROR_TOO_MANY);
	g_assert_cmpint(km_export_create_unique(dir, "t.mp3", &path, &error2), ==, -1);
	g_assert_error(error2, KM_EXPORT_ERROR, KM_EXPORT_ERROR_TOO_MANY);
	g_assert_null(path);
	remove_tree(dir);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/export/default-template", test_default_template);
	g_test_add_func("/export/every-letter", test_every_letter);
	g_test_add_func("/export/track-numbers", test_track_numbers);
	g_test_add_func("/export/codecs", test_codecs);
	g_test_add_func("/export/placeholders", test_placeholders);
	g_test_add_func("/export/template-errors", test_template_errors);
	g_test_add_func("/export/hostile-values", test_hostile_values);
	g_test_add_func("/export/template-text-sanitized", test_template_text_sanitized);
	g_test_add_func("/export/long-names", test_long_names);
	g_test_add_func("/export/long-names-shared", test_long_names_shared);
	g_test_add_func("/export/long-template-text", test_long_template_text);
	g_test_add_func("/export/random-hostile", test_random_hostile);
	g_test_add_func("/export/properties-contract", test_properties_contract);
	g_test_add_func("/export/create-numbering", test_create_numbering);
	g_test_add_func("/export/unique-path", test_unique_path);
	g_test_add_func("/export/bad-relative-paths", test_bad_relative_paths);
	g_test_add_func("/export/in-the-way", test_in_the_way);
	g_test_add_func("/export/numbered-long-name", test_numbered_long_name);
	g_test_add_func("/export/too-many", test_too_many);
	return g_test_run();
}
