# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tap.sh - what the karmactl test scripts share, sourced by them:
#   . tap.sh KARMACTL   (then: check, status, fails, same, k, kv; end with tap_done)
# Runs in a fresh work folder, removed at exit; speaks TAP.

KARMACTL=${1:?usage: SCRIPT KARMACTL}
# This folder, for the other files the scripts source (riocp-lib.sh).
# shellcheck disable=SC2034 # read by the sourcing scripts
TAP_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
KARMACTL=$(realpath "$KARMACTL")
W=$(mktemp -d "${TMPDIR:-/tmp}/karmactl-test.XXXXXX")
trap 'rm -rf "$W"' EXIT
cd "$W" || exit 1

n=0
failed=0
ERR=$W/stderr

report() {	# DESCRIPTION STATUS
	n=$((n + 1))
	if [ "$2" = 0 ]; then
		echo "ok $n - $1"
	else
		echo "not ok $n - $1"
		failed=$((failed + 1))
		[ -s "$ERR" ] && sed 's/^/#   stderr: /' "$ERR"
	fi
	return 0
}

# check DESCRIPTION COMMAND...: the command succeeds (its output goes to a log).
check() {
	local desc=$1
	shift
	"$@" >>"$W/stdout.log" 2>"$ERR"
	report "$desc" $?
}

# status CODE DESCRIPTION COMMAND...: the command exits with CODE.
status() {
	local code=$1 desc=$2 rc
	shift 2
	"$@" >>"$W/stdout.log" 2>"$ERR"
	rc=$?
	[ "$rc" = "$code" ] || echo "# exit $rc (want $code)"
	report "$desc" $((rc != code))
}

# fails CODE DESCRIPTION COMMAND...: exits with CODE and says why in one line.
fails() {
	local code=$1 desc=$2 rc lines
	shift 2
	"$@" >/dev/null 2>"$ERR"
	rc=$?
	lines=$(wc -l <"$ERR")
	if [ "$rc" = "$code" ] && [ "$lines" = 1 ] && grep -q '^karmactl: ' "$ERR"; then
		report "$desc" 0
	else
		echo "# exit $rc (want $code), $lines stderr lines (want 1)"
		report "$desc" 1
	fi
}

# same DESCRIPTION EXPECTED ACTUAL: two strings are equal.
same() {
	if [ "$2" = "$3" ]; then
		report "$1" 0
	else
		diff <(printf '%s\n' "$2") <(printf '%s\n' "$3") | sed 's/^/#   /'
		report "$1" 1
	fi
}

k() { "$KARMACTL" "$@"; }
kv() { "$KARMACTL" -i "$IMG" "$@"; }

# The plan line, and the exit status: non-zero when any check failed.
tap_done() {
	echo "1..$n"
	[ "$failed" = 0 ]
}
