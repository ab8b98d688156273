/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kc-module.h - karmactl's Karma module, karmactl-karma.so (src/cli/karma/):
 * the commands that need the Karma library layer (GObject, GIO, GStreamer),
 * udev or libusb, and the two steps of --usb that need udev and libusb.
 * karmactl itself links none of those, so that its file system commands
 * start in a few milliseconds (docs/PERFORMANCE.md, "karmactl's start"); it
 * loads the module with dlopen when such a command, or --usb, is used. The
 * module calls back into karmactl's helpers (kc.h), which the executable
 * exports, so nothing is linked into both.
 */
#ifndef KC_MODULE_H
#define KC_MODULE_H

#include "kc.h"

struct km_usb_transport;

/* What the module gives karmactl. */
struct kc_karma_module {
	/*
	 * KC_VERSION of the build that made it: first, in every version, so
	 * that karmactl can read it from any module and refuse one that is not
	 * of its own build before it touches the rest (kc-module.c).
	 */
	const char *version;
	/* NULL-terminated; their arguments and summaries are in kc_karma_commands */
	const struct kc_command *const *commands;
	/* --usb: the real player through libusb (km_usb_libusb_open()) */
	int (*usb_open)(uint8_t bus, uint8_t address, struct km_usb_transport **out, char *msg,
			size_t msglen);
	/* --usb: refuses (prints why, KC_EXIT_FAIL) a player whose usb-storage disk is mounted */
	int (*check_usb_not_mounted)(const struct kc_ctx *ctx);
};

/* Defined in the module only (karma/kc-karma-module.c); karmactl finds it with dlsym. */
extern const struct kc_karma_module kc_karma_module;
#define KC_KARMA_MODULE_SYMBOL "kc_karma_module"

/*
 * kc-karma-commands.c: the module's commands as `karmactl --help` lists
 * them (name, arguments, summary; run is NULL), ended by an entry with no
 * name.
 */
extern const struct kc_command kc_karma_commands[];

/*
 * kc-module.c: the module (the file KC_MODULE_FILE), loaded on first use
 * and kept: the one in karmactl's own folder (the build tree), else the
 * one in KC_MODULE_DIR (where meson installs it; both are set in
 * src/cli/meson.build). NULL, with the path and the loader's reason
 * printed, when it cannot be loaded or is of another version.
 */
const struct kc_karma_module *kc_karma_module_load(const struct kc_ctx *ctx);
/*
 * The whole command that heading (an entry of kc_karma_commands) names,
 * from the module, into *out: KC_EXIT_OK, or the failure's exit status
 * (printed).
 */
int kc_karma_command(const struct kc_ctx *ctx, const struct kc_command *heading,
		     struct kc_command *out);

#endif
