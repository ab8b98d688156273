#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test.sh - build and run the whole test suite (as root on Debian 12: it
# installs what it needs with apt).  Two builds, each runs every suite:
#   _build       a normal build
#   _build-asan  the same with -Db_sanitize=address,undefined
# The kernel interop suite is set up (qemu + Debian's kernel, cached in
# $ORACLE_CACHE, default /var/cache/karma-manager-oracle) and required.
# Ends with "N passed, N failed[, N skipped]" alone on the last line; the
# exit status is non-zero when anything failed.
#
# Environment: KM_BUILD_PREFIX (default ./_build), MESON_TEST_ARGS (extra
# arguments for `meson test`, e.g. "--suite unit").
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
PREFIX=${KM_BUILD_PREFIX:-$ROOT/_build}

fail_early() {
    echo "test.sh: $*"
    echo "0 passed, 1 failed"
    exit 1
}
scripts/install-deps.sh || fail_early "installing the packages failed"
echo "== kernel oracle (tests/interop/oracle/setup.sh)"
tests/interop/oracle/setup.sh || fail_early "setting up the kernel oracle failed"

run_build() {  # run_build DIR OPTIONS...
    local dir=$1
    shift
    echo "== $(basename "$dir"): $*"
    rm -f "$dir/meson-logs/testlog.json"
    scripts/build.sh "$dir" -Dinterop=enabled "$@" ||
        { echo "$(basename "$dir"): configure or build failed"; return 1; }
    # shellcheck disable=SC2086
    meson test -C "$dir" --print-errorlogs ${MESON_TEST_ARGS:-}
}

rc=0
mkdir -p "$(dirname "$PREFIX")"
run_build "$PREFIX" || rc=1
run_build "$PREFIX-asan" -Db_sanitize=address,undefined || rc=1

echo "== summary"
python3 scripts/test-summary.py "$PREFIX" "$PREFIX-asan" || rc=1
exit $rc
