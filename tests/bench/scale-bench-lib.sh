# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# scale-bench-lib.sh - what the benchmarks of adding at scale share
# (sourced by add-bench.sh, sync-bench.sh and session-add-bench.sh; see
# docs/PERFORMANCE.md, "Adding scales linearly"): their work folder in a
# tmpfs (removed at exit), the tree of tiny tagged WAV files they add, the
# two Karma disks they add into, the settings they share, and bench-lib.sh's
# timing and arithmetic. The sourcing script sets NAME, KARMACTL and FILL
# (bench-library-fill) first.
#
# Environment: BENCH_SIZES ("5000 10000 20000"; the scale target compares
# the last two), BENCH_LIBRARY (20000), BENCH_ADD (1000), BENCH_RUNS (3),
# BENCH_DIR (/dev/shm/km-NAME; removed afterwards).

# shellcheck source=bench-lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/bench-lib.sh"

read -r -a SIZES <<< "${BENCH_SIZES:-5000 10000 20000}"
LIBRARY=${BENCH_LIBRARY:-20000}
ADD=${BENCH_ADD:-1000}
RUNS=${BENCH_RUNS:-3}
DIR=${BENCH_DIR:-/dev/shm/km-$NAME}
PER_FOLDER=250
export LC_ALL=C

rm -rf "$DIR"
mkdir -p "$DIR"
trap 'rm -rf "$DIR"' EXIT

echo "# karmactl: $KARMACTL"
echo "# sizes ${SIZES[*]}, $ADD into $LIBRARY, $RUNS runs each, median; in $DIR ($(df -h --output=fstype "$DIR" | tail -n1 | tr -d ' '))"
echo "# $(nproc) cores, $(uname -r), load average $(cut -d' ' -f1-3 /proc/loadavg)"

# make_wav_tree N: tiny WAV files with a LIST/INFO chunk (title, artist,
# album), each different, PER_FOLDER to a folder under $DIR/wav, so the
# first n are the first n/PER_FOLDER folders.
make_wav_tree() {
    python3 - "$DIR/wav" "$1" "$PER_FOLDER" <<'PYTHON'
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
PYTHON
}
# folders N: the folders holding the first N files.
folders() { ls -d "$DIR"/wav/* | head -n $(($1 / PER_FOLDER)); }

# The files (as many as the largest size asks), an empty 4 GiB disk
# ($DIR/empty.img) and one holding LIBRARY tracks ($DIR/library.img).
largest=0
for n in "${SIZES[@]}" "$ADD"; do [ "$n" -gt "$largest" ] && largest=$n; done
make_wav_tree "$largest"
"$KARMACTL" mkkarma -s 4G "$DIR/empty.img" > /dev/null
"$FILL" "$DIR/library.img" 4096 "$LIBRARY" > /dev/null

# timed CMD...: runs CMD; WALL_US is the time it took, CPU_US the user and
# system time of the processes it ran (steadier than the wall time on a
# machine shared with other work: its ratios are shown beside).
# shellcheck disable=SC2034 # WALL_US and CPU_US are read by the sourcing scripts
timed() {
    local t0 t1
    times > "$DIR/times.0"
    t0=$(now_us)
    "$@"
    t1=$(now_us)
    times > "$DIR/times.1"
    WALL_US=$((t1 - t0))
    CPU_US=$(($(children_cpu_us "$DIR/times.1") - $(children_cpu_us "$DIR/times.0")))
}
# children_cpu_us FILE: the user and system time of the finished children in
# FILE, what the builtin times printed (its second line: "0m1.250s 0m0.031s").
children_cpu_us() {
    awk 'NR == 2 { for (i = 1; i <= 2; i++) { split($i, p, /[ms]/); t += p[1] * 60 + p[2] }
                   printf "%d", t * 1000000 }' "$1"
}

# fresh_disk IMAGE: a copy of IMAGE at $DIR/disk.img, for one run to change.
fresh_disk() { cp --sparse=always "$1" "$DIR/disk.img"; }
# verify_disk: karmactl verify of $DIR/disk.img, or the script fails.
verify_disk() {
    "$KARMACTL" -i "$DIR/disk.img" verify > /dev/null ||
        { echo "$NAME: verify failed after the runs" >&2; exit 1; }
}

# scale_table WHAT WALL CPU: the table of the median wall and CPU time of
# each size, WHAT heading its first column; WALL and CPU name associative
# arrays of size -> the runs' times (us, space-separated). Sets SCALE_RATIO
# and SCALE_CPU_RATIO: the last size's medians over the ones before it.
# shellcheck disable=SC2034 # SCALE_RATIO and SCALE_CPU_RATIO: read by the sourcing scripts
scale_table() {
    local -n wall=$2 cpu=$3
    local n prev='' w c
    declare -A mw mc
    echo
    echo "| $1 | median | per file | x the previous size | CPU | x the previous size |"
    echo "|---|---|---|---|---|---|"
    for n in "${SIZES[@]}"; do
        # shellcheck disable=SC2086
        w=$(median ${wall[$n]}) c=$(median ${cpu[$n]})
        mw[$n]=$w mc[$n]=$c
        printf '| %s | %s ms | %s | %s | %s ms | %s |\n' "$n" "$(ms "$w")" "$((w / n)) us" \
            "${prev:+$(ratio "$w" "${mw[$prev]}")}" "$(ms "$c")" \
            "${prev:+$(ratio "$c" "${mc[$prev]}")}"
        prev=$n
    done
    SCALE_RATIO=$(ratio "${mw[${SIZES[-1]}]}" "${mw[${SIZES[-2]}]}")
    SCALE_CPU_RATIO=$(ratio "${mc[${SIZES[-1]}]}" "${mc[${SIZES[-2]}]}")
}
# print_runs WHAT RUNS: every run of the array RUNS (as in scale_table), one line a size.
print_runs() {
    local -n runs=$2
    local n
    for n in "${SIZES[@]}"; do echo "# $1 $n: ${runs[$n]}"; done
}
# target_row WHAT VALUE LIMIT: a row of the targets' table (met when VALUE
# <= LIMIT); a target missed makes STATUS 2, the scripts' exit status.
STATUS=0
# shellcheck disable=SC2034 # STATUS: the sourcing scripts exit with it
target_row() {
    local ok
    ok=$(at_most "$2" "$3")
    echo "| $1 | $2 | <= $3 | $ok |"
    [ "$ok" = yes ] || STATUS=2
}
# targets_header: the head of the targets' table.
targets_header() { echo; echo "| target | value | limit | met |"; echo "|---|---|---|---|"; }
