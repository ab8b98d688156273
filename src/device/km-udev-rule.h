/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-udev-rule.h - the udev rule that lets the desktop user open a Rio Karma
 * (TAG+="uaccess" on its USB device and on its disk and partitions), and the
 * command that installs it: what the app and karmactl show when the player
 * may not be opened. It must stay equal to the rule lines of
 * data/70-rio-karma.rules (tests/hotplug checks). The name sorts after 60
 * (ID_VENDOR_ID/ID_MODEL_ID are set) and before 73-seat-late.rules (which
 * turns the tag into an ACL).
 */
#ifndef KM_UDEV_RULE_H
#define KM_UDEV_RULE_H

#define KM_UDEV_RULE_FILE "70-rio-karma.rules"

#define KM_UDEV_RULE                                                                        \
	"SUBSYSTEM==\"usb\", ENV{DEVTYPE}==\"usb_device\", ATTR{idVendor}==\"045a\", "     \
	"ATTR{idProduct}==\"5210\", TAG+=\"uaccess\"\n"                                    \
	"SUBSYSTEM==\"block\", ENV{DEVTYPE}==\"disk|partition\", ENV{ID_VENDOR_ID}==\"045a\", " \
	"ENV{ID_MODEL_ID}==\"5210\", TAG+=\"uaccess\"\n"

/* Run in the folder holding KM_UDEV_RULE_FILE. */
#define KM_UDEV_RULE_INSTALL_COMMAND                                                        \
	"sudo install -m 644 " KM_UDEV_RULE_FILE " /etc/udev/rules.d/" KM_UDEV_RULE_FILE     \
	" && sudo udevadm control --reload && sudo udevadm trigger"

#endif
