/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-player-info.c - reading one Rio Karma from udev into a KmPlayerInfo,
 * and what to tell the user when its nodes may not be opened.
 *
 * Attribute values come from the device (the serial is a USB string
 * descriptor): they are bounded and cleaned before anyone shows them.
 */
#include "km-player-info.h"

#include <errno.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>

#include "km-usb-transport.h"

/* USB string descriptors hold at most 126 characters. */
#define MAX_ATTR_LEN 128

struct _KmPlayerInfo {
	gatomicrefcount ref;
	char *sysfs_path;
	guint bus;
	guint address;
	char *serial;
	char *port_path;
	char *usb_node;
	char *block_node;
	char *block_sysfs_path;
	gboolean usb_node_ok;
	gboolean block_node_ok;
	KmPlayerAccess access;
};

G_DEFINE_BOXED_TYPE(KmPlayerInfo, km_player_info, km_player_info_ref, km_player_info_unref)

KmPlayerInfo *km_player_info_ref(KmPlayerInfo *info)
{
	g_atomic_ref_count_inc(&info->ref);
	return info;
}

void km_player_info_unref(KmPlayerInfo *info)
{
	if (!g_atomic_ref_count_dec(&info->ref))
		return;
	g_free(info->sysfs_path);
	g_free(info->serial);
	g_free(info->port_path);
	g_free(info->usb_node);
	g_free(info->block_node);
	g_free(info->block_sysfs_path);
	g_free(info);
}

const char *km_player_info_get_sysfs_path(const KmPlayerInfo *info)
{
	return info->sysfs_path;
}

guint km_player_info_get_bus(const KmPlayerInfo *info)
{
	return info->bus;
}

guint km_player_info_get_address(const KmPlayerInfo *info)
{
	return info->address;
}

const char *km_player_info_get_serial(const KmPlayerInfo *info)
{
	return info->serial;
}

const char *km_player_info_get_port_path(const KmPlayerInfo *info)
{
	return info->port_path;
}

const char *km_player_info_get_usb_node(const KmPlayerInfo *info)
{
	return info->usb_node;
}

const char *km_player_info_get_block_node(const KmPlayerInfo *info)
{
	return info->block_node;
}

const char *km_player_info_get_block_sysfs_path(const KmPlayerInfo *info)
{
	return info->block_sysfs_path;
}

KmPlayerAccess km_player_info_get_access(const KmPlayerInfo *info)
{
	return info->access;
}

gboolean km_player_info_can_open_usb(const KmPlayerInfo *info)
{
	return info->usb_node_ok;
}

gboolean km_player_info_can_open_block(const KmPlayerInfo *info)
{
	return info->block_node_ok;
}

const char *km_player_info_get_open_node(const KmPlayerInfo *info)
{
	if (info->block_node_ok)
		return info->block_node;
	if (info->usb_node_ok)
		return info->usb_node;
	return NULL;
}

gboolean km_player_info_equal(const KmPlayerInfo *a, const KmPlayerInfo *b)
{
	return g_strcmp0(a->sysfs_path, b->sysfs_path) == 0 && a->bus == b->bus &&
	       a->address == b->address && g_strcmp0(a->serial, b->serial) == 0 &&
	       g_strcmp0(a->port_path, b->port_path) == 0 &&
	       g_strcmp0(a->usb_node, b->usb_node) == 0 &&
	       g_strcmp0(a->block_node, b->block_node) == 0 &&
	       g_strcmp0(a->block_sysfs_path, b->block_sysfs_path) == 0 &&
	       a->usb_node_ok == b->usb_node_ok && a->block_node_ok == b->block_node_ok &&
	       a->access == b->access;
}

const char *km_player_udev_rule(void)
{
	return KM_UDEV_RULE;
}

char *km_player_access_explain(KmPlayerAccess access)
{
	switch (access) {
	case KM_PLAYER_ACCESS_OK:
		return NULL;
	case KM_PLAYER_ACCESS_NO_NODE:
		return g_strdup(_("The Rio Karma is connected, but the system has not made a "
				  "device node for it yet. Wait a moment, or unplug the player "
				  "and plug it in again."));
	case KM_PLAYER_ACCESS_NOT_KARMA:
		return g_strdup(_("This device is not a Rio Karma."));
	case KM_PLAYER_ACCESS_NO_PERMISSION:
	default:
		/* TRANSLATORS: %1$s is the rule file name, %2$s the rule, %3$s the command. */
		return g_strdup_printf(_("You are not allowed to open the Rio Karma. A udev rule "
					 "lets the user at the computer open it. Save these lines "
					 "as %1$s:\n\n%2$s\nthen run, in the folder where you saved "
					 "it:\n\n%3$s\n\nIf the player is still not usable, unplug "
					 "it and plug it in again."),
				       KM_UDEV_RULE_FILE, KM_UDEV_RULE,
				       KM_UDEV_RULE_INSTALL_COMMAND);
	}
}

/* A hex sysfs attribute (idVendor) or, without sysfs, its udev property. */
static guint64 read_hex_id(GUdevDevice *dev, const char *attr, const char *property)
{
	const char *s = g_udev_device_get_sysfs_attr(dev, attr);
	guint64 v;

	if (!s)
		s = g_udev_device_get_property(dev, property);
	if (!s || !g_ascii_string_to_unsigned(s, 16, 0, 0xffff, &v, NULL))
		return G_MAXUINT64;
	return v;
}

/* A decimal sysfs attribute (busnum) or its property, 0 when absent or out of range. */
static guint read_number(GUdevDevice *dev, const char *attr, const char *property, guint max)
{
	const char *s = g_udev_device_get_sysfs_attr(dev, attr);
	guint64 v;

	if (!s)
		s = g_udev_device_get_property(dev, property);
	if (!s || !g_ascii_string_to_unsigned(s, 10, 1, max, &v, NULL))
		return 0;
	return (guint)v;
}

