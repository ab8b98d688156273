# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# loop-bench-lib.sh - what the benchmarks on loop devices share (sourced by
# direct-bench.sh and write-bench.sh): the root check, their work folder
# and the loop devices they attach (both removed at exit); and bench-lib.sh's
# timing and arithmetic.  The sourcing script sets DIR and NAME first.

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

# shellcheck source=bench-lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/bench-lib.sh"
