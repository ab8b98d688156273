#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench.sh - the benchmarks of docs/PERFORMANCE.md: builds an optimized
# karmactl (./_build-release, -Dbuildtype=release) and runs
# tests/bench/bench.sh (bulk transfers) and tests/bench/library-bench.sh
# (the Karma library) with it.  Installs packages like the other scripts.
# Exits 2 when a target of either is missed.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${KM_BENCH_BUILD:-$ROOT/_build-release}
"$ROOT/scripts/install-deps.sh" > /dev/null
"$ROOT/scripts/build.sh" "$BUILD" -Dbuildtype=release > /dev/null || { echo "bench.sh: build failed (run scripts/build.sh $BUILD -Dbuildtype=release to see why)" >&2; exit 1; }
status=0
"$ROOT/tests/bench/bench.sh" "$BUILD/src/cli/karmactl" || status=$?
echo
"$ROOT/tests/bench/library-bench.sh" "$BUILD/src/cli/karmactl" \
    "$BUILD/tests/bench/bench-library-fill" || { s=$?; [ "$status" -gt "$s" ] || status=$s; }
exit "$status"
