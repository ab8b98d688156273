#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# convert-add-bench.sh KARMACTL: adding files that are converted costs about
# the larger of converting them and copying them, not their sum
# (docs/PERFORMANCE.md, "Converting while copying"; issue 17).
#
# BENCH_FILES (50) AAC files of BENCH_SECONDS (30) s each (ffmpeg, pink noise,
# stereo 44.1 kHz, 128 kbit/s, tagged), then three timings, alternating, each
# taken BENCH_RUNS (3) times into a fresh disk; medians count:
#   convert alone: `karmactl -i DISK add -r` of the AAC files into a disk
#                  image in a tmpfs: the conversions, and copies to memory
#                  that cost next to nothing;
#   copy alone:    `karmactl --simulate -i DISK add -r` of the converted files
#                  (exported from the first disk) into the simulated USB 2.0
#                  player in real time (KARMACTL_SIM_REAL_TIME=1);
#   end to end:    the AAC files into the simulated player in real time.
# Target: end to end at most 1.15 x max(convert alone, copy alone). The sum
# of the two is shown too: what converting and copying one after the other
# would cost. Not a test: prints a table, exits 2 when the target is missed.
#
# Environment: BENCH_FILES, BENCH_SECONDS, BENCH_RUNS, BENCH_QUALITY (5),
# BENCH_DIR (/dev/shm/km-convert-add-bench; removed afterwards).
set -euo pipefail
KARMACTL=${1:?usage: convert-add-bench.sh KARMACTL}
FILES=${BENCH_FILES:-50}
SECONDS_EACH=${BENCH_SECONDS:-30}
RUNS=${BENCH_RUNS:-3}
QUALITY=${BENCH_QUALITY:-5}
DIR=${BENCH_DIR:-/dev/shm/km-convert-add-bench}
export LC_ALL=C

rm -rf "$DIR"
mkdir -p "$DIR/aac" "$DIR/converted"
trap 'rm -rf "$DIR"' EXIT

# shellcheck source=bench-lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/bench-lib.sh"
secs() { awk -v u="$1" 'BEGIN { printf "%.2f", u / 1e6 }'; }

echo "# karmactl: $KARMACTL"
echo "# $FILES AAC files of $SECONDS_EACH s, quality $QUALITY, $RUNS runs each, median"
echo "# $(nproc) cores, $(uname -r), load average $(cut -d' ' -f1-3 /proc/loadavg)"
for i in $(seq 1 "$FILES"); do
    ffmpeg -loglevel error -y -f lavfi \
        -i "anoisesrc=d=$SECONDS_EACH:c=pink:a=0.3:seed=$i" -ac 2 -ar 44100 \
        -metadata title="Song $i" -metadata artist="Bench Band" -metadata album="Bench" \
        -c:a aac -b:a 128k "$DIR/aac/$(printf 'song%03d' "$i").m4a"
done
echo "# sources: $(du -sh "$DIR/aac" | cut -f1)"

fresh() { rm -f "$DIR/disk.img"; "$KARMACTL" mkkarma "$DIR/disk.img" --size 2G >/dev/null; }
# timed ARRAY COMMAND...: the command's wall time in µs appended to ARRAY.
timed() {
    local -n out=$1
    shift
    local t0
    t0=$(now_us)
    "$@" >/dev/null
    out+=($(($(now_us) - t0)))
}

fresh
"$KARMACTL" -i "$DIR/disk.img" add -r --quality "$QUALITY" "$DIR/aac" >/dev/null
"$KARMACTL" -i "$DIR/disk.img" export --to "$DIR/converted" >/dev/null
echo "# converted: $(find "$DIR/converted" -type f | wc -l) files, $(du -sh "$DIR/converted" | cut -f1)"

convert=() copy=() both=()
for _ in $(seq 1 "$RUNS"); do
    fresh
    timed convert "$KARMACTL" -i "$DIR/disk.img" add -r --quality "$QUALITY" "$DIR/aac"
    fresh
    KARMACTL_SIM_REAL_TIME=1 timed copy "$KARMACTL" --simulate -i "$DIR/disk.img" add -r \
        "$DIR/converted"
    fresh
    KARMACTL_SIM_REAL_TIME=1 timed both "$KARMACTL" --simulate -i "$DIR/disk.img" add -r \
        --quality "$QUALITY" "$DIR/aac"
done
c=$(median "${convert[@]}")
p=$(median "${copy[@]}")
e=$(median "${both[@]}")
larger=$((c > p ? c : p))
r=$(ratio "$e" "$larger")
printf '%-30s %10s\n' "convert alone (s)" "$(secs "$c")"
printf '%-30s %10s\n' "copy alone, USB 2.0 (s)" "$(secs "$p")"
printf '%-30s %10s\n' "sum of the two (s)" "$(secs $((c + p)))"
printf '%-30s %10s\n' "end to end, USB 2.0 (s)" "$(secs "$e")"
printf '%-30s %10s   target <= 1.15: %s\n' "end to end / larger" "$r" \
    "$(awk -v r="$r" 'BEGIN { print (r <= 1.15) ? "yes" : "NO" }')"
printf '%-30s %10s\n' "end to end / sum" "$(ratio "$e" $((c + p)))"
awk -v r="$r" 'BEGIN { exit (r <= 1.15) ? 0 : 2 }'
