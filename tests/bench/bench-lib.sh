# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench-lib.sh - the timing and arithmetic every benchmark script shares
# (sourced by loop-bench-lib.sh, scale-bench-lib.sh, library-bench.sh,
# start-bench.sh, convert-bench.sh and convert-add-bench.sh). Times are in
# microseconds.

now_us() { echo "${EPOCHREALTIME/./}"; }
median() {
    printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END {
        print (NR % 2) ? v[(NR + 1) / 2] : int((v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}
ms() { awk -v u="$1" 'BEGIN { printf "%.1f", u / 1000 }'; }
# ratio A B [DIGITS]: A / B with DIGITS decimals (2)
ratio() { awk -v a="$1" -v b="$2" -v d="${3:-2}" 'BEGIN { printf "%.*f", d, a / b }'; }
# at_most VALUE LIMIT: "yes" when VALUE <= LIMIT, else "NO" (a target met or not)
at_most() { awk -v v="$1" -v t="$2" 'BEGIN { print (v <= t) ? "yes" : "NO" }'; }
# stat_value KEY FILE: the last KEY=N of FILE (karmactl's KARMACTL_STATS lines, say)
stat_value() { grep -o "\b$1=[0-9]*" "$2" | tail -n1 | cut -d= -f2; }
