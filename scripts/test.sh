#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test.sh - build and run the whole test suite (as root on Debian 12 or 13:
# it installs what it needs with apt).  Four builds:
#   _build         a normal build, every suite
#   _build-asan    the same with -Db_sanitize=address,undefined
#   _build-clang   everything built by clang (its warnings are errors too)
#                  with the libFuzzer targets (-Dfuzzing=true); the unit and
#                  fuzz suites, and every fuzz target run for 20 s (fuzz-run)
#   _build-trixie  the default options in a Debian 13 root (debootstrap,
#                  cached in /var/cache: scripts/test-trixie.sh), every suite
#                  but the kernel interop one
# The kernel interop suite is set up (qemu + Debian's kernel, cached in
# $ORACLE_CACHE, default /var/cache/karma-manager-oracle) and required.
# The Debian 13 root is made or refreshed in the background while the first
# two builds run: it waits on the network and dpkg, they on the CPU.
# Ends with "N passed, N failed[, N skipped]" alone on the last line (all
# four builds counted); the exit status is non-zero when anything failed.
#
# Environment: KM_BUILD_PREFIX (default ./_build), MESON_TEST_ARGS (extra
# arguments for `meson test`, e.g. "--suite unit").
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT" || exit
PREFIX=${KM_BUILD_PREFIX:-$ROOT/_build}

fail_early() {
    echo "test.sh: $*"
    echo "0 passed, 1 failed"
    exit 1
}
scripts/install-deps.sh || fail_early "installing the packages failed"
SECONDS=0
echo "== Debian 13 root (scripts/test-trixie.sh --prepare), in the background"
trixie_log=$(mktemp)
scripts/test-trixie.sh --prepare >"$trixie_log" 2>&1 &
trixie_prepare=$!
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

# run_clang_build DIR: the clang build and its suites (see the top).
run_clang_build() {
    local dir=$1
    echo "== $(basename "$dir"): CC=clang -Dfuzzing=true"
    rm -f "$dir/meson-logs/testlog.json"
    CC=clang scripts/build.sh "$dir" -Dfuzzing=true -Dinterop=disabled ||
        { echo "$(basename "$dir"): configure or build failed"; return 1; }
    meson test -C "$dir" --print-errorlogs --suite unit --suite fuzz --suite fuzz-run
}

# run_trixie: waits for the root, then builds and tests in it.
run_trixie() {
    local prepared=0
    wait "$trixie_prepare" && prepared=1
    echo "== Debian 13 root ready after $(minutes "$SECONDS")"
    if [ $prepared = 0 ]; then
        tail -n 40 "$trixie_log"
        echo "_build-trixie: making the Debian 13 root failed"
        return 1
    fi
    tail -n 1 "$trixie_log"
    echo "== _build-trixie: Debian 13, default options, every suite but interop"
    scripts/test-trixie.sh
}

minutes() {
    printf '%dm%02ds' $(($1 / 60)) $(($1 % 60))
}

rc=0
mkdir -p "$(dirname "$PREFIX")"
start=$SECONDS
run_build "$PREFIX" || rc=1
run_build "$PREFIX-asan" -Db_sanitize=address,undefined || rc=1
run_clang_build "$PREFIX-clang" || rc=1
debian12=$SECONDS
run_trixie || rc=1
rm -f "$trixie_log"

echo "== timings: Debian 12 builds $(minutes $((debian12 - start))), Debian 13 build" \
    "and tests $(minutes $((SECONDS - debian12))), total $(minutes "$SECONDS")" \
    "(from the packages on)"
echo "== summary"
python3 scripts/test-summary.py "$PREFIX" "$PREFIX-asan" "$PREFIX-clang" "$ROOT/_build-trixie" ||
    rc=1
exit $rc
