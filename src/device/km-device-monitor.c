/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-device-monitor.c - KmDeviceMonitor: the known players, keyed by the
 * sysfs path of their USB device, kept up to date by uevents and rescans.
 *
 * Both paths end in update_player() and drop_player(), which compare with
 * the known set and emit the signals: a rescan is just every uevent at once.
 */
#include "km-device-monitor.h"

#include <string.h>

struct _KmDeviceMonitor {
	GObject parent_instance;
	GUdevClient *client;
	GHashTable *players;	/* sysfs path -> KmPlayerInfo */
	gboolean uevents;
	guint rescan_interval;
	guint rescan_source;
};

G_DEFINE_FINAL_TYPE(KmDeviceMonitor, km_device_monitor, G_TYPE_OBJECT)

enum { PROP_0, PROP_UEVENTS, PROP_RESCAN_INTERVAL, N_PROPS };
enum { PLAYER_ADDED, PLAYER_CHANGED, PLAYER_REMOVED, N_SIGNALS };

static GParamSpec *props[N_PROPS];
static guint signals[N_SIGNALS];

/* Knows info from now on, telling the difference to the old one if any. */
static void update_player(KmDeviceMonitor *self, KmPlayerInfo *info)
{
	const char *key = km_player_info_get_sysfs_path(info);
	KmPlayerInfo *old = g_hash_table_lookup(self->players, key);
	guint signal;

	if (old && km_player_info_equal(old, info))
		return;
	signal = old ? PLAYER_CHANGED : PLAYER_ADDED;
	g_hash_table_replace(self->players, g_strdup(key), km_player_info_ref(info));
	g_signal_emit(self, signals[signal], 0, info);
}

static void drop_player(KmDeviceMonitor *self, const char *syspath)
{
	g_autofree char *key = NULL;
	g_autoptr(KmPlayerInfo) info = NULL;

	if (!g_hash_table_steal_extended(self->players, syspath, (gpointer *)&key,
					 (gpointer *)&info))
		return;
	g_signal_emit(self, signals[PLAYER_REMOVED], 0, info);
}

static void on_uevent(GUdevClient *client, const char *action, GUdevDevice *dev,
		      gpointer user_data)
{
	KmDeviceMonitor *self = user_data;
	gboolean removed = g_strcmp0(action, "remove") == 0;
	const char *syspath = g_udev_device_get_sysfs_path(dev);
	g_autoptr(GUdevDevice) usb = NULL;
	g_autoptr(KmPlayerInfo) info = NULL;

	if (!self->uevents)
		return;	/* rescans only: km_device_monitor_constructed() says why it listens */
	if (removed && g_hash_table_contains(self->players, syspath)) {
		drop_player(self, syspath);
		return;
	}
	/* Anything else (a disk, an interface binding) may change a Karma. */
	usb = km_player_karma_usb_of(dev);
	if (!usb || (removed && g_strcmp0(g_udev_device_get_sysfs_path(usb), syspath) == 0))
		return;
	info = km_player_info_new_from_udev(client, usb, removed ? syspath : NULL);
	update_player(self, info);
}

void km_device_monitor_rescan(KmDeviceMonitor *self)
{
	GList *devices = g_udev_client_query_by_subsystem(self->client, "usb");
	g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	g_autoptr(GPtrArray) gone = g_ptr_array_new_with_free_func(g_free);
	GHashTableIter iter;
	gpointer key;

	g_return_if_fail(KM_IS_DEVICE_MONITOR(self));
	for (GList *l = devices; l; l = l->next) {
		g_autoptr(KmPlayerInfo) info = NULL;

		if (!km_player_is_karma_usb(l->data))
			continue;
		info = km_player_info_new_from_udev(self->client, l->data, NULL);
		g_hash_table_add(seen, g_strdup(g_udev_device_get_sysfs_path(l->data)));
		update_player(self, info);
	}
	/* Collected first: a handler of player-removed may call back into us. */
	g_hash_table_iter_init(&iter, self->players);
	while (g_hash_table_iter_next(&iter, &key, NULL)) {
		if (!g_hash_table_contains(seen, key))
			g_ptr_array_add(gone, g_strdup(key));
	}
	for (guint i = 0; i < gone->len; i++)
		drop_player(self, gone->pdata[i]);
	g_list_free_full(devices, g_object_unref);
}

static int compare_players(gconstpointer a, gconstpointer b)
{
	const KmPlayerInfo *pa = *(KmPlayerInfo *const *)a;
	const KmPlayerInfo *pb = *(KmPlayerInfo *const *)b;

	return strcmp(km_player_info_get_sysfs_path(pa), km_player_info_get_sysfs_path(pb));
}

GPtrArray *km_device_monitor_get_players(KmDeviceMonitor *self)
{
	GPtrArray *players = g_ptr_array_new_with_free_func((GDestroyNotify)km_player_info_unref);
	GHashTableIter iter;
	gpointer value;

	g_return_val_if_fail(KM_IS_DEVICE_MONITOR(self), players);
	g_hash_table_iter_init(&iter, self->players);
	while (g_hash_table_iter_next(&iter, NULL, &value))
		g_ptr_array_add(players, km_player_info_ref(value));
	g_ptr_array_sort(players, compare_players);
	return players;
}

KmPlayerAccess km_device_monitor_check_node(KmDeviceMonitor *self, const char *node)
{
	g_return_val_if_fail(KM_IS_DEVICE_MONITOR(self), KM_PLAYER_ACCESS_NOT_KARMA);
	g_return_val_if_fail(node, KM_PLAYER_ACCESS_NOT_KARMA);
	return km_player_check_node(self->client, node);
}

