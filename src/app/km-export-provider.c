/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-export-provider.c - a content provider that exports lazily.
 *
 * The file list is served as a value (local drops, once ready) and through
 * GDK's serializers for its mime types (text/uri-list and the portal's),
 * which is how other programs receive it; write requests that come before
 * the export is done wait for it.
 */
#define G_LOG_DOMAIN "km-export-provider"

#include "config.h"

#include <glib/gi18n.h>
#include <gtk/gtk.h>

#include "km-app-util.h"
#include "km-export-provider.h"

struct _KmExportProvider {
	GdkContentProvider parent_instance;
	GArray *fids;
	GPtrArray *files;	/* GFile, the exported ones */
	GPtrArray *waiting;	/* GTask, write requests before ready */
	GError *error;
	gboolean ready;
};

G_DEFINE_FINAL_TYPE(KmExportProvider, km_export_provider, GDK_TYPE_CONTENT_PROVIDER)

static GdkContentFormats *file_list_formats(void)
{
	GdkContentFormats *formats = gdk_content_formats_new_for_gtype(GDK_TYPE_FILE_LIST);

	return gdk_content_formats_union_serialize_mime_types(formats);
}

static GdkContentFormats *ref_formats(GdkContentProvider *provider)
{
	GdkContentFormatsBuilder *builder = gdk_content_formats_builder_new();
	g_autoptr(GdkContentFormats) files = file_list_formats();

	gdk_content_formats_builder_add_gtype(builder, KM_TYPE_FID_LIST);
	gdk_content_formats_builder_add_formats(builder, files);
	return gdk_content_formats_builder_free_to_formats(builder);
}

static GdkContentFormats *ref_storable_formats(GdkContentProvider *provider)
{
	return file_list_formats();
}

static void file_list_value(KmExportProvider *self, GValue *value)
{
	GSList *list = NULL;

	for (guint i = self->files->len; i > 0; i--)
		list = g_slist_prepend(list, self->files->pdata[i - 1]);
	g_value_init(value, GDK_TYPE_FILE_LIST);
	g_value_take_boxed(value, gdk_file_list_new_from_list(list));
	g_slist_free(list);
}

static gboolean get_value(GdkContentProvider *provider, GValue *value, GError **error)
{
	KmExportProvider *self = KM_EXPORT_PROVIDER(provider);

	if (G_VALUE_HOLDS(value, KM_TYPE_FID_LIST)) {
		g_value_set_boxed(value, self->fids);
		return TRUE;
	}
	if (G_VALUE_HOLDS(value, GDK_TYPE_FILE_LIST) && self->ready && !self->error) {
		g_auto(GValue) files = G_VALUE_INIT;

		file_list_value(self, &files);
		g_value_copy(&files, value);
		return TRUE;
	}
	g_set_error_literal(error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
			    self->error ? self->error->message : _("the export is not done yet"));
	return FALSE;
}

static void on_serialized(GObject *source, GAsyncResult *result, gpointer data)
{
	g_autoptr(GTask) task = data;
	GError *error = NULL;

	if (gdk_content_serialize_finish(result, &error))
		g_task_return_boolean(task, TRUE);
	else
		g_task_return_error(task, error);
}

static void serve(KmExportProvider *self, GTask *task)
{
	g_auto(GValue) value = G_VALUE_INIT;

	if (self->error) {
		g_task_return_error(task, g_error_copy(self->error));
		g_object_unref(task);
		return;
	}
	file_list_value(self, &value);
	gdk_content_serialize_async(g_task_get_task_data(task), g_object_get_data(G_OBJECT(task),
				    "km-mime-type"), &value, g_task_get_priority(task),
				    g_task_get_cancellable(task), on_serialized, task);
}

static void write_mime_type_async(GdkContentProvider *provider, const char *mime_type,
				  GOutputStream *stream, int io_priority,
				  GCancellable *cancellable, GAsyncReadyCallback callback,
				  gpointer data)
{
	KmExportProvider *self = KM_EXPORT_PROVIDER(provider);
	GTask *task = g_task_new(self, cancellable, callback, data);

	g_task_set_source_tag(task, write_mime_type_async);
	g_task_set_priority(task, io_priority);
	g_task_set_task_data(task, g_object_ref(stream), g_object_unref);
	g_object_set_data(G_OBJECT(task), "km-mime-type", (gpointer)g_intern_string(mime_type));
	if (self->ready)
		serve(self, task);
	else
		g_ptr_array_add(self->waiting, task);
}

static gboolean write_mime_type_finish(GdkContentProvider *provider, GAsyncResult *result,
				       GError **error)
{
	return g_task_propagate_boolean(G_TASK(result), error);
}

static void on_exported(GObject *source, GAsyncResult *result, gpointer data)
{
	g_autoptr(KmExportProvider) self = data;
	g_autoptr(KmReport) report = km_session_export_finish(KM_SESSION(source), result,
							       &self->error);

	for (guint i = 0; report && i < report->items->len; i++) {
		KmReportItem *item = report->items->pdata[i];

		if (item->outcome == KM_ITEM_DONE && item->file)
			g_ptr_array_add(self->files, g_object_ref(item->file));
	}
	if (!self->error && report && report->error)
		self->error = g_error_copy(report->error);
	self->ready = TRUE;
	for (guint i = 0; i < self->waiting->len; i++)
		serve(self, self->waiting->pdata[i]);
	g_ptr_array_set_size(self->waiting, 0);
	gdk_content_provider_content_changed(GDK_CONTENT_PROVIDER(self));
}

static void km_export_provider_finalize(GObject *object)
{
	KmExportProvider *self = KM_EXPORT_PROVIDER(object);

	g_array_unref(self->fids);
	g_ptr_array_unref(self->files);
	g_ptr_array_unref(self->waiting);
	g_clear_error(&self->error);
	G_OBJECT_CLASS(km_export_provider_parent_class)->finalize(object);
}

static void km_export_provider_class_init(KmExportProviderClass *klass)
{
	GdkContentProviderClass *provider_class = GDK_CONTENT_PROVIDER_CLASS(klass);

	G_OBJECT_CLASS(klass)->finalize = km_export_provider_finalize;
	provider_class->ref_formats = ref_formats;
	provider_class->ref_storable_formats = ref_storable_formats;
	provider_class->get_value = get_value;
	provider_class->write_mime_type_async = write_mime_type_async;
	provider_class->write_mime_type_finish = write_mime_type_finish;
}

static void km_export_provider_init(KmExportProvider *self)
{
	self->files = g_ptr_array_new_with_free_func(g_object_unref);
	self->waiting = g_ptr_array_new();
}

GdkContentProvider *km_export_provider_new(KmSession *session, GArray *fids, GFile *folder,
					   const char *template)
{
	KmExportProvider *self = g_object_new(KM_TYPE_EXPORT_PROVIDER, NULL);

	self->fids = g_array_ref(fids);
	/* the provider lives as long as the drag, or until the export is done */
	km_session_export_async(session, (guint32 *)(void *)fids->data, fids->len, folder,
				template, NULL, NULL, NULL, NULL, on_exported, g_object_ref(self));
	return GDK_CONTENT_PROVIDER(self);
}

gboolean km_export_provider_is_ready(KmExportProvider *self)
{
	g_return_val_if_fail(KM_IS_EXPORT_PROVIDER(self), FALSE);
	return self->ready;
}
