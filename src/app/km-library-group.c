/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-library-group.c - an artist or an album node of the library tree.
 */
#define G_LOG_DOMAIN "km-library-group"

#include "config.h"

#include <glib/gi18n.h>

#include "km-library-group.h"
#include "km-track.h"

struct _KmLibraryGroup {
	GObject parent_instance;
	KmLibraryGroupKind kind;
	char *name;
	GListStore *children;
};

G_DEFINE_FINAL_TYPE(KmLibraryGroup, km_library_group, G_TYPE_OBJECT)

static void km_library_group_finalize(GObject *object)
{
	KmLibraryGroup *self = KM_LIBRARY_GROUP(object);

	g_free(self->name);
	g_clear_object(&self->children);
	G_OBJECT_CLASS(km_library_group_parent_class)->finalize(object);
}

static void km_library_group_class_init(KmLibraryGroupClass *klass)
{
	G_OBJECT_CLASS(klass)->finalize = km_library_group_finalize;
}

static void km_library_group_init(KmLibraryGroup *self)
{
}

KmLibraryGroup *km_library_group_new(KmLibraryGroupKind kind, const char *name)
{
	KmLibraryGroup *self = g_object_new(KM_TYPE_LIBRARY_GROUP, NULL);

	self->kind = kind;
	self->name = g_strdup(name);
	self->children = g_list_store_new(kind == KM_LIBRARY_GROUP_ARTIST ?
					  KM_TYPE_LIBRARY_GROUP : KM_TYPE_TRACK);
	return self;
}

const char *km_library_group_get_name(KmLibraryGroup *group)
{
	g_return_val_if_fail(KM_IS_LIBRARY_GROUP(group), NULL);
	return group->name;
}

const char *km_library_group_get_label(KmLibraryGroup *group)
{
	g_return_val_if_fail(KM_IS_LIBRARY_GROUP(group), NULL);
	if (group->name)
		return group->name;
	return group->kind == KM_LIBRARY_GROUP_ARTIST ? _("Unknown Artist") : _("Unknown Album");
}

GListStore *km_library_group_get_children(KmLibraryGroup *group)
{
	g_return_val_if_fail(KM_IS_LIBRARY_GROUP(group), NULL);
	return group->children;
}

void km_library_group_collect_tracks(KmLibraryGroup *group, GPtrArray *tracks)
{
	guint n = g_list_model_get_n_items(G_LIST_MODEL(group->children));

	for (guint i = 0; i < n; i++) {
		gpointer item = g_list_model_get_item(G_LIST_MODEL(group->children), i);

		if (KM_IS_LIBRARY_GROUP(item)) {
			km_library_group_collect_tracks(item, tracks);
			g_object_unref(item);
		} else {
			g_ptr_array_add(tracks, item);
		}
	}
}
