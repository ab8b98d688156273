/* SPDX-License-Identifier: GPL-2.0-or-later */
/* km-sim-faults.c - the simulated Karma's fault switches from text (km-sim-faults.h). */
#include "km-sim-faults.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SPEC_MAX 1024

/* A switch: a count (unsigned) or a flag (bool) of struct km_sim_karma_faults. */
struct fault_switch {
	const char *name;
	size_t offset;
	bool is_flag;
};

#define COUNT(field, name) { name, offsetof(struct km_sim_karma_faults, field), false }
#define FLAG(field, name) { name, offsetof(struct km_sim_karma_faults, field), true }

static const struct fault_switch switches[] = {
	COUNT(stall_transfers, "stall-transfers"),
	COUNT(stall_data_phases, "stall-data-phases"),
	COUNT(short_transfers, "short-transfers"),
	COUNT(oversized_replies, "oversized-replies"),
	COUNT(timeouts, "timeouts"),
	COUNT(bad_tag_csws, "bad-tag-csws"),
	COUNT(bad_signature_csws, "bad-signature-csws"),
	COUNT(bad_residue_csws, "bad-residue-csws"),
	COUNT(drop_after_commands, "drop-after-commands"),
	FLAG(drop_to_normal, "drop-to-normal"),
	COUNT(unplug_after_writes, "unplug-after-writes"),
	FLAG(unplugged, "unplugged"),
	COUNT(bad_acks, "bad-acks"),
	FLAG(never_echo, "never-echo"),
	FLAG(short_inquiry, "short-inquiry"),
	FLAG(short_capacity, "short-capacity"),
	FLAG(no_sync_cache, "no-sync-cache"),
};

static const struct fault_switch *find_switch(const char *name)
{
	for (size_t i = 0; i < sizeof(switches) / sizeof(switches[0]); i++)
		if (strcmp(switches[i].name, name) == 0)
			return &switches[i];
	return NULL;
}

static int invalid(char *msg, size_t msg_len, const char *part, const char *why)
{
	snprintf(msg, msg_len, "%s: '%s' %s", KM_SIM_FAULTS_ENV, part, why);
	return -EINVAL;
}

/* One NAME or NAME=N (part is changed: the '=' becomes a NUL). */
static int arm(char *part, struct km_sim_karma_faults *faults, char *msg, size_t msg_len)
{
	char *eq = strchr(part, '='), *end;
	const struct fault_switch *sw;
	unsigned long n = 1;

	if (eq)
		*eq = '\0';
	sw = find_switch(part);
	if (!sw) {
		snprintf(msg, msg_len, "%s: no fault switch '%s' (README.md lists them)",
			 KM_SIM_FAULTS_ENV, part);
		return -EINVAL;
	}
	if (eq && sw->is_flag)
		return invalid(msg, msg_len, part, "is on or off: give it without a number");
	if (!sw->is_flag) {
		if (!eq)
			return invalid(msg, msg_len, part, "needs a number: NAME=N");
		errno = 0;
		n = strtoul(eq + 1, &end, 10);
		if (eq[1] < '0' || eq[1] > '9' || *end || errno || n > 1000000000ul)
			return invalid(msg, msg_len, part, "needs a number from 0 to 1000000000");
	}
	if (sw->is_flag)
		*(bool *)(void *)((char *)faults + sw->offset) = true;
	else
		*(unsigned *)(void *)((char *)faults + sw->offset) = (unsigned)n;
	return 0;
}

int km_sim_faults_parse(const char *spec, struct km_sim_karma_faults *faults, char *msg,
			size_t msg_len)
{
	char copy[SPEC_MAX];
	char *save = NULL, *part;
	int err = 0;

	if (strlen(spec) >= sizeof(copy))
		return invalid(msg, msg_len, "…", "is too long");
	strcpy(copy, spec);
	for (part = strtok_r(copy, ",", &save); part && !err; part = strtok_r(NULL, ",", &save))
		err = arm(part, faults, msg, msg_len);
	return err;
}

int km_sim_faults_from_env(struct km_sim_karma_faults *faults, char *msg, size_t msg_len)
{
	const char *spec = getenv(KM_SIM_FAULTS_ENV);

	return spec && *spec ? km_sim_faults_parse(spec, faults, msg, msg_len) : 0;
}
