/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "hostile-inputs.h"

#include <stdlib.h>
#include <string.h>

static void input_free(gpointer data)
{
	struct hostile_input *in = data;

	g_free((char *)in->c.name);
	g_free(in->file);
	g_free(in->test_path);
	g_free(in);
}

/* The group is the name's first word: one meson test runs each group. */
static char *test_path(const char *kind, const char *group, const char *name)
{
	const char *dash = strchr(name, '-');

	if (group)
		return g_strdup_printf("/hostile/%s/%s/%s", kind, group, name);
	return g_strdup_printf("/hostile/%s/%.*s/%s", kind, (int)(dash ? dash - name : 0), name,
			       name);
}

static void add_table(GPtrArray *inputs, const char *kind)
{
	size_t n;
	const struct hostile_case *cases = hostile_cases(&n);

	for (size_t i = 0; i < n; i++) {
		struct hostile_input *in = g_new0(struct hostile_input, 1);

		in->c = cases[i];
		in->c.name = g_strdup(cases[i].name);
		in->test_path = test_path(kind, NULL, in->c.name);
		g_ptr_array_add(inputs, in);
	}
}

static gint compare_inputs(gconstpointer a, gconstpointer b)
{
	const struct hostile_input *x = *(struct hostile_input *const *)a;
	const struct hostile_input *y = *(struct hostile_input *const *)b;

	return strcmp(x->c.name, y->c.name);
}

static void add_files(GPtrArray *inputs, const char *kind, const char *dir)
{
	GPtrArray *files = g_ptr_array_new();
	GDir *d = g_dir_open(dir, 0, NULL);
	const char *name;

	if (!d)
		return;
	while ((name = g_dir_read_name(d))) {
		struct hostile_input *in;

		if (!g_str_has_suffix(name, ".img"))
			continue;
		in = g_new0(struct hostile_input, 1);
		in->c = (struct hostile_case){
			.name = g_strndup(name, strlen(name) - 4),
			.why = "a committed regression image",
			.fsck = HF_ANY,
			.mount = HM_ANY,
			.target = HO_HELLO,
		};
		in->file = g_build_filename(dir, name, NULL);
		in->test_path = test_path(kind, "images", in->c.name);
		g_ptr_array_add(files, in);
	}
	g_dir_close(d);
	g_ptr_array_sort(files, compare_inputs);
	for (guint i = 0; i < files->len; i++)
		g_ptr_array_add(inputs, files->pdata[i]);
	g_ptr_array_unref(files);
}

GPtrArray *hostile_inputs(const char *kind, const char *images_dir)
{
	GPtrArray *inputs = g_ptr_array_new_with_free_func(input_free);

	add_table(inputs, kind);
	if (images_dir)
		add_files(inputs, kind, images_dir);
	return inputs;
}

void hostile_input_image(const struct hostile_input *in, struct hostile_image *img)
{
	GError *error = NULL;
	gchar *data;
	gsize len;

	if (!in->file) {
		hostile_build(&in->c, img);
		return;
	}
	if (!g_file_get_contents(in->file, &data, &len, &error))
		g_error("%s", error->message);
	memset(img, 0, sizeof(*img));
	/* hostile_image_free() uses free(): hand over a malloc'ed copy */
	img->data = malloc(len ? len : 1);
	g_assert_nonnull(img->data);
	memcpy(img->data, data, len);
	img->size = len;
	g_free(data);
}
