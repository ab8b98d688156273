#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench.sh [NAME...] - the benchmarks of docs/PERFORMANCE.md: builds an
# optimized karmactl (./_build-release, -Dbuildtype=release) and runs every
# tests/bench/*.sh with it but the helpers they source (*-lib.sh), or the
# NAMEs given: bench, library-bench, usb-bench, backup-bench, app-bench,
# add-bench, sync-bench, session-add-bench, direct-bench, write-bench,
# start-bench, kernel-bench, convert-bench, convert-add-bench; each gets
# karmactl and the library filler (tests/bench/bench-library-fill.c).
# Installs packages like the other scripts.  Exits 2 when any benchmark
# missed its target.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${KM_BENCH_BUILD:-$ROOT/_build-release}
"$ROOT/scripts/install-deps.sh" > /dev/null
"$ROOT/scripts/build.sh" "$BUILD" -Dbuildtype=release > /dev/null || { echo "bench.sh: build failed (run scripts/build.sh $BUILD -Dbuildtype=release to see why)" >&2; exit 1; }
if [ $# = 0 ]; then
    for script in "$ROOT"/tests/bench/*.sh; do
        case $script in
        *-lib.sh) ;;
        *) set -- "$@" "$(basename "$script" .sh)" ;;
        esac
    done
fi
status=0
for name in "$@"; do
    echo "## $name"
    "$ROOT/tests/bench/$name.sh" "$BUILD/src/cli/karmactl" \
        "$BUILD/tests/bench/bench-library-fill" || status=$?
    echo
done
exit $status
