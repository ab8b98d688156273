# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
# lib.sh - shared helpers of the kernel interop tests (sourced, bash).
#
# Each test is a bash script that prints TAP (one line per check) so that
# meson counts every check.  Usage of a test:
#     TEST KARMACTL [mkfs options, e.g. --blocksize 4096 --clustersize 4]
# Environment:
#     ORACLE_CACHE          the oracle's cache (default /var/cache/karma-manager-oracle)
#     KM_INTEROP_REQUIRED=1 a missing oracle is a failure, not a skip (CI)
#     KM_KEEP_WORKDIR=1     keep the work folder (it is always kept on failure)
#     ORACLE_TIMEOUT        seconds one VM may take (default 240)

INTEROP_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ORACLE_DIR=$INTEROP_DIR/oracle
ORACLE_CACHE=${ORACLE_CACHE:-/var/cache/karma-manager-oracle}
export ORACLE_CACHE
ORACLE_TIMEOUT=${ORACLE_TIMEOUT:-240}
UTIL=(python3 "$INTEROP_DIR/util.py")
export LC_ALL=C

T_N=0
T_FAIL=0
W=

# ------------------------------------------------------------------- TAP
diag() { sed 's/^/# /'; }

# The output of the last failed check, as TAP diagnostics (bounded).
show_output() {
    [ -s "$W/last.out" ] || return 0
    head -n 60 "$W/last.out" | diag
}

# ok DESCRIPTION COMMAND...: one check.  The command's stdout and stderr go
# to $W/last.out (a command that wants its stdout elsewhere redirects it
# itself, see `to`) and are shown when the check fails.
ok() {
    local desc=$1 rc=0
    shift
    T_N=$((T_N + 1))
    "$@" > "$W/last.out" 2>&1 || rc=$?
    if [ $rc = 0 ]; then
        echo "ok $T_N - $desc"
    else
        echo "not ok $T_N - $desc"
        T_FAIL=$((T_FAIL + 1))
        printf 'command (exit %d): %s\n' "$rc" "$*" | diag
        show_output
    fi
    return $rc
}

# must DESCRIPTION COMMAND...: a check that the rest of the test needs.
must() {
    ok "$@" || bail_out "cannot go on after: $1"
}

bail_out() {
    echo "Bail out! $*"
    finish_workdir 1
    exit 1
}

# to FILE COMMAND...: COMMAND with its stdout in FILE.
to() {
    local f=$1
    shift
    "$@" > "$f"
}

# The oracle is missing: skip the whole test, unless it is required.
skip_all() {
    if [ "${KM_INTEROP_REQUIRED:-0}" = 1 ]; then
        echo "Bail out! interop required but unavailable: $*"
        exit 1
    fi
    echo "1..0 # SKIP $*"
    exit 0
}

finish_workdir() {
    [ -n "$W" ] && [ -d "$W" ] || return 0
    if [ "$1" != 0 ] || [ "${KM_KEEP_WORKDIR:-0}" = 1 ]; then
        echo "# work folder kept: $W"
    else
        rm -rf "$W"
    fi
}

done_testing() {
    echo "1..$T_N"
    if [ $T_FAIL != 0 ]; then
        echo "# $T_FAIL of $T_N checks failed"
        finish_workdir 1
        exit 1
    fi
    finish_workdir 0
    exit 0
}

