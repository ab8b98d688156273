# SPDX-License-Identifier: GPL-2.0-or-later
#
# loop-bench-lib.sh - what the benchmarks on loop devices share (sourced by
# direct-bench.sh and write-bench.sh): the root check, their work folder
# and the loop devices they attach (both removed at exit), timing and
# arithmetic helpers.  The sourcing script sets DIR and NAME first.

if [ "$(id -u)" != 0 ] || ! command -v losetup > /dev/null; then
    echo "# $NAME: skipped: needs root and losetup (loop devices, drop_caches)"
    exit 0
fi
rm -rf "$DIR"
mkdir -p "$DIR"
loops=()  # the loop devices attached, detached at exit
cleanup() {
    for l in "${loops[@]}"; do losetup -d "$l" 2> /dev/null || true; done
    rm -rf "$DIR"
}
trap cleanup EXIT

now_us() { echo "${EPOCHREALTIME/./}"; }
median() {
    printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END {
        print (NR % 2) ? v[(NR + 1) / 2] : int((v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}
ms() { awk -v u="$1" 'BEGIN { printf "%.1f", u / 1000 }'; }
# ratio A B [DIGITS]: A / B with DIGITS decimals (2)
ratio() { awk -v a="$1" -v b="$2" -v d="${3:-2}" 'BEGIN { printf "%.*f", d, a / b }'; }
