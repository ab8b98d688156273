/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-file-chooser.c - one call for both file dialog APIs.
 */
#define G_LOG_DOMAIN "km-file-chooser"

#include "config.h"

#include "km-file-chooser.h"

typedef struct {
	GObject *owner;
	KmFilesChosenFunc chosen;
} Request;

static void request_finish(Request *req, GListModel *model)
{
	g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func(g_object_unref);

	for (guint i = 0; model && i < g_list_model_get_n_items(model); i++)
		g_ptr_array_add(files, g_list_model_get_item(model, i));
	if (files->len)
		req->chosen(req->owner, files);
	g_object_unref(req->owner);
	g_free(req);
}

#if GTK_CHECK_VERSION(4, 10, 0)
static void on_dialog_done(GObject *source, GAsyncResult *result, gpointer data)
{
	GtkFileDialog *dialog = GTK_FILE_DIALOG(source);
	Request *req = data;
	g_autoptr(GListModel) model = NULL;
	g_autoptr(GFile) one = NULL;

	if (g_object_get_data(source, "km-multiple")) {
		model = gtk_file_dialog_open_multiple_finish(dialog, result, NULL);
	} else {
		one = g_object_get_data(source, "km-folder") ?
		      gtk_file_dialog_select_folder_finish(dialog, result, NULL) :
		      gtk_file_dialog_open_finish(dialog, result, NULL);
		if (one) {
			GListStore *store = g_list_store_new(G_TYPE_FILE);

			g_list_store_append(store, one);
			model = G_LIST_MODEL(store);
		}
	}
	request_finish(req, model);
}

static void choose(GtkWidget *owner, const char *title, const char *accept_label, gboolean folder,
		   gboolean multiple, GFile *initial, KmFilesChosenFunc chosen)
{
	g_autoptr(GtkFileDialog) dialog = gtk_file_dialog_new();
	GtkWindow *parent = GTK_WINDOW(gtk_widget_get_root(owner));
	Request *req = g_new0(Request, 1);

	req->owner = g_object_ref(G_OBJECT(owner));
	req->chosen = chosen;
	gtk_file_dialog_set_title(dialog, title);
	gtk_file_dialog_set_accept_label(dialog, accept_label);
	if (initial)
		gtk_file_dialog_set_initial_folder(dialog, initial);
	g_object_set_data(G_OBJECT(dialog), "km-multiple", GINT_TO_POINTER(multiple && !folder));
	g_object_set_data(G_OBJECT(dialog), "km-folder", GINT_TO_POINTER(folder));
	if (folder)
		gtk_file_dialog_select_folder(dialog, parent, NULL, on_dialog_done, req);
	else if (multiple)
		gtk_file_dialog_open_multiple(dialog, parent, NULL, on_dialog_done, req);
	else
		gtk_file_dialog_open(dialog, parent, NULL, on_dialog_done, req);
}
#else
static void on_native_response(GtkNativeDialog *native, int response, gpointer data)
{
	g_autoptr(GListModel) model = NULL;

	if (response == GTK_RESPONSE_ACCEPT)
		model = gtk_file_chooser_get_files(GTK_FILE_CHOOSER(native));
	request_finish(data, model);
	gtk_native_dialog_destroy(native);
	g_object_unref(native);
}

static void choose(GtkWidget *owner, const char *title, const char *accept_label, gboolean folder,
		   gboolean multiple, GFile *initial, KmFilesChosenFunc chosen)
{
	GtkFileChooserNative *native;
	Request *req = g_new0(Request, 1);

	req->owner = g_object_ref(G_OBJECT(owner));
	req->chosen = chosen;
	native = gtk_file_chooser_native_new(title, GTK_WINDOW(gtk_widget_get_root(owner)),
					     folder ? GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER :
					     GTK_FILE_CHOOSER_ACTION_OPEN, accept_label, NULL);
	gtk_file_chooser_set_select_multiple(GTK_FILE_CHOOSER(native), multiple);
	if (initial)
		gtk_file_chooser_set_current_folder(GTK_FILE_CHOOSER(native), initial, NULL);
	gtk_native_dialog_set_modal(GTK_NATIVE_DIALOG(native), TRUE);
	g_signal_connect(native, "response", G_CALLBACK(on_native_response), req);
	gtk_native_dialog_show(GTK_NATIVE_DIALOG(native));
}
#endif

void km_choose_files(GtkWidget *owner, const char *title, const char *accept_label,
		     gboolean folder, gboolean multiple, KmFilesChosenFunc chosen)
{
	choose(owner, title, accept_label, folder, multiple, NULL, chosen);
}

void km_choose_folder_from(GtkWidget *owner, const char *title, const char *accept_label,
			   GFile *initial, KmFilesChosenFunc chosen)
{
	choose(owner, title, accept_label, TRUE, FALSE, initial, chosen);
}