/* A device-supplied string made safe to show: bounded, UTF-8, no control characters. */
static char *clean_string(const char *s)
{
	g_autofree char *cut = NULL;
	char *valid;

	if (!s || !*s)
		return NULL;
	cut = g_strndup(s, MAX_ATTR_LEN);
	valid = g_utf8_make_valid(cut, -1);
	for (char *p = valid; *p; p++) {
		if ((guchar)*p < 0x20 || *p == 0x7f)
			*p = '?';
	}
	return valid;
}

gboolean km_player_is_karma_usb(GUdevDevice *dev)
{
	return g_strcmp0(g_udev_device_get_subsystem(dev), "usb") == 0 &&
	       g_strcmp0(g_udev_device_get_devtype(dev), "usb_device") == 0 &&
	       read_hex_id(dev, "idVendor", "ID_VENDOR_ID") == KM_KARMA_VENDOR_ID &&
	       read_hex_id(dev, "idProduct", "ID_MODEL_ID") == KM_KARMA_PRODUCT_ID;
}

GUdevDevice *km_player_karma_usb_of(GUdevDevice *dev)
{
	GUdevDevice *usb;

	if (km_player_is_karma_usb(dev))
		return g_object_ref(dev);
	usb = g_udev_device_get_parent_with_subsystem(dev, "usb", "usb_device");
	if (usb && !km_player_is_karma_usb(usb))
		g_clear_object(&usb);
	return usb;
}

/* The whole disk whose USB device is usb_syspath, or NULL. */
static GUdevDevice *find_block_disk(GUdevClient *client, const char *usb_syspath,
				    const char *gone_syspath)
{
	GList *disks = g_udev_client_query_by_subsystem(client, "block");
	GUdevDevice *found = NULL;

	for (GList *l = disks; l && !found; l = l->next) {
		GUdevDevice *disk = l->data;
		g_autoptr(GUdevDevice) usb = NULL;

		if (g_strcmp0(g_udev_device_get_devtype(disk), "disk") != 0 ||
		    g_strcmp0(g_udev_device_get_sysfs_path(disk), gone_syspath) == 0)
			continue;
		usb = g_udev_device_get_parent_with_subsystem(disk, "usb", "usb_device");
		if (usb && g_strcmp0(g_udev_device_get_sysfs_path(usb), usb_syspath) == 0)
			found = g_object_ref(disk);
	}
	g_list_free_full(disks, g_object_unref);
	return found;
}

typedef enum { NODE_ABSENT, NODE_DENIED, NODE_OK } NodeState;

/* Whether we may open node for reading and writing; ACLs (uaccess) count. */
static NodeState node_state(const char *node)
{
	if (!node)
		return NODE_ABSENT;
	if (access(node, R_OK | W_OK) == 0)
		return NODE_OK;
	return errno == ENOENT || errno == ENOTDIR ? NODE_ABSENT : NODE_DENIED;
}

static void read_access(KmPlayerInfo *info)
{
	NodeState usb = node_state(info->usb_node);
	NodeState block = node_state(info->block_node);

	info->usb_node_ok = usb == NODE_OK;
	info->block_node_ok = block == NODE_OK;
	if (info->usb_node_ok || info->block_node_ok)
		info->access = KM_PLAYER_ACCESS_OK;
	else if (usb == NODE_DENIED || block == NODE_DENIED)
		info->access = KM_PLAYER_ACCESS_NO_PERMISSION;
	else
		info->access = KM_PLAYER_ACCESS_NO_NODE;
}

KmPlayerInfo *km_player_info_new_from_udev(GUdevClient *client, GUdevDevice *usb,
					   const char *gone_block_syspath)
{
	KmPlayerInfo *info = g_new0(KmPlayerInfo, 1);
	g_autoptr(GUdevDevice) disk = NULL;

	g_atomic_ref_count_init(&info->ref);
	info->sysfs_path = g_strdup(g_udev_device_get_sysfs_path(usb));
	info->bus = read_number(usb, "busnum", "BUSNUM", 255);
	info->address = read_number(usb, "devnum", "DEVNUM", 127);
	info->serial = clean_string(g_udev_device_get_sysfs_attr(usb, "serial"));
	if (!info->serial)
		info->serial = clean_string(g_udev_device_get_property(usb, "ID_SERIAL_SHORT"));
	info->port_path = clean_string(g_udev_device_get_name(usb));
	info->usb_node = g_strdup(g_udev_device_get_device_file(usb));
	disk = find_block_disk(client, info->sysfs_path, gone_block_syspath);
	if (disk) {
		info->block_node = g_strdup(g_udev_device_get_device_file(disk));
		info->block_sysfs_path = g_strdup(g_udev_device_get_sysfs_path(disk));
	}
	read_access(info);
	return info;
}

KmPlayerAccess km_player_check_node(GUdevClient *client, const char *node)
{
	g_autoptr(GUdevDevice) dev = g_udev_client_query_by_device_file(client, node);
	g_autoptr(GUdevDevice) usb = dev ? km_player_karma_usb_of(dev) : NULL;

	if (!usb)
		return KM_PLAYER_ACCESS_NOT_KARMA;
	switch (node_state(node)) {
	case NODE_OK:
		return KM_PLAYER_ACCESS_OK;
	case NODE_DENIED:
		return KM_PLAYER_ACCESS_NO_PERMISSION;
	case NODE_ABSENT:
	default:
		return KM_PLAYER_ACCESS_NO_NODE;
	}
}
