#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# validate-tool.sh - one validator run as one TAP check.
#   validate-tool.sh DESCRIPTION FAIL_REGEX COMMAND...
# The check passes when COMMAND exits 0 and no line of its output matches
# FAIL_REGEX (extended regex): the validators also print warnings with exit 0,
# and a warning is a failure here. Everything they print is echoed as comments.
desc=${1:?usage: validate-tool.sh DESCRIPTION FAIL_REGEX COMMAND...}
fail_regex=${2:?}
shift 2

out=$("$@" 2>&1)
rc=$?
[ -n "$out" ] && printf '%s\n' "$out" | sed 's/^/# /'

echo "1..1"
if [ "$rc" != 0 ]; then
	echo "not ok 1 - $desc (exit $rc)"
	exit 1
fi
if printf '%s\n' "$out" | grep -Eq -- "$fail_regex"; then
	echo "not ok 1 - $desc (warnings above)"
	exit 1
fi
echo "ok 1 - $desc"
