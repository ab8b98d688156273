/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-sim-faults.h - the simulated Karma's fault switches (struct
 * km_sim_karma_faults) from text, so that `karmactl --simulate` and the
 * app's demo player can be made to misbehave from outside: the environment
 * variable KM_SIM_FAULTS holds a comma-separated list of NAME=N (the next N
 * times, or after N) and NAME (on), e.g.
 *   KM_SIM_FAULTS=unplug-after-writes=40      a cable pulled mid-copy
 *   KM_SIM_FAULTS=stall-transfers=1000        a player that stalls
 *   KM_SIM_FAULTS=stall-data-phases=1000      a write (or read) that fails
 * The names are the fields' with '-' for '_'; README.md lists them.
 */
#ifndef KM_SIM_FAULTS_H
#define KM_SIM_FAULTS_H

#include <stddef.h>

#include "km-sim-karma.h"

#define KM_SIM_FAULTS_ENV "KM_SIM_FAULTS"

/*
 * Arm the switches spec names in *faults (others stay as they are): 0, or
 * -EINVAL with a sentence in msg naming the part that is wrong.
 */
int km_sim_faults_parse(const char *spec, struct km_sim_karma_faults *faults, char *msg,
			size_t msg_len);
/* The same from $KM_SIM_FAULTS; 0 and nothing armed when it is unset or empty. */
int km_sim_faults_from_env(struct km_sim_karma_faults *faults, char *msg, size_t msg_len);

#endif
