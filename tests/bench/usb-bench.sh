#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# usb-bench.sh KARMACTL: reading and writing a file through the simulated
# USB 2.0 Karma (karmactl --simulate: RIOP, Bulk-Only Transport, SCSI; the
# sim's timing model is 1 ms per command and 25 MB/s, on a virtual clock)
# at several largest-request sizes (docs/PERFORMANCE.md).
#
#   modelled: the time the player would take, from the sim's counters,
#             against bytes / bandwidth (issue 4: at most 1.1 times)
#   host:     the wall time of `karmactl --simulate cat` against
#             `karmactl cat` of the raw image, both in this run: what the
#             protocol stack and the model cost the host's CPU
#
# Not a test: it prints a table and exits 2 when the default request size
# misses the 1.1 target.  Environment: BENCH_MIB (default 64), BENCH_RUNS
# (default 5), BENCH_REQUESTS (default "64K 128K 256K 512K 1M 4M"),
# BENCH_DIR (default /dev/shm/km-usb-bench; removed afterwards).
set -euo pipefail
KARMACTL=${1:?usage: usb-bench.sh KARMACTL}
MIB=${BENCH_MIB:-64}
RUNS=${BENCH_RUNS:-5}
REQUESTS=${BENCH_REQUESTS:-"64K 128K 256K 512K 1M 4M"}
DIR=${BENCH_DIR:-/dev/shm/km-usb-bench}
BYTES_PER_S=25000000
export LC_ALL=C

rm -rf "$DIR"
mkdir -p "$DIR"
trap 'rm -rf "$DIR"' EXIT
IMG=$DIR/vol.img
SRC=$DIR/src.bin

# usb_stat KEY FILE: a counter of karmactl's "usb stats" line.
usb_stat() { sed -n "s/.*usb stats:.* $1=\([0-9]*\).*/\1/p" "$2"; }
fresh_volume() { rm -f "$IMG"; "$KARMACTL" mkfs "$IMG" --size $((MIB + MIB / 4 + 16))M > /dev/null; }
ideal_us=$(awk -v m="$MIB" -v b="$BYTES_PER_S" 'BEGIN { printf "%d", m * 1048576 / b * 1e6 }')

echo "# karmactl: $KARMACTL"
echo "# $MIB MiB file; bytes / bandwidth = $((ideal_us / 1000)) ms at 25 MB/s"
head -c $((MIB * 1048576)) /dev/urandom > "$SRC"
src_sha=$(sha256sum < "$SRC" | cut -d' ' -f1)

echo
echo "| largest request | operation | SCSI commands | modelled time | x bytes/bandwidth |"
echo "|---|---|---|---|---|"
default_ratio=
for rq in $REQUESTS; do
    fresh_volume
    KARMACTL_STATS=1 KARMACTL_USB_MAX_REQUEST=$rq \
        "$KARMACTL" --simulate -i "$IMG" put "$SRC" /big 2> "$DIR/put.stats"
    got_sha=$(KARMACTL_STATS=1 KARMACTL_USB_MAX_REQUEST=$rq \
        "$KARMACTL" --simulate -i "$IMG" cat /big 2> "$DIR/cat.stats" | sha256sum | cut -d' ' -f1)
    [ "$got_sha" = "$src_sha" ] || { echo "usb-bench.sh: /big read back wrong" >&2; exit 1; }
    for op in put cat; do
        t=$(usb_stat time_us "$DIR/$op.stats")
        r=$(awk -v t="$t" -v i="$ideal_us" 'BEGIN { printf "%.3f", t / i }')
        printf '| %s | %s | %s | %d ms | %s |\n' "$rq" "$op" \
            "$(usb_stat scsi_commands "$DIR/$op.stats")" $((t / 1000)) "$r"
        [ "$rq" = 1M ] && default_ratio="$default_ratio $r"
    done
done

# host CPU: the protocol stack and the model against the raw image
wall() { local t0=${EPOCHREALTIME/./}; "$@" > /dev/null; echo $((${EPOCHREALTIME/./} - t0)); }
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
raw=() sim=()
"$KARMACTL" -i "$IMG" cat /big > /dev/null  # warm-up
for _ in $(seq "$RUNS"); do
    raw+=("$(wall "$KARMACTL" -i "$IMG" cat /big)")
    sim+=("$(wall "$KARMACTL" --simulate -i "$IMG" cat /big)")
done
raw_m=$(median "${raw[@]}") sim_m=$(median "${sim[@]}")
echo
echo "| host wall time, cat of $MIB MiB | median |"
echo "|---|---|"
echo "| \`karmactl cat\` (raw image) | $((raw_m / 1000)) ms |"
echo "| \`karmactl --simulate cat\` (virtual clock) | $((sim_m / 1000)) ms |"
echo
echo "# all runs (µs): raw ${raw[*]} | simulate ${sim[*]}"
for r in $default_ratio; do
    awk -v r="$r" 'BEGIN { exit !(r <= 1.1) }' || exit 2
done
