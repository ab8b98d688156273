#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# run-fuzzers.sh [-t SECONDS] [-j JOBS] [-b BUILD] [-w WORKDIR] [-n] [TARGET...]
#
# Builds the libFuzzer targets (CC=clang, -Dfuzzing=true, in BUILD, default
# build-fuzz; -n: they are built already, as when `meson test` runs this)
# and runs each TARGET (default: all) for SECONDS (default 600), JOBS at a
# time (default 2), niced. What libFuzzer finds goes to
# WORKDIR/TARGET (default /tmp/km-fuzz), crashes to WORKDIR/TARGET-crash-*;
# the committed seeds in corpus/ are only read. Prints per target:
# executions, exec/s, cov and ft (libFuzzer's edge and feature counts),
# seconds and crash files. Logs: WORKDIR/TARGET.log. Exits 1 when a target
# left a crash file (a crash, a leak, a timeout or running out of memory).
set -euo pipefail

seconds=600 jobs=2 build=build-fuzz work=/tmp/km-fuzz make=1
while getopts t:j:b:w:n opt; do
	case $opt in
	t) seconds=$OPTARG ;;
	j) jobs=$OPTARG ;;
	b) build=$OPTARG ;;
	w) work=$OPTARG ;;
	n) make=0 ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
here=$(dirname "$(realpath "$0")")
src=$(realpath "$here/../..")
targets=("$@")
[ $# -eq 0 ] && targets=(omfs smalldb properties playlist label library sources usb xspf headers)

# The largest input worth trying for each target (a volume, a file, a sector).
max_len() {
	case $1 in
	omfs) echo 262144 ;;
	library) echo 180000 ;;
	smalldb | usb) echo 16384 ;;
	properties) echo 8192 ;;
	playlist | xspf | headers) echo 4096 ;;
	label) echo 1024 ;;
	*) echo 4096 ;;
	esac
}

seeds() {
	if [ "$1" = omfs ]; then echo "$here/corpus"; else echo "$here/corpus/$1"; fi
}

run_one() {
	local t=$1 log="$work/$1.log"

	mkdir -p "$work/$t"
	nice "$build/tests/fuzz/fuzz-$t" -max_total_time="$seconds" -max_len="$(max_len "$t")" \
		-timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$work/$t-" "$work/$t" "$(seeds "$t")" >"$log" 2>&1 || true
	report "$t"
}

report() {
	local t=$1 log="$work/$1.log" execs rate cov ft crashes

	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
	ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
	crashes=$(find "$work" -maxdepth 1 -name "$t-*" ! -name '*.log' | wc -l)
	printf '%-11s executions %-10s exec/s %-6s cov %-6s ft %-6s %ss crashes %s\n' \
		"$t" "${execs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "$seconds" "$crashes"
}

if [ $make = 1 ] && [ ! -d "$build" ]; then
	CC=clang meson setup "$build" "$src" -Dfuzzing=true -Dinterop=disabled >/dev/null
fi
if [ $make = 1 ]; then
	ninja -C "$build" -j2 "${targets[@]/#/tests/fuzz/fuzz-}" >/dev/null
fi
mkdir -p "$work"
for t in "${targets[@]}"; do
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
		wait -n || true
	done
	run_one "$t" &
done
wait || true
crashes=$(find "$work" -maxdepth 1 \( -name '*-crash-*' -o -name '*-leak-*' -o \
	-name '*-timeout-*' -o -name '*-oom-*' \) | wc -l)
if [ "$crashes" -gt 0 ]; then
	echo "run-fuzzers.sh: $crashes crash files in $work (the logs say what each is)" >&2
	exit 1
fi
