#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# add-bench.sh KARMACTL BENCH_LIBRARY_FILL: adding scales linearly
# (docs/PERFORMANCE.md, "Adding scales linearly"; issue 19).
#
#   scale:     `karmactl -i DISK add -r` of 5,000, 10,000 and 20,000 tiny
#              tagged WAV files into an empty 4 GiB Karma disk (mkkarma, not
#              timed). Target: 20,000 take at most 2.2 times what 10,000
#              take (twice the files, twice the time, and a 10% margin).
#   per track: BENCH_ADD (1,000) of those files added into an empty disk and
#              into a disk holding 20,000 tracks (bench-library-fill, copied
#              afresh for each run, not timed). Target: the cost of a track
#              into the big library at most 1.5 times the cost into the empty
#              one. The cost of a track is the add loop's wall time divided by
#              the files (KARMACTL_STATS' add_files_us: from the first file
#              imported to the last one copied); the library's open and
#              commit are per command, not per track, and are shown apart.
#
# Sizes alternate within each run, each taken RUNS times; medians count.
# Everything lives in a tmpfs. Not a test: prints a table, exits 2 when a
# target is missed.
#
# Environment: as scale-bench-lib.sh says (BENCH_SIZES, BENCH_LIBRARY,
# BENCH_ADD, BENCH_RUNS, BENCH_DIR).
set -euo pipefail
KARMACTL=${1:?usage: add-bench.sh KARMACTL BENCH_LIBRARY_FILL}
FILL=${2:?usage: add-bench.sh KARMACTL BENCH_LIBRARY_FILL}
NAME=add-bench
# shellcheck source=scale-bench-lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/scale-bench-lib.sh"

# add IMAGE N STATS: a fresh copy of IMAGE, then the timed add of the first
# N files (WALL_US, CPU_US), karmactl's stats in STATS.
add() {
    local added
    fresh_disk "$1"
    # shellcheck disable=SC2046
    timed env KARMACTL_STATS=1 "$KARMACTL" -i "$DIR/disk.img" add -r $(folders "$2") \
        > "$DIR/add.out" 2> "$3"
    added=$(grep -c '^added fid ' "$DIR/add.out" || true)
    [ "$added" = "$2" ] || { echo "$NAME: added $added of $2 files" >&2; cat "$3" >&2; exit 1; }
}

# ------------------------------------------------------------------ scale
declare -A scale_us scale_cpu
for _ in $(seq "$RUNS"); do
    for n in "${SIZES[@]}"; do
        add "$DIR/empty.img" "$n" "$DIR/scale.stats"
        scale_us[$n]+="$WALL_US " scale_cpu[$n]+="$CPU_US "
    done
done
verify_disk

# -------------------------------------------------------------- per track
empty_files=() empty_cmd=() empty_commit=() big_files=() big_cmd=() big_commit=() big_open=()
for _ in $(seq "$RUNS"); do
    add "$DIR/empty.img" "$ADD" "$DIR/empty.stats"
    empty_cmd+=("$WALL_US")
    empty_files+=("$(stat_value add_files_us "$DIR/empty.stats")")
    empty_commit+=("$(stat_value add_commit_us "$DIR/empty.stats")")
    add "$DIR/library.img" "$ADD" "$DIR/big.stats"
    big_cmd+=("$WALL_US")
    big_files+=("$(stat_value add_files_us "$DIR/big.stats")")
    big_commit+=("$(stat_value add_commit_us "$DIR/big.stats")")
    big_open+=("$(stat_value library_open_us "$DIR/big.stats")")
done
verify_disk

# ----------------------------------------------------------------- report
scale_table "files added into an empty disk" scale_us scale_cpu
echo
echo "| $ADD files added into | add loop | per file | commit | library open | whole command | per file |"
echo "|---|---|---|---|---|---|---|"
ef=$(median "${empty_files[@]}") ec=$(median "${empty_cmd[@]}") eco=$(median "${empty_commit[@]}")
bf=$(median "${big_files[@]}") bc=$(median "${big_cmd[@]}") bco=$(median "${big_commit[@]}")
bo=$(median "${big_open[@]}")
printf '| an empty disk | %s ms | %s | %s ms | | %s ms | %s |\n' "$(ms "$ef")" \
    "$((ef / ADD)) us" "$(ms "$eco")" "$(ms "$ec")" "$((ec / ADD)) us"
printf '| %s tracks | %s ms | %s | %s ms | %s ms | %s ms | %s |\n' "$LIBRARY" "$(ms "$bf")" \
    "$((bf / ADD)) us" "$(ms "$bco")" "$(ms "$bo")" "$(ms "$bc")" "$((bc / ADD)) us"
targets_header
target_row "${SIZES[-1]} files / ${SIZES[-2]} files, time" "$SCALE_RATIO" 2.2
echo "| ${SIZES[-1]} files / ${SIZES[-2]} files, CPU time | $SCALE_CPU_RATIO | | |"
target_row "per file into $LIBRARY tracks / into none (add loop)" "$(ratio "$bf" "$ef")" 1.5
echo "| per file into $LIBRARY tracks / into none (whole command) | $(ratio "$bc" "$ec") | | |"

echo
echo "# every run (us):"
print_runs scale scale_us
print_runs "scale, CPU" scale_cpu
echo "# add $ADD into none, loop: ${empty_files[*]}; command: ${empty_cmd[*]}"
echo "# add $ADD into $LIBRARY, loop: ${big_files[*]}; command: ${big_cmd[*]}; open: ${big_open[*]}"
exit "$STATUS"
