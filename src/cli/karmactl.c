/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * karmactl.c - the command-line tool: global options, the command table,
 * per-command option parsing and dispatch.
 */
#include "kc.h"
#include "kc-module.h"

#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "km-usb-transport.h"

/* karmactl's own commands; the Karma module's (kc_karma_commands) follow them in --help. */
static const struct kc_command *const commands[] = {
	&kc_cmd_mkfs, &kc_cmd_ls, &kc_cmd_cat, &kc_cmd_get, &kc_cmd_put, &kc_cmd_mkdir,
	&kc_cmd_rm, &kc_cmd_mv, &kc_cmd_truncate, &kc_cmd_df, &kc_cmd_fsck, &kc_cmd_info,
	&kc_cmd_manifest,
};

static char *opt_image;
static char *opt_offset;
static char *opt_usb;		/* "" for the first player, else BUS:ADDR */
static char *opt_device;
static char *opt_partition;
static gboolean opt_simulate;
static gboolean opt_wait;

/* Given twice (before and after the command), the last one counts. */
static gboolean set_global_option(const char *name, const char *value, gpointer data,
				  GError **error)
{
	char **opt = strcmp(name, "--offset") == 0 ? &opt_offset :
		     strcmp(name, "--usb") == 0	   ? &opt_usb :
		     strcmp(name, "--device") == 0 ? &opt_device :
		     strcmp(name, "--partition") == 0 || strcmp(name, "-p") == 0 ? &opt_partition :
						     &opt_image;

	g_free(*opt);
	*opt = g_strdup(value);
	return TRUE;
}

/* Accepted before the command and after it: `karmactl -i X ls` = `karmactl ls -i X`. */
static const GOptionEntry global_options[] = {
	{ "image", 'i', G_OPTION_FLAG_FILENAME, G_OPTION_ARG_CALLBACK, set_global_option,
	  "The volume: an image file or a block device", "IMAGE" },
	{ "offset", 0, 0, G_OPTION_ARG_CALLBACK, set_global_option,
	  "The volume starts this far into IMAGE (K, M, G suffixes)", "BYTES" },
	{ "simulate", 0, 0, G_OPTION_ARG_NONE, &opt_simulate,
	  "Reach IMAGE as a player over USB, through the simulated Karma", NULL },
	{ "usb", 0, G_OPTION_FLAG_OPTIONAL_ARG, G_OPTION_ARG_CALLBACK, set_global_option,
	  "The Rio Karma connected over USB (the first one, or the one at BUS:ADDR)",
	  "[BUS:ADDR]" },
	{ "device", 0, G_OPTION_FLAG_FILENAME, G_OPTION_ARG_CALLBACK, set_global_option,
	  "The player's disk as the kernel exposes it (/dev/sdX); refused for writing while "
	  "mounted", "NODE" },
	{ "partition", 'p', 0, G_OPTION_ARG_CALLBACK, set_global_option,
	  "On a whole Karma disk: partition N (1 system, 2 music) rather than the music "
	  "partition", "N" },
	{ "wait", 0, 0, G_OPTION_ARG_NONE, &opt_wait,
	  "Wait while another program holds the disk or player, rather than fail", NULL },
	{ NULL }
};

/*
 * GLib gives an optional argument the next word whatever it is, so
 * `--usb ls` would read "ls" as the location: a bare --usb that no location
 * follows becomes "--usb=" (the first player) before parsing.
 */
static void mark_bare_usb_options(int argc, char **argv)
{
	static char usb_first[] = "--usb=";
	uint8_t bus, address;

	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (strcmp(argv[i], "--usb") == 0 &&
		    (i + 1 == argc || !km_usb_parse_location(argv[i + 1], &bus, &address)))
			argv[i] = usb_first;
}

/* Ours, or a heading of kc_karma_commands (no run: the module has the rest). */
static const struct kc_command *find_command(const char *name)
{
	const struct kc_command *karma;
	size_t i;

	for (i = 0; i < G_N_ELEMENTS(commands); i++)
		if (strcmp(commands[i]->name, name) == 0)
			return commands[i];
	for (karma = kc_karma_commands; karma->name; karma++)
		if (strcmp(karma->name, name) == 0)
			return karma;
	return NULL;
}

