#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# session-add-bench.sh KARMACTL BENCH_LIBRARY_FILL: the app's add scales
# linearly (docs/PERFORMANCE.md, "Adding scales linearly"; issue 19), as
# add-bench.sh measures karmactl add, on the same files
# (scale-bench-lib.sh). bench-session-add (built beside bench-library-fill)
# opens the disk in a KmSession and adds the folders as a drop on the
# window does (its worker's job, committing in batches), no window needed;
# the time is from the add queued to its end, the tracks list up to date.
#
#   scale:     the folders holding the first 5,000, 10,000 and 20,000 files
#              added into an empty 4 GiB Karma disk. Target: 20,000 take at
#              most 2.2 times what 10,000 take.
#   per track: BENCH_ADD (1,000) files added into an empty disk and into a
#              disk holding 20,000 tracks (bench-library-fill). Target: a
#              file's cost into the big library at most 1.5 times the one
#              into the empty disk. Its cost is the time from the add queued
#              to the progress showing the last file begun, over the files:
#              the batches' commits on the way are in it; the last file and
#              the last commit (smalldb rewritten once more, as karmactl's
#              one commit) are per add and shown apart, as is the session's
#              open (the library read).
#
# Sizes alternate within each run, each taken RUNS times; medians count.
# Not a test: prints tables, exits 2 when a target is missed.
#
# Environment: as scale-bench-lib.sh says (BENCH_SIZES, BENCH_LIBRARY,
# BENCH_ADD, BENCH_RUNS, BENCH_DIR).
set -euo pipefail
KARMACTL=${1:?usage: session-add-bench.sh KARMACTL BENCH_LIBRARY_FILL}
FILL=${2:?usage: session-add-bench.sh KARMACTL BENCH_LIBRARY_FILL}
NAME=session-add-bench
BENCH=$(dirname "$FILL")/bench-session-add
[ -x "$BENCH" ] || { echo "$NAME: $BENCH was not built" >&2; exit 1; }
# shellcheck source=scale-bench-lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/scale-bench-lib.sh"

# add IMAGE N OUT: a fresh copy of IMAGE, the first N files added through
# the session; bench-session-add's line in OUT.
add() {
    fresh_disk "$1"
    # shellcheck disable=SC2046
    "$BENCH" "$DIR/disk.img" $(folders "$2") > "$3" 2> "$DIR/add.err" ||
        { echo "$NAME: bench-session-add failed" >&2; cat "$3" "$DIR/add.err" >&2; exit 1; }
    [ "$(stat_value added "$3")" = "$2" ] ||
        { echo "$NAME: added $(stat_value added "$3") of $2 files" >&2; exit 1; }
}

# ------------------------------------------------------------------ scale
declare -A scale_us scale_cpu
for _ in $(seq "$RUNS"); do
    for n in "${SIZES[@]}"; do
        add "$DIR/empty.img" "$n" "$DIR/scale.out"
        scale_us[$n]+="$(stat_value add_us "$DIR/scale.out") "
        scale_cpu[$n]+="$(stat_value add_cpu_us "$DIR/scale.out") "
    done
done
verify_disk

# -------------------------------------------------------------- per track
empty_loop=() empty_add=() big_loop=() big_add=() big_open=()
for _ in $(seq "$RUNS"); do
    add "$DIR/empty.img" "$ADD" "$DIR/empty.out"
    empty_loop+=("$(stat_value add_last_file_us "$DIR/empty.out")")
    empty_add+=("$(stat_value add_us "$DIR/empty.out")")
    add "$DIR/library.img" "$ADD" "$DIR/big.out"
    big_loop+=("$(stat_value add_last_file_us "$DIR/big.out")")
    big_add+=("$(stat_value add_us "$DIR/big.out")")
    big_open+=("$(stat_value open_us "$DIR/big.out")")
done
verify_disk

# ----------------------------------------------------------------- report
scale_table "files added into an empty disk (the app's add)" scale_us scale_cpu
echo
echo "| $ADD files added into | to the last file | per file | the last file and commit | whole add | per file | session open |"
echo "|---|---|---|---|---|---|---|"
el=$(median "${empty_loop[@]}") ea=$(median "${empty_add[@]}")
bl=$(median "${big_loop[@]}") ba=$(median "${big_add[@]}") bo=$(median "${big_open[@]}")
printf '| an empty disk | %s ms | %s | %s ms | %s ms | %s | |\n' "$(ms "$el")" \
    "$((el / ADD)) us" "$(ms $((ea - el)))" "$(ms "$ea")" "$((ea / ADD)) us"
printf '| %s tracks | %s ms | %s | %s ms | %s ms | %s | %s ms |\n' "$LIBRARY" "$(ms "$bl")" \
    "$((bl / ADD)) us" "$(ms $((ba - bl)))" "$(ms "$ba")" "$((ba / ADD)) us" "$(ms "$bo")"
targets_header
target_row "${SIZES[-1]} files / ${SIZES[-2]} files, time" "$SCALE_RATIO" 2.2
echo "| ${SIZES[-1]} files / ${SIZES[-2]} files, CPU time | $SCALE_CPU_RATIO | | |"
target_row "per file into $LIBRARY tracks / into none (to the last file)" "$(ratio "$bl" "$el")" 1.5
echo "| per file into $LIBRARY tracks / into none (whole add) | $(ratio "$ba" "$ea") | | |"

echo
echo "# every run (us):"
print_runs add scale_us
print_runs "add, CPU" scale_cpu
echo "# add $ADD into none, to the last file: ${empty_loop[*]}; whole: ${empty_add[*]}"
echo "# add $ADD into $LIBRARY, to the last file: ${big_loop[*]}; whole: ${big_add[*]}; open: ${big_open[*]}"
exit "$STATUS"
