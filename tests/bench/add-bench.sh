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
# Environment: BENCH_SIZES ("5000 10000 20000"; the target compares the last
# two), BENCH_LIBRARY (20000), BENCH_ADD (1000), BENCH_RUNS (3),
# BENCH_DIR (/dev/shm/km-add-bench; removed afterwards).
set -euo pipefail
KARMACTL=${1:?usage: add-bench.sh KARMACTL BENCH_LIBRARY_FILL}
FILL=${2:?usage: add-bench.sh KARMACTL BENCH_LIBRARY_FILL}
read -r -a SIZES <<< "${BENCH_SIZES:-5000 10000 20000}"
LIBRARY=${BENCH_LIBRARY:-20000}
ADD=${BENCH_ADD:-1000}
RUNS=${BENCH_RUNS:-3}
DIR=${BENCH_DIR:-/dev/shm/km-add-bench}
PER_FOLDER=250
export LC_ALL=C

rm -rf "$DIR"
mkdir -p "$DIR"
trap 'rm -rf "$DIR"' EXIT

now_us() { echo "${EPOCHREALTIME/./}"; }
median() {
    printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END {
        print (NR % 2) ? v[(NR + 1) / 2] : int((v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}
stat_value() { grep -o "\b$1=[0-9]*" "$2" | tail -n1 | cut -d= -f2; }
ms() { awk -v u="$1" 'BEGIN { printf "%.1f", u / 1000 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
meets() { awk -v v="$1" -v t="$2" 'BEGIN { print (v <= t) ? "yes" : "NO" }'; }

largest=0
for n in "${SIZES[@]}" "$ADD"; do [ "$n" -gt "$largest" ] && largest=$n; done

echo "# karmactl: $KARMACTL"
echo "# sizes ${SIZES[*]}, $ADD into $LIBRARY, $RUNS runs each, median; in $DIR ($(df -h --output=fstype "$DIR" | tail -n1 | tr -d ' '))"
echo "# $(nproc) cores, $(uname -r), load average $(cut -d' ' -f1-3 /proc/loadavg)"

# Tiny WAV files with a LIST/INFO chunk (title, artist, album), each
# different, PER_FOLDER to a folder, so the first n are the first n/PER_FOLDER folders.
python3 - "$DIR/wav" "$largest" "$PER_FOLDER" <<'EOF'
import os, struct, sys
out, n, per = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
def info(tag, text):
    b = text.encode() + b'\0'
    return tag + struct.pack('<I', len(b)) + b + b'\0' * (len(b) % 2)
fmt = struct.pack('<IHHIIHH', 16, 1, 1, 8000, 16000, 2, 16)
for i in range(n):
    data = bytes(((i * 7 + k * 13 + (k >> 4) * i) & 0xff) for k in range(160))
    tags = b'INFO' + info(b'INAM', 'Song %d' % i) + info(b'IART', 'Artist %d' % (i % 97)) + \
        info(b'IPRD', 'Album %d' % (i % 311))
    body = b'WAVEfmt ' + fmt + b'data' + struct.pack('<I', len(data)) + data + \
        b'LIST' + struct.pack('<I', len(tags)) + tags
    sub = os.path.join(out, '%03d' % (i // per))
    os.makedirs(sub, exist_ok=True)
    with open(os.path.join(sub, 't%05d.wav' % i), 'wb') as f:
        f.write(b'RIFF' + struct.pack('<I', len(body)) + body)
EOF
# folders N: the folders holding the first N files.
folders() { ls -d "$DIR"/wav/* | head -n $(($1 / PER_FOLDER)); }

"$KARMACTL" mkkarma -s 4G "$DIR/empty.img" > /dev/null
"$FILL" "$DIR/library.img" 4096 "$LIBRARY" > /dev/null

# add IMAGE N STATS: a fresh copy of IMAGE, then the timed add of the first N files.
add() {
    cp --sparse=always "$1" "$DIR/disk.img"
    local t0 t1
    t0=$(now_us)
    # shellcheck disable=SC2046
    KARMACTL_STATS=1 "$KARMACTL" -i "$DIR/disk.img" add -r $(folders "$2") > "$DIR/add.out" 2> "$3"
    t1=$(now_us)
    local added
    added=$(grep -c '^added fid ' "$DIR/add.out" || true)
    [ "$added" = "$2" ] || { echo "add-bench.sh: added $added of $2 files" >&2; cat "$3" >&2; exit 1; }
    echo $((t1 - t0))
}

# ------------------------------------------------------------------ scale
declare -A scale_us
for _ in $(seq "$RUNS"); do
    for n in "${SIZES[@]}"; do
        scale_us[$n]+="$(add "$DIR/empty.img" "$n" "$DIR/scale.stats") "
    done
done
"$KARMACTL" -i "$DIR/disk.img" verify > /dev/null || { echo "add-bench.sh: verify failed after add" >&2; exit 1; }

# -------------------------------------------------------------- per track
empty_files=() empty_cmd=() empty_commit=() big_files=() big_cmd=() big_commit=() big_open=()
for _ in $(seq "$RUNS"); do
    empty_cmd+=("$(add "$DIR/empty.img" "$ADD" "$DIR/empty.stats")")
    empty_files+=("$(stat_value add_files_us "$DIR/empty.stats")")
    empty_commit+=("$(stat_value add_commit_us "$DIR/empty.stats")")
    big_cmd+=("$(add "$DIR/library.img" "$ADD" "$DIR/big.stats")")
    big_files+=("$(stat_value add_files_us "$DIR/big.stats")")
    big_commit+=("$(stat_value add_commit_us "$DIR/big.stats")")
    big_open+=("$(stat_value library_open_us "$DIR/big.stats")")
done
"$KARMACTL" -i "$DIR/disk.img" verify > /dev/null || { echo "add-bench.sh: verify failed after add" >&2; exit 1; }

# ----------------------------------------------------------------- report
status=0
echo
echo "| files added into an empty disk | median | per file | x the previous size |"
echo "|---|---|---|---|"
declare -A scale_m
prev=
for n in "${SIZES[@]}"; do
    # shellcheck disable=SC2086
    scale_m[$n]=$(median ${scale_us[$n]})
    printf '| %s | %s ms | %s | %s |\n' "$n" "$(ms "${scale_m[$n]}")" \
        "$((scale_m[$n] / n)) us" "${prev:+$(ratio "${scale_m[$n]}" "${scale_m[$prev]}")}"
    prev=$n
done
last_n=${SIZES[-1]} prev_n=${SIZES[-2]}
scale=$(ratio "${scale_m[$last_n]}" "${scale_m[$prev_n]}")
scale_ok=$(meets "$scale" 2.2)
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
per_track=$(ratio "$bf" "$ef")
per_track_ok=$(meets "$per_track" 1.5)
echo
echo "| target | value | limit | met |"
echo "|---|---|---|---|"
echo "| ${last_n} files / ${prev_n} files, time | $scale | <= 2.2 | $scale_ok |"
echo "| per file into $LIBRARY tracks / into none (add loop) | $per_track | <= 1.5 | $per_track_ok |"
echo "| per file into $LIBRARY tracks / into none (whole command) | $(ratio "$bc" "$ec") | | |"
[ "$scale_ok" = yes ] && [ "$per_track_ok" = yes ] || status=2

echo
echo "# every run (us):"
for n in "${SIZES[@]}"; do echo "# scale $n: ${scale_us[$n]}"; done
echo "# add $ADD into none, loop: ${empty_files[*]}; command: ${empty_cmd[*]}"
echo "# add $ADD into $LIBRARY, loop: ${big_files[*]}; command: ${big_cmd[*]}; open: ${big_open[*]}"
exit $status