static void append_command_line(GString *s, const struct kc_command *cmd)
{
	g_string_append_printf(s, "  %-10s %-18s %s\n", cmd->name, cmd->args, cmd->summary);
}

static char *command_list(void)
{
	GString *s = g_string_new("Commands:\n");
	const struct kc_command *karma;
	size_t i;

	for (i = 0; i < G_N_ELEMENTS(commands); i++)
		append_command_line(s, commands[i]);
	for (karma = kc_karma_commands; karma->name; karma++)
		append_command_line(s, karma);
	g_string_append(s, "\nkarmactl COMMAND --help shows the options of a command.\n"
			   "KARMACTL_STATS=1 prints the I/O counters on exit.");
	return g_string_free(s, FALSE);
}

/* Options before the command; parsing stops at the command's name. */
static int parse_global_options(struct kc_ctx *ctx, int *argc, char ***argv)
{
	GOptionContext *oc = g_option_context_new("COMMAND [ARGS...]");
	GError *error = NULL;
	char *list = command_list();
	int status = KC_EXIT_OK;

	g_option_context_set_summary(oc, "Work on an OMFS volume (a Rio Karma disk).");
	g_option_context_set_description(oc, list);
	g_option_context_add_main_entries(oc, global_options, NULL);
	g_option_context_set_strict_posix(oc, TRUE);
	if (!g_option_context_parse(oc, argc, argv, &error)) {
		status = kc_usage(ctx, "%s", error->message);
		g_error_free(error);
	}
	g_option_context_free(oc);
	g_free(list);
	return status;
}

static bool has_short_option(const GOptionEntry *options, char c)
{
	for (; options && options->long_name; options++)
		if (options->short_name == c)
			return true;
	return false;
}

/* The global options; a command's own short option wins (mkdir -p is --parents). */
static const GOptionEntry *command_global_options(const struct kc_command *cmd)
{
	static GOptionEntry entries[G_N_ELEMENTS(global_options)];

	memcpy(entries, global_options, sizeof(entries));
	for (size_t i = 0; entries[i].long_name; i++)
		if (entries[i].short_name && has_short_option(cmd->options, entries[i].short_name))
			entries[i].short_name = 0;
	return entries;
}

static GOptionContext *command_option_context(const struct kc_command *cmd, char ***rest)
{
	const GOptionEntry remaining[] = {
		{ G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, rest, NULL, NULL },
		{ NULL }
	};
	GOptionContext *oc = g_option_context_new(cmd->args);
	char *summary = g_strdup_printf("%s.", cmd->summary);

	g_option_context_set_summary(oc, summary);
	g_free(summary);
	if (cmd->description)
		g_option_context_set_description(oc, cmd->description);
	if (cmd->options)
		g_option_context_add_main_entries(oc, cmd->options, NULL);
	g_option_context_add_main_entries(oc, command_global_options(cmd), NULL);
	g_option_context_add_main_entries(oc, remaining, NULL);
	return oc;
}

/* The command's options and positional arguments, checked against its table entry. */
static int parse_command_args(struct kc_ctx *ctx, const struct kc_command *cmd, int argc,
			      char **argv, char ***rest)
{
	GOptionContext *oc = command_option_context(cmd, rest);
	char *prgname = g_strdup_printf("karmactl %s", cmd->name);
	GError *error = NULL;
	int status = KC_EXIT_OK;
	int n;

	/* so that the help's usage line reads "karmactl CMD [OPTION...] ARGS" */
	g_set_prgname(prgname);
	g_free(prgname);
	if (!g_option_context_parse(oc, &argc, &argv, &error)) {
		status = kc_usage(ctx, "%s", error->message);
		g_error_free(error);
		goto out;
	}
	n = *rest ? (int)g_strv_length(*rest) : 0;
	if (n < cmd->min_args)
		status = kc_usage(ctx, "missing argument: %s", cmd->args);
	else if (n > cmd->max_args)
		status = kc_usage(ctx, "unexpected argument '%s'", (*rest)[cmd->max_args]);
	ctx->argc = n;
	ctx->argv = *rest;
out:
	g_option_context_free(oc);
	return status;
}

