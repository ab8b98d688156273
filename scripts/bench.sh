#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench.sh - the benchmark of docs/PERFORMANCE.md: builds an optimized
# karmactl (./_build-release, -Dbuildtype=release) and runs
# tests/bench/bench.sh with it.  Installs packages like the other scripts.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${KM_BENCH_BUILD:-$ROOT/_build-release}
"$ROOT/scripts/install-deps.sh" > /dev/null
"$ROOT/scripts/build.sh" "$BUILD" -Dbuildtype=release > /dev/null || { echo "bench.sh: build failed (run scripts/build.sh $BUILD -Dbuildtype=release to see why)" >&2; exit 1; }
exec "$ROOT/tests/bench/bench.sh" "$BUILD/src/cli/karmactl"
