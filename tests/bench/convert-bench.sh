#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# convert-bench.sh KARMACTL BENCH_LIBRARY_FILL: converting costs no more
# than GStreamer's own tool (docs/PERFORMANCE.md, "Converting"; issue 17).
#
# Makes BENCH_FILES (20) AAC files (.m4a, 160 kbit/s, 44.1 kHz stereo) of
# BENCH_SECONDS (30) each with ffmpeg, then converts them all to Ogg Vorbis
# at quality 5 (0.5 on vorbisenc's scale), one after the other on one thread:
#
#   ours:       bench-convert (next to BENCH_LIBRARY_FILL in the build):
#               km_convert_plan() and km_convert_file() per file, as an
#               import does, in one process;
#   gst-launch: `gst-launch-1.0 filesrc ! decodebin ! audioconvert !
#               audioresample ! vorbisenc quality=0.5 ! oggmux ! filesink`
#               per file, the same elements and settings, a process each.
#
# gst-launch pays GStreamer's start (process, plugin registry) for every
# file, which ours pays once; that start is measured apart (an empty
# pipeline, `fakesrc num-buffers=1 ! fakesink`) and the ratio is given with
# and without it. The two alternate, BENCH_RUNS (3) times each; medians
# count. Target: gst-launch's time / ours >= 0.9 (ours at most about 11%
# slower), without the start-up. Everything lives in a tmpfs. Not a test:
# prints a table, exits 2 when the target is missed.
#
# Environment: BENCH_FILES (20), BENCH_SECONDS (30), BENCH_RUNS (3),
# BENCH_DIR (/dev/shm/km-convert-bench; removed afterwards).
set -euo pipefail
FILL=${2:?usage: convert-bench.sh KARMACTL BENCH_LIBRARY_FILL}
DRIVER=$(dirname "$FILL")/bench-convert
FILES=${BENCH_FILES:-20}
SECONDS_EACH=${BENCH_SECONDS:-30}
RUNS=${BENCH_RUNS:-3}
DIR=${BENCH_DIR:-/dev/shm/km-convert-bench}
export LC_ALL=C

for tool in ffmpeg gst-launch-1.0; do
    command -v "$tool" > /dev/null || { echo "convert-bench: $tool is not installed" >&2; exit 1; }
done
rm -rf "$DIR"
mkdir -p "$DIR/src"
trap 'rm -rf "$DIR"' EXIT

# shellcheck source=bench-lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/bench-lib.sh"

echo "# driver: $DRIVER"
echo "# $FILES AAC files of $SECONDS_EACH s, $RUNS runs each, median; in $DIR ($(df -h --output=fstype "$DIR" | tail -n1 | tr -d ' '))"
echo "# $(nproc) cores, $(uname -r), $(gst-launch-1.0 --version | sed -n 2p), load average $(cut -d' ' -f1-3 /proc/loadavg)"

# Something like music, each file its own: partials under a swell, a
# vibrato and a little noise (as tests/library/test-convert.c makes).
for i in $(seq 1 "$FILES"); do
    f1=$((200 + i * 7)) f2=$((300 + i * 11))
    expr="(0.25*sin(2*PI*$f1*t)+0.12*sin(2*PI*$f2*t+2*sin(2*PI*5*t)))*(0.6+0.4*sin(2*PI*0.3*t))+0.03*(random($i)-0.5)"
    ffmpeg -loglevel error -y -f lavfi -i "aevalsrc=$expr|$expr*0.9:s=44100:d=$SECONDS_EACH" \
        -metadata title="Song $i" -c:a aac -b:a 160k "$DIR/src/$(printf 'song%02d' "$i").m4a"
done

ours_run() {
    rm -rf "$DIR/ours" && mkdir "$DIR/ours"
    "$DRIVER" "$DIR/ours" "$DIR"/src/*.m4a > "$DIR/ours.txt"
    awk '/^total/ { print $2 }' "$DIR/ours.txt"
}
gst_run() {
    local start f
    rm -rf "$DIR/gst" && mkdir "$DIR/gst"
    start=$(now_us)
    for f in "$DIR"/src/*.m4a; do
        gst-launch-1.0 -q filesrc location="$f" ! decodebin ! audioconvert ! audioresample ! \
            vorbisenc quality=0.5 ! oggmux ! filesink location="$DIR/gst/$(basename "$f").ogg" > /dev/null
    done
    echo $(($(now_us) - start))
}
start_run() {
    local start i
    start=$(now_us)
    for i in $(seq 1 "$FILES"); do
        gst-launch-1.0 -q fakesrc num-buffers=1 ! fakesink > /dev/null
    done
    echo $(($(now_us) - start))
}

ours=() gst=() starts=()
for run in $(seq 1 "$RUNS"); do
    ours+=("$(ours_run)")
    gst+=("$(gst_run)")
    starts+=("$(start_run)")
    echo "# run $run: ours $(ms "${ours[-1]}") ms, gst-launch $(ms "${gst[-1]}") ms, its start-up $(ms "${starts[-1]}") ms"
done
o=$(median "${ours[@]}") g=$(median "${gst[@]}") s=$(median "${starts[@]}")
plan=$(awk '/^file/ { p += $2 } END { print p }' "$DIR/ours.txt")
conv=$(awk '/^file/ { c += $3 } END { print c }' "$DIR/ours.txt")
# the outputs must be alike: the same encoder at the same quality
osize=$(du -sb "$DIR/ours" | cut -f1) gsize=$(du -sb "$DIR/gst" | cut -f1)

echo
echo "| converter | $FILES files | per file |"
echo "|---|---|---|"
echo "| ours (plan + convert) | $(ms "$o") ms | $(ms $((o / FILES))) ms |"
echo "| ours, the plans alone (last run) | $(ms "$plan") ms | $(ms $((plan / FILES))) ms |"
echo "| ours, the conversions alone (last run) | $(ms "$conv") ms | $(ms $((conv / FILES))) ms |"
echo "| gst-launch-1.0 | $(ms "$g") ms | $(ms $((g / FILES))) ms |"
echo "| gst-launch-1.0's start-up alone | $(ms "$s") ms | $(ms $((s / FILES))) ms |"
echo
echo "output: ours $osize bytes, gst-launch's $gsize bytes"
echo
r_all=$(ratio "$g" "$o")
r_work=$(ratio $((g - s)) "$o")
met=$(awk -v v="$r_work" 'BEGIN { print (v >= 0.9) ? "yes" : "NO" }')
echo "| target | value | limit | met |"
echo "|---|---|---|---|"
echo "| gst-launch / ours, without gst-launch's start-up | $r_work | >= 0.9 | $met |"
echo "| gst-launch / ours, as run | $r_all | | |"
[ "$met" = yes ] || exit 2