static gboolean on_rescan_timer(gpointer user_data)
{
	km_device_monitor_rescan(user_data);
	return G_SOURCE_CONTINUE;
}

void km_device_monitor_set_rescan_interval(KmDeviceMonitor *self, guint seconds)
{
	g_return_if_fail(KM_IS_DEVICE_MONITOR(self));
	if (self->rescan_interval == seconds)
		return;
	self->rescan_interval = seconds;
	g_clear_handle_id(&self->rescan_source, g_source_remove);
	if (seconds)
		self->rescan_source = g_timeout_add_seconds(seconds, on_rescan_timer, self);
	g_object_notify_by_pspec(G_OBJECT(self), props[PROP_RESCAN_INTERVAL]);
}

guint km_device_monitor_get_rescan_interval(KmDeviceMonitor *self)
{
	g_return_val_if_fail(KM_IS_DEVICE_MONITOR(self), 0);
	return self->rescan_interval;
}

gboolean km_device_monitor_in_sandbox(void)
{
	return g_file_test("/.flatpak-info", G_FILE_TEST_EXISTS);
}

KmDeviceMonitor *km_device_monitor_new(void)
{
	guint interval = km_device_monitor_in_sandbox() ? KM_DEVICE_MONITOR_SANDBOX_RESCAN_SECONDS
							: 0;

	return g_object_new(KM_TYPE_DEVICE_MONITOR, "rescan-interval", interval, NULL);
}

static void km_device_monitor_constructed(GObject *object)
{
	KmDeviceMonitor *self = KM_DEVICE_MONITOR(object);
	/* Whole subsystems: a disk's events tell when its player's node appears. */
	static const char *const subsystems[] = { "usb", "block", NULL };

	G_OBJECT_CLASS(km_device_monitor_parent_class)->constructed(object);
	/*
	 * The client listens even when the monitor only rescans (uevents off):
	 * libgudev on Debian 13, given no subsystems, still opens a uevent
	 * socket that nothing reads, and under umockdev a full socket (10
	 * messages) aborts the sender. Listening drains it; on_uevent() drops
	 * what arrives.
	 */
	self->client = g_udev_client_new(subsystems);
	g_signal_connect_object(self->client, "uevent", G_CALLBACK(on_uevent), self, 0);
	km_device_monitor_rescan(self);
}

static void km_device_monitor_dispose(GObject *object)
{
	KmDeviceMonitor *self = KM_DEVICE_MONITOR(object);

	g_clear_handle_id(&self->rescan_source, g_source_remove);
	g_clear_object(&self->client);
	G_OBJECT_CLASS(km_device_monitor_parent_class)->dispose(object);
}

static void km_device_monitor_finalize(GObject *object)
{
	g_hash_table_unref(KM_DEVICE_MONITOR(object)->players);
	G_OBJECT_CLASS(km_device_monitor_parent_class)->finalize(object);
}

static void km_device_monitor_get_property(GObject *object, guint id, GValue *value,
					   GParamSpec *pspec)
{
	KmDeviceMonitor *self = KM_DEVICE_MONITOR(object);

	switch (id) {
	case PROP_UEVENTS:
		g_value_set_boolean(value, self->uevents);
		break;
	case PROP_RESCAN_INTERVAL:
		g_value_set_uint(value, self->rescan_interval);
		break;
	default:
		G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
	}
}

static void km_device_monitor_set_property(GObject *object, guint id, const GValue *value,
					   GParamSpec *pspec)
{
	KmDeviceMonitor *self = KM_DEVICE_MONITOR(object);

	switch (id) {
	case PROP_UEVENTS:
		self->uevents = g_value_get_boolean(value);
		break;
	case PROP_RESCAN_INTERVAL:
		km_device_monitor_set_rescan_interval(self, g_value_get_uint(value));
		break;
	default:
		G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
	}
}

static void km_device_monitor_class_init(KmDeviceMonitorClass *klass)
{
	GObjectClass *object_class = G_OBJECT_CLASS(klass);

	object_class->constructed = km_device_monitor_constructed;
	object_class->dispose = km_device_monitor_dispose;
	object_class->finalize = km_device_monitor_finalize;
	object_class->get_property = km_device_monitor_get_property;
	object_class->set_property = km_device_monitor_set_property;

	/* FALSE: only rescans find players (the tests use it to stand for Flatpak). */
	props[PROP_UEVENTS] = g_param_spec_boolean(
		"uevents", NULL, NULL, TRUE,
		G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
	props[PROP_RESCAN_INTERVAL] = g_param_spec_uint(
		"rescan-interval", NULL, NULL, 0, 3600, 0,
		G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
	g_object_class_install_properties(object_class, N_PROPS, props);

	signals[PLAYER_ADDED] = g_signal_new("player-added", G_TYPE_FROM_CLASS(klass),
					     G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
					     G_TYPE_NONE, 1, KM_TYPE_PLAYER_INFO);
	signals[PLAYER_CHANGED] = g_signal_new("player-changed", G_TYPE_FROM_CLASS(klass),
					       G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
					       G_TYPE_NONE, 1, KM_TYPE_PLAYER_INFO);
	signals[PLAYER_REMOVED] = g_signal_new("player-removed", G_TYPE_FROM_CLASS(klass),
					       G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
					       G_TYPE_NONE, 1, KM_TYPE_PLAYER_INFO);
}

static void km_device_monitor_init(KmDeviceMonitor *self)
{
	self->uevents = TRUE;
	self->players = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					      (GDestroyNotify)km_player_info_unref);
}
