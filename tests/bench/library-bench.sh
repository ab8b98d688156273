#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# library-bench.sh KARMACTL BENCH_LIBRARY_FILL: the Karma library benchmark
# of docs/PERFORMANCE.md (issue 3's targets).
#
#   open:  a library of 10,000 tracks (smalldb present) opens in under
#          150 ms and reads no more than 1.2 x smalldb + 256 KiB from the
#          device; the time is km_library_open()'s own (KARMACTL_STATS'
#          library_open_us, from `karmactl playlist list`, which opens the
#          library and prints nothing for a library without playlists; its
#          CPU time, library_open_cpu_us, is shown too: on a loaded machine
#          the wall clock also counts the other processes).
#          Baseline in the same run: `karmactl --offset 16M cat /var/smalldb`,
#          which mounts the volume and reads smalldb's bytes and nothing else;
#          both commands' wall times are compared.
#   usb:   opening that library over the simulated USB 2.0 player (issue 4:
#          fewer than 100 SCSI commands): `karmactl --simulate playlist
#          list`, its SCSI commands, bytes and modelled time (1 ms per
#          command, 25 MB/s) from KARMACTL_STATS' usb stats. Baselines in the
#          same run: `--simulate eject` (the protocol's own open and close,
#          nothing read) and `--simulate --offset 16M cat /var/smalldb`.
#   add:   `karmactl add -r` of 1,000 small WAV files into that library
#          rewrites smalldb once (KARMACTL_STATS' smalldb_writes).
#
# The 10,000-track library is made by bench-library-fill (tiny data files
# with made-up tags, straight through one transaction). Everything lives in
# a tmpfs. Each timing is taken RUNS times, alternating, after a warm-up;
# the median counts. Not a test: prints a table, exits 2 when a target is
# missed.
#
# Environment: BENCH_TRACKS (10000), BENCH_ADD (1000), BENCH_RUNS (7),
# BENCH_DIR (/dev/shm/km-library-bench; removed afterwards).
set -euo pipefail
KARMACTL=${1:?usage: library-bench.sh KARMACTL BENCH_LIBRARY_FILL}
FILL=${2:?usage: library-bench.sh KARMACTL BENCH_LIBRARY_FILL}
TRACKS=${BENCH_TRACKS:-10000}
ADD=${BENCH_ADD:-1000}
RUNS=${BENCH_RUNS:-7}
DIR=${BENCH_DIR:-/dev/shm/km-library-bench}
export LC_ALL=C

rm -rf "$DIR"
mkdir -p "$DIR"
trap 'rm -rf "$DIR"' EXIT
IMG=$DIR/karma.img

# shellcheck source=bench-lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/bench-lib.sh"
usb_stat() { sed -n "s/.*usb stats:.* $1=\([0-9]*\).*/\1/p" "$2"; }
# usb_row STATS_FILE: "N commands, B bytes, T ms modelled" from the usb stats line.
usb_row() {
    printf '%s commands, %s bytes, %s ms modelled' "$(usb_stat scsi_commands "$1")" \
        "$(usb_stat bytes_read "$1")" "$(ms "$(usb_stat time_us "$1")")"
}

echo "# karmactl: $KARMACTL"
echo "# $TRACKS tracks, $RUNS runs each, median; in $DIR ($(df -h --output=fstype "$DIR" | tail -n1 | tr -d ' '))"
echo "# $(nproc) cores, $(uname -r), load average $(cut -d' ' -f1-3 /proc/loadavg)"

t0=$(now_us)
"$FILL" "$IMG" 4096 "$TRACKS"
t1=$(now_us)
echo "# made the library of $TRACKS tracks in $(ms $((t1 - t0))) ms (bench-library-fill)"
smalldb=$("$KARMACTL" -i "$IMG" --offset 16M cat /var/smalldb | wc -c)

# ------------------------------------------------------------------ open
open_us=() cpu_us=() list_us=() cat_us=()
kc_open() { KARMACTL_STATS=1 "$KARMACTL" -i "$IMG" playlist list > /dev/null 2> "$DIR/open.stats"; }
kc_cat() { "$KARMACTL" -i "$IMG" --offset 16M cat /var/smalldb > /dev/null; }
kc_open; kc_cat  # warm-up
for _ in $(seq "$RUNS"); do
    t0=$(now_us); kc_cat; t1=$(now_us); cat_us+=($((t1 - t0)))
    t0=$(now_us); kc_open; t1=$(now_us); list_us+=($((t1 - t0)))
    open_us+=("$(stat_value library_open_us "$DIR/open.stats")")
    cpu_us+=("$(stat_value library_open_cpu_us "$DIR/open.stats")")
done
read_bytes=$(stat_value read_bytes "$DIR/open.stats")
read_requests=$(stat_value read_requests "$DIR/open.stats")
read_limit=$(awk -v s="$smalldb" 'BEGIN { printf "%d", 1.2 * s + 262144 }')