# ---------------------------------------------------------- set-up
# interop_init "$@": parses KARMACTL [mkfs options...], checks the oracle,
# makes the work folder.
interop_init() {
    [ $# -ge 1 ] || { echo "usage: $0 KARMACTL [mkfs options...]" >&2; exit 2; }
    KARMACTL=$(realpath -m "$1")
    shift
    GEOMETRY=("$@")
    [ -x "$KARMACTL" ] || skip_all "karmactl not built ($KARMACTL)"
    command -v python3 > /dev/null || skip_all "python3 missing"
    if [ "${INTEROP_ORACLE_OPTIONAL:-0}" != 1 ]; then
        why=$(oracle_missing) && skip_all "$why"
    fi
    W=$(mktemp -d "${TMPDIR:-/tmp}/km-interop.XXXXXX")
    trap 'echo "# interrupted"; finish_workdir 1; exit 1' INT TERM
    echo "# karmactl: $KARMACTL"
    echo "# mkfs options: ${GEOMETRY[*]:-(defaults)}"
    echo "# work folder: $W"
}

# oracle_missing: prints why the oracle cannot run (and succeeds), or fails.
oracle_missing() {
    if ! command -v qemu-system-x86_64 > /dev/null; then
        echo "qemu-system-x86_64 missing (run scripts/install-deps.sh)"
    elif [ ! -f "$ORACLE_CACHE/oracle.env" ]; then
        echo "oracle not set up (run tests/interop/oracle/setup.sh; ORACLE_CACHE=$ORACLE_CACHE)"
    else
        return 1
    fi
}

# skip_check DESCRIPTION REASON: when the oracle is optional and missing, the checks that
# need it are reported as skipped (a failure when it is required).
skip_check() {
    T_N=$((T_N + 1))
    if [ "${KM_INTEROP_REQUIRED:-0}" = 1 ]; then
        echo "not ok $T_N - $1 # required but unavailable: $2"
        T_FAIL=$((T_FAIL + 1))
    else
        echo "ok $T_N - $1 # SKIP $2"
    fi
}

# kc IMAGE ARGS...: karmactl on an image.
kc() {
    local img=$1
    shift
    "$KARMACTL" -i "$img" "$@"
}

# mkfs IMAGE SIZE: a fresh volume with this test's geometry.
mkfs() {
    "$KARMACTL" mkfs "$1" --size "$2" ${GEOMETRY[@]+"${GEOMETRY[@]}"} --label interop
}

# fsck_clean IMAGE: our fsck must find nothing to fix (exit 0).
fsck_clean() {
    kc "$1" fsck
}

# gen FILE SIZE SEED: deterministic content.
gen() {
    "${UTIL[@]}" gen "$@"
}

# ------------------------------------------------------------ the oracle
# oracle NAME ARGS...: one VM boot; the report is in $W/NAME.out and the raw
# serial log in $W/NAME.serial (for `section`).
oracle() {
    local name=$1
    shift
    "$ORACLE_DIR/omfs-oracle" --timeout "$ORACLE_TIMEOUT" --serial-log "$W/$name.serial" \
        "$@" > "$W/$name.out" 2>&1
    local rc=$?
    [ $rc = 0 ] || cat "$W/$name.out"
    return $rc
}

# section NAME SECTION: the raw lines of one section of a boot's log.
section() {
    tr -d '\r' < "$W/$1.serial" |
        awk -v b="@@ORACLE@@ BEGIN $2" -v e="@@ORACLE@@ END $2" \
            '$0 == e { f = 0 } f { print } $0 == b { f = 1 }'
}

# kernel_manifest NAME: the manifest the kernel printed (first 4 columns).
kernel_manifest() {
    section "$1" manifest | cut -f1-4
}

# dmesg_clean NAME: no alert lines, and no omfs line but the mount notice.
dmesg_clean() {
    local bad
    bad=$({ section "$1" dmesg-alerts; section "$1" dmesg-omfs |
        grep -v 'omfs: Mounted volume'; } | grep -v '^$')
    [ -z "$bad" ] && return 0
    echo "$bad"
    return 1
}

# kernel_bfree NAME: statfs free blocks as the kernel reported them.
kernel_bfree() {
    section "$1" statfs | sed -n 's/.* bfree=\([0-9]*\) .*/\1/p' | head -n1
}

# no_read_errors NAME: the kernel read every file it listed.
no_read_errors() {
    ! section "$1" manifest | grep -F 'READ-ERROR' && [ -z "$(section "$1" find-errors)" ]
}

# same_manifest OURS KERNEL: byte-for-byte equal, with a diff when not.
same_manifest() {
    if cmp -s "$1" "$2"; then
        return 0
    fi
    echo "--- ours ($1) vs +++ kernel ($2):"
    diff -u "$1" "$2" | head -n 80
    return 1
}

# same_lines OURS KERNEL: equal as sets of lines (tells a sort-order bug
# apart from a content bug when same_manifest fails).
same_lines() {
    diff <(sort "$1") <(sort "$2") | head -n 80
    cmp -s <(sort "$1") <(sort "$2")
}

# df_agrees IMAGE FREE [OPTIONS...]: `karmactl [OPTIONS] df` says
# "free blocks: FREE" (OPTIONS such as --offset 16M).
df_agrees() {
    kc "$1" "${@:3}" df > "$W/df.txt" || return 1
    cat "$W/df.txt"
    grep -Eq "^free blocks: +$2\$" "$W/df.txt" ||
        { echo "expected 'free blocks: $2' in karmactl df"; return 1; }
}

# equal WHAT A B: a named comparison with a readable failure.
equal() {
    [ "$2" = "$3" ] && return 0
    echo "$1: '$2' != '$3'"
    return 1
}
