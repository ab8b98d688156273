/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kc-module.c - karmactl's Karma module (kc-module.h), loaded when a
 * command needs it.
 */
#include "kc-module.h"

#include <dlfcn.h>
#include <string.h>
#include <unistd.h>

/* The module beside karmactl (the build tree has both in one folder), or NULL. */
static char *module_beside_executable(void)
{
	g_autofree char *exe = g_file_read_link("/proc/self/exe", NULL);
	g_autofree char *dir = exe ? g_path_get_dirname(exe) : NULL;
	char *path = dir ? g_build_filename(dir, KC_MODULE_FILE, NULL) : NULL;

	if (path && access(path, F_OK) == 0)
		return path;
	g_free(path);
	return NULL;
}

static char *module_path(void)
{
	char *beside = module_beside_executable();

	return beside ? beside : g_build_filename(KC_MODULE_DIR, KC_MODULE_FILE, NULL);
}

/*
 * Never closed: its commands run until karmactl exits, and the leak
 * checker needs its code still mapped to say what allocated a leak.
 */
static void *open_module(const struct kc_ctx *ctx, const char *path)
{
	/*
	 * RTLD_LAZY, as the loader binds karmactl's own libraries: RTLD_NOW would
	 * bind every function of GIO and GStreamer that the module brings in, at
	 * about a millisecond per command, for functions the command never calls.
	 */
	void *handle = dlopen(path, RTLD_LAZY | RTLD_LOCAL);

	/* dlerror() starts with the file's path: "PATH: cannot open shared object file..." */
	if (!handle)
		kc_failf(ctx, "cannot load the module of the Karma commands: %s", dlerror());
	return handle;
}

/*
 * The module's table, when it is of karmactl's own build: a module left
 * from another version (an install over an older one, a copied karmactl)
 * may lay the table out otherwise, so only its first field is read.
 */
static const struct kc_karma_module *module_of_this_build(const struct kc_ctx *ctx,
							  void *handle, const char *path)
{
	const struct kc_karma_module *module = dlsym(handle, KC_KARMA_MODULE_SYMBOL);

	if (!module) {
		kc_failf(ctx, "the module of the Karma commands is not karmactl's: %s", dlerror());
		return NULL;
	}
	if (!module->version || strcmp(module->version, KC_VERSION) != 0) {
		kc_failf(ctx, "the module of the Karma commands, %s, is from Karma Manager %s, "
			 "karmactl from %s: install them together", path,
			 module->version ? module->version : "(unknown)", KC_VERSION);
		return NULL;
	}
	return module;
}

const struct kc_karma_module *kc_karma_module_load(const struct kc_ctx *ctx)
{
	static const struct kc_karma_module *module;
	g_autofree char *path = NULL;
	void *handle;

	if (module)
		return module;
	path = module_path();
	handle = open_module(ctx, path);
	if (handle)
		module = module_of_this_build(ctx, handle, path);
	return module;
}

int kc_karma_command(const struct kc_ctx *ctx, const struct kc_command *heading,
		     struct kc_command *out)
{
	const struct kc_karma_module *module = kc_karma_module_load(ctx);
	const struct kc_command *const *cmd;

	if (!module)
		return KC_EXIT_FAIL;
	for (cmd = module->commands; *cmd; cmd++) {
		if (strcmp((*cmd)->name, heading->name) != 0)
			continue;
		*out = **cmd;
		out->args = heading->args;
		out->summary = heading->summary;
		return KC_EXIT_OK;
	}
	return kc_failf(ctx, "the module of the Karma commands has no '%s': it is from another "
			"build", heading->name);
}
