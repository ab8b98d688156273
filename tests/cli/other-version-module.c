/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * other-version-module.c - a karmactl Karma module of another version, with
 * no commands: test-cli puts it beside a copy of karmactl, which must refuse
 * it by its version before it looks at anything else (src/cli/kc-module.h).
 */
#include "kc-module.h"

const struct kc_karma_module kc_karma_module = {
	.version = "0.0.0-other",
};
