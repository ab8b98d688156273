#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# sync-bench.sh KARMACTL BENCH_LIBRARY_FILL: syncing scales linearly
# (docs/PERFORMANCE.md, "Adding scales linearly"; issue 19), as add-bench.sh
# measures karmactl add, on the same files (scale-bench-lib.sh).
#
#   scale:     `karmactl -i DISK sync` of the folders holding the first
#              5,000, 10,000 and 20,000 files into an empty 4 GiB Karma disk.
#              Target: 20,000 take at most 2.2 times what 10,000 take.
#   no-op:     the same sync again on the disk it made: nothing to add, every
#              file probed and found. Target: the same 2.2.
#   per track: BENCH_ADD (1,000) files synced into an empty disk and into a
#              disk holding 20,000 other tracks (bench-library-fill). Target:
#              a file's cost into the big library at most 1.5 times its cost
#              into the empty one; its cost is the plan's time (each file
#              probed and looked up among the tracks: KARMACTL_STATS'
#              sync_plan_us) and the add loop's (add_files_us), over the
#              files. The library's open and the commit are per command.
#
# Sizes alternate within each run, each taken RUNS times; medians count.
# Not a test: prints tables, exits 2 when a target is missed.
#
# Environment: as scale-bench-lib.sh says (BENCH_SIZES, BENCH_LIBRARY,
# BENCH_ADD, BENCH_RUNS, BENCH_DIR).
set -euo pipefail
KARMACTL=${1:?usage: sync-bench.sh KARMACTL BENCH_LIBRARY_FILL}
FILL=${2:?usage: sync-bench.sh KARMACTL BENCH_LIBRARY_FILL}
NAME=sync-bench
# shellcheck source=scale-bench-lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/scale-bench-lib.sh"

# run_sync N ADDS STATS: the timed sync (WALL_US, CPU_US) of the folders of the
# first N files into $DIR/disk.img, which must add ADDS files (0: says
# "nothing to add"); karmactl's stats in STATS.
run_sync() {
    local added
    # shellcheck disable=SC2046
    timed env KARMACTL_STATS=1 "$KARMACTL" -i "$DIR/disk.img" sync $(folders "$1") \
        > "$DIR/sync.out" 2> "$3"
    added=$(grep -c '^added fid ' "$DIR/sync.out" || true)
    if [ "$added" != "$2" ] || { [ "$2" = 0 ] && ! grep -q '^nothing to add$' "$DIR/sync.out"; }; then
        echo "$NAME: synced $added of $2 files" >&2
        cat "$3" >&2
        exit 1
    fi
}

# ------------------------------------------------------------ scale, no-op
declare -A scale_us scale_cpu noop_us noop_cpu
for _ in $(seq "$RUNS"); do
    for n in "${SIZES[@]}"; do
        fresh_disk "$DIR/empty.img"
        run_sync "$n" "$n" "$DIR/scale.stats"
        scale_us[$n]+="$WALL_US " scale_cpu[$n]+="$CPU_US "
        run_sync "$n" 0 "$DIR/noop.stats"
        noop_us[$n]+="$WALL_US " noop_cpu[$n]+="$CPU_US "
    done
done
verify_disk

# -------------------------------------------------------------- per track
empty_plan=() empty_files=() empty_cmd=()
big_plan=() big_files=() big_cmd=() big_commit=() big_open=()
for _ in $(seq "$RUNS"); do
    fresh_disk "$DIR/empty.img"
    run_sync "$ADD" "$ADD" "$DIR/empty.stats"
    empty_cmd+=("$WALL_US")
    empty_plan+=("$(stat_value sync_plan_us "$DIR/empty.stats")")
    empty_files+=("$(stat_value add_files_us "$DIR/empty.stats")")
    fresh_disk "$DIR/library.img"
    run_sync "$ADD" "$ADD" "$DIR/big.stats"
    big_cmd+=("$WALL_US")
    big_plan+=("$(stat_value sync_plan_us "$DIR/big.stats")")
    big_files+=("$(stat_value add_files_us "$DIR/big.stats")")
    big_commit+=("$(stat_value add_commit_us "$DIR/big.stats")")
    big_open+=("$(stat_value library_open_us "$DIR/big.stats")")
done
verify_disk

# ----------------------------------------------------------------- report
scale_table "files synced into an empty disk" scale_us scale_cpu
sync_ratio=$SCALE_RATIO sync_cpu_ratio=$SCALE_CPU_RATIO
scale_table "the same sync again (nothing to add)" noop_us noop_cpu
noop_ratio=$SCALE_RATIO noop_cpu_ratio=$SCALE_CPU_RATIO
echo
echo "| $ADD files synced into | plan | add loop | per file | commit | library open | whole command | per file |"
echo "|---|---|---|---|---|---|---|---|"
ep=$(median "${empty_plan[@]}") ef=$(median "${empty_files[@]}") ec=$(median "${empty_cmd[@]}")
bp=$(median "${big_plan[@]}") bf=$(median "${big_files[@]}") bc=$(median "${big_cmd[@]}")
bco=$(median "${big_commit[@]}") bo=$(median "${big_open[@]}")
printf '| an empty disk | %s ms | %s ms | %s | | | %s ms | %s |\n' "$(ms "$ep")" "$(ms "$ef")" \
    "$(((ep + ef) / ADD)) us" "$(ms "$ec")" "$((ec / ADD)) us"
printf '| %s tracks | %s ms | %s ms | %s | %s ms | %s ms | %s ms | %s |\n' "$LIBRARY" \
    "$(ms "$bp")" "$(ms "$bf")" "$(((bp + bf) / ADD)) us" "$(ms "$bco")" "$(ms "$bo")" \
    "$(ms "$bc")" "$((bc / ADD)) us"
targets_header
target_row "sync of ${SIZES[-1]} files / of ${SIZES[-2]}, time" "$sync_ratio" 2.2
echo "| sync of ${SIZES[-1]} files / of ${SIZES[-2]}, CPU time | $sync_cpu_ratio | | |"
target_row "sync again of ${SIZES[-1]} files / of ${SIZES[-2]}, time" "$noop_ratio" 2.2
echo "| sync again of ${SIZES[-1]} files / of ${SIZES[-2]}, CPU time | $noop_cpu_ratio | | |"
target_row "per file into $LIBRARY tracks / into none (plan and add loop)" \
    "$(ratio $((bp + bf)) $((ep + ef)))" 1.5
echo "| per file into $LIBRARY tracks / into none (whole command) | $(ratio "$bc" "$ec") | | |"

echo
echo "# every run (us):"
print_runs sync scale_us
print_runs "sync, CPU" scale_cpu
print_runs "sync again" noop_us
print_runs "sync again, CPU" noop_cpu
echo "# sync $ADD into none, plan: ${empty_plan[*]}; loop: ${empty_files[*]}; command: ${empty_cmd[*]}"
echo "# sync $ADD into $LIBRARY, plan: ${big_plan[*]}; loop: ${big_files[*]}; command: ${big_cmd[*]}; open: ${big_open[*]}"
exit "$STATUS"
