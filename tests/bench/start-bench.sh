#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# start-bench.sh KARMACTL [BENCH_LIBRARY_FILL]: karmactl's own start
# (docs/PERFORMANCE.md, "karmactl's start"; issue 19).
#
# Small commands on a small volume (an 8 MiB OMFS image holding one short
# file, in BENCH_DIR): `karmactl -i IMG ls /`, `karmactl -i IMG cat /hi`
# and `karmactl -i IMG df`, against `dd if=IMG bs=1M count=1 of=/dev/null`
# (the issue's reference) and `true` (/bin/true: what starting any
# dynamically linked program costs here). Each is started BENCH_STARTS
# times in a row, and that block is repeated BENCH_RUNS times, alternating
# the commands; the figure is the median over blocks of the time per start:
# its CPU time (perf stat's task-clock, which other programs' load
# disturbs less than the wall clock) when perf is there, else wall time. Target: each karmactl command starts, runs and exits in at most
# 5 ms. A
# loaded machine inflates every figure alike, so the differences to `dd`
# and `true` say more than the times themselves. Also prints the shared
# libraries karmactl loads at start. Not a test: prints a table, exits 2
# when a target is missed.
#
# Environment: BENCH_RUNS (7), BENCH_STARTS (40), BENCH_DIR
# (/dev/shm/km-start-bench, a tmpfs: no disk in the way; removed afterwards).
set -euo pipefail
KARMACTL=${1:?usage: start-bench.sh KARMACTL}
RUNS=${BENCH_RUNS:-7}
STARTS=${BENCH_STARTS:-40}
DIR=${BENCH_DIR:-/dev/shm/km-start-bench}
export LC_ALL=C

rm -rf "$DIR"
mkdir -p "$DIR"
trap 'rm -rf "$DIR"' EXIT
IMG=$DIR/small.img
"$KARMACTL" mkfs --size 8M "$IMG" > /dev/null
echo "a short file" > "$DIR/hi"
"$KARMACTL" -i "$IMG" put "$DIR/hi" /hi
TRUE=$(command -v true)
if [ "$TRUE" = true ]; then TRUE=/bin/true; fi  # the program, not the shell's builtin

# shellcheck source=bench-lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/bench-lib.sh"
# per_start COMMAND...: the time of one start in us, over STARTS starts: its
# CPU time (perf stat's task-clock) when perf can count it, else wall time.
if perf stat -x, -e task-clock true > /dev/null 2>&1; then
    CLOCK="CPU time (perf stat -e task-clock)"
    per_start() {
        perf stat -x, -e task-clock -r "$STARTS" "$@" 2>&1 > /dev/null |
            awk -F, '$3 == "task-clock" { printf "%d\n", $1 * 1000 }'
    }
else
    CLOCK="wall time (no perf)"
    per_start() {
        local t0 t1
        t0=$(now_us)
        for ((i = 0; i < STARTS; i++)); do "$@" > /dev/null; done
        t1=$(now_us)
        echo $(((t1 - t0) / STARTS))
    }
fi
# ms US: in ms with 2 decimals (bench-lib.sh's has 1: a start takes a few ms)
ms() { awk -v u="$1" 'BEGIN { printf "%.2f", u / 1000 }'; }

names=(true dd ls cat df)
run_one() {
    case $1 in
    true) per_start "$TRUE" ;;
    dd) per_start dd if="$IMG" bs=1M count=1 of=/dev/null status=none ;;
    ls) per_start "$KARMACTL" -i "$IMG" ls / ;;
    cat) per_start "$KARMACTL" -i "$IMG" cat /hi ;;
    df) per_start "$KARMACTL" -i "$IMG" df ;;
    esac
}

echo "# karmactl: $KARMACTL"
echo "# $RUNS blocks of $STARTS starts each, median of the blocks; $CLOCK; in $DIR"
echo "# $(nproc) cores, $(uname -r), load average $(cut -d' ' -f1-3 /proc/loadavg)"
declare -A times
for n in "${names[@]}"; do run_one "$n" > /dev/null; done  # warm-up: everything in the page cache
for _ in $(seq "$RUNS"); do
    for n in "${names[@]}"; do times[$n]+=" $(run_one "$n")"; done
done

status=0
declare -A med
for n in "${names[@]}"; do med[$n]=$(median ${times[$n]}); done
echo
echo "| command | per start | minus \`true\` | minus \`dd\` | target | met |"
echo "|---|---|---|---|---|---|"
for n in "${names[@]}"; do
    case $n in
    true) label='`true`' ;;
    dd) label='`dd if=IMG bs=1M count=1`' ;;
    ls) label='`karmactl -i IMG ls /`' ;;
    cat) label='`karmactl -i IMG cat /hi`' ;;
    df) label='`karmactl -i IMG df`' ;;
    esac
    target='' met=''
    if [ "$n" = ls ] || [ "$n" = cat ] || [ "$n" = df ]; then
        target='<= 5 ms'
        met=$(awk -v u="${med[$n]}" 'BEGIN { print (u <= 5000) ? "yes" : "NO" }')
        [ "$met" = yes ] || status=2
    fi
    printf '| %s | %s ms | %s ms | %s ms | %s | %s |\n' "$label" "$(ms "${med[$n]}")" \
        "$(ms $((med[$n] - med[true])))" "$(ms $((med[$n] - med[dd])))" "$target" "$met"
done
echo
mapfile -t libs < <(ldd "$KARMACTL" | awk '/=>/ { print $1 }')
echo "# shared libraries karmactl loads at start (${#libs[@]}):" "${libs[@]}"
for n in "${names[@]}"; do echo "# $n (us per start, each block):${times[$n]}"; done
exit $status