# ------------------------------------------------------------------- usb
KARMACTL_STATS=1 "$KARMACTL" --simulate -i "$IMG" playlist list > /dev/null 2> "$DIR/usb-open.stats"
KARMACTL_STATS=1 "$KARMACTL" --simulate -i "$IMG" eject > /dev/null 2> "$DIR/usb-eject.stats"
KARMACTL_STATS=1 "$KARMACTL" --simulate -i "$IMG" --offset 16M cat /var/smalldb > /dev/null \
    2> "$DIR/usb-cat.stats"
usb_cmds=$(usb_stat scsi_commands "$DIR/usb-open.stats")

# ------------------------------------------------------------------- add
mkdir "$DIR/add"
python3 - "$DIR/add" "$ADD" <<'EOF'
import os, struct, sys
# WAV files of 80 samples (8 kHz mono), each with its own samples and name.
for i in range(int(sys.argv[2])):
    data = bytes(((i * 7 + k * 13 + (k >> 4) * i) & 0xff) for k in range(160))
    fmt = struct.pack('<IHHIIHH', 16, 1, 1, 8000, 16000, 2, 16)
    wav = b'RIFF' + struct.pack('<I', 36 + len(data)) + b'WAVEfmt ' + fmt + b'data' + \
        struct.pack('<I', len(data)) + data
    sub = os.path.join(sys.argv[1], '%02d' % (i // 250))
    os.makedirs(sub, exist_ok=True)
    with open(os.path.join(sub, 'bench-%05d.wav' % i), 'wb') as f:
        f.write(wav)
EOF
t0=$(now_us)
KARMACTL_STATS=1 "$KARMACTL" -i "$IMG" add -r "$DIR/add" > "$DIR/add.out" 2> "$DIR/add.stats"
t1=$(now_us)
add_us=$((t1 - t0))
added=$(grep -c '^added fid ' "$DIR/add.out")
writes=$(stat_value smalldb_writes "$DIR/add.stats")
"$KARMACTL" -i "$IMG" verify > /dev/null || { echo "library-bench.sh: verify failed after add" >&2; exit 1; }

# ---------------------------------------------------------------- report
open_m=$(median "${open_us[@]}") cpu_m=$(median "${cpu_us[@]}") list_m=$(median "${list_us[@]}") cat_m=$(median "${cat_us[@]}")
open_ok=$(at_most "$open_m" 150000)
usb_ok=$(at_most "$usb_cmds" 99)
read_ok=$(at_most "$read_bytes" "$read_limit")
add_ok=$([ "$writes" = 1 ] && [ "$added" = "$ADD" ] && echo yes || echo NO)

echo
echo "| measure | value | baseline | ratio | target | met |"
echo "|---|---|---|---|---|---|"
printf '| library open (km_library_open), %s tracks | %s ms | | | < 150 ms | %s |\n' \
    "$TRACKS" "$(ms "$open_m")" "$open_ok"
printf '| ...its CPU time | %s ms | | | | |\n' "$(ms "$cpu_m")"
printf '| `karmactl playlist list` (process: open, list, close) | %s ms | `karmactl cat /var/smalldb` %s ms | %s | | |\n' \
    "$(ms "$list_m")" "$(ms "$cat_m")" "$(awk -v a="$list_m" -v b="$cat_m" 'BEGIN { printf "%.2f", a / b }')"
printf '| bytes read by the open | %s in %s requests | smalldb %s bytes | %s | <= 1.2 x smalldb + 256 KiB = %s | %s |\n' \
    "$read_bytes" "$read_requests" "$smalldb" \
    "$(awk -v r="$read_bytes" -v s="$smalldb" 'BEGIN { printf "%.3f", r / s }')" "$read_limit" "$read_ok"
printf '| library open over the simulated USB 2.0 player (`--simulate playlist list`) | %s | `--simulate eject` %s; `--simulate cat /var/smalldb` %s | | < 100 commands | %s |\n' \
    "$(usb_row "$DIR/usb-open.stats")" "$(usb_row "$DIR/usb-eject.stats")" \
    "$(usb_row "$DIR/usb-cat.stats")" "$usb_ok"
printf '| `karmactl add -r` of %s WAV files | %s added in %s ms, smalldb written %s time(s) | | | smalldb written once | %s |\n' \
    "$ADD" "$added" "$(ms "$add_us")" "$writes" "$add_ok"
echo
echo "# all runs (µs): open ${open_us[*]} | open CPU ${cpu_us[*]} | playlist list ${list_us[*]} | cat ${cat_us[*]}"
echo "# karmactl counters, open: $(tr '\n' ' ' < "$DIR/open.stats")"
echo "# karmactl counters, add:  $(tr '\n' ' ' < "$DIR/add.stats")"
echo "# karmactl counters, open over USB: $(tr '\n' ' ' < "$DIR/usb-open.stats")"

[ "$open_ok" = yes ] && [ "$read_ok" = yes ] && [ "$usb_ok" = yes ] && [ "$add_ok" = yes ] || exit 2