/* --usb: the player stands where -i IMAGE would, named for the messages. */
static int apply_usb_option(struct kc_ctx *ctx)
{
	static char name[sizeof("USB player 255:255")];

	if (opt_image || opt_simulate)
		return kc_usage(ctx,
				"--usb opens the player itself: give it without -i or --simulate");
	if (opt_usb[0] && !km_usb_parse_location(opt_usb, &ctx->usb_bus, &ctx->usb_address))
		return kc_usage(ctx, "--usb: not a USB location BUS:ADDR (as lsusb shows): '%s'",
				opt_usb);
	if (ctx->usb_bus)
		snprintf(name, sizeof(name), "USB player %u:%u", ctx->usb_bus, ctx->usb_address);
	else
		snprintf(name, sizeof(name), "USB player");
	ctx->usb = true;
	ctx->image = name;
	return KC_EXIT_OK;
}

/* --device: the node stands where -i IMAGE would. */
static int apply_device_option(struct kc_ctx *ctx)
{
	if (opt_image || opt_simulate || opt_usb)
		return kc_usage(ctx, "--device is the player's disk: give it without -i, "
				"--simulate or --usb");
	ctx->device = true;
	ctx->image = opt_device;
	return KC_EXIT_OK;
}

static int apply_partition_option(struct kc_ctx *ctx)
{
	if (!opt_partition)
		return KC_EXIT_OK;
	if (strcmp(opt_partition, "1") == 0 || strcmp(opt_partition, "2") == 0) {
		ctx->partition = (unsigned)(opt_partition[0] - '0');
		return KC_EXIT_OK;
	}
	return kc_usage(ctx, "--partition: not 1 or 2: '%s'", opt_partition);
}

static int apply_global_options(struct kc_ctx *ctx)
{
	int status;

	ctx->image = opt_image;
	ctx->simulate = opt_simulate;
	ctx->wait = opt_wait;
	status = apply_partition_option(ctx);
	if (status)
		return status;
	if (opt_offset && !kc_parse_size(opt_offset, &ctx->offset))
		return kc_usage(ctx, "--offset: not a size: '%s'", opt_offset);
	if (opt_device)
		return apply_device_option(ctx);
	return opt_usb ? apply_usb_option(ctx) : KC_EXIT_OK;
}

static int run_command(struct kc_ctx *ctx, const struct kc_command *cmd)
{
	int status;

	/* a player is formatted by no command yet */
	if ((ctx->usb || ctx->device) && cmd->makes_image_file)
		return kc_usage(ctx, "%s makes an image file; it does not work with %s",
				cmd->name, ctx->usb ? "--usb" : "--device");
	if (cmd->access == KC_NO_VOLUME)
		return cmd->run(ctx);
	if (!ctx->image)
		return kc_usage(ctx, "no volume given: use -i IMAGE, --device NODE or --usb");
	status = kc_volume_open(ctx, cmd->access == KC_WRITABLE);
	if (status)
		return status;
	return kc_volume_close(ctx, cmd->run(ctx));
}

int main(int argc, char **argv)
{
	struct kc_ctx ctx = { 0 };
	const struct kc_command *cmd;
	struct kc_command karma_cmd;
	char **rest = NULL;
	int status;

	setlocale(LC_ALL, "");
	mark_bare_usb_options(argc, argv);
	status = parse_global_options(&ctx, &argc, &argv);
	if (status)
		return status;
	if (argc < 2)
		return kc_usage(&ctx, "no command given");
	cmd = find_command(argv[1]);
	if (!cmd)
		return kc_usage(&ctx, "unknown command '%s'", argv[1]);
	ctx.cmd = cmd->name;
	/* the module's command: loaded before its options are parsed, which are the module's */
	if (!cmd->run) {
		status = kc_karma_command(&ctx, cmd, &karma_cmd);
		if (status)
			return status;
		cmd = &karma_cmd;
	}
	status = parse_command_args(&ctx, cmd, argc - 1, argv + 1, &rest);
	if (!status)
		status = apply_global_options(&ctx);
	if (!status)
		status = run_command(&ctx, cmd);
	/* a full disk or a closed pipe must not pass for success */
	if (fflush(stdout) != 0 && status == KC_EXIT_OK)
		status = kc_fail_errno(&ctx, "standard output", errno);
	g_strfreev(rest);
	g_free(opt_image);
	g_free(opt_offset);
	g_free(opt_usb);
	g_free(opt_device);
	g_free(opt_partition);
	return status;
}
