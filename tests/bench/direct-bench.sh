#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# direct-bench.sh KARMACTL [BENCH_LIBRARY_FILL]: reading a block device around
# the page cache (docs/PERFORMANCE.md, "Reading around the page cache";
# issue 19).
#
#   cold: `karmactl --device LOOP cat /big > /dev/null` of a BENCH_MIB file
#         on a loop device, the page cache dropped before each run
#         (echo 3 > /proc/sys/vm/drop_caches), against
#         `dd if=LOOP iflag=direct bs=1M count=BENCH_MIB of=/dev/null` (the
#         same number of bytes, also dropped first). Target: at least 0.9
#         times dd's speed (dd time / karmactl time), median of alternating
#         runs.
#   warm: `karmactl -i IMAGE cat /big` of the same volume as an image file
#         whose pages are all in the page cache, against `dd if=IMAGE bs=1M`.
#         Target: at least 0.9 times dd's speed.
#   4096: the cold read again on a loop device with 4096-byte sectors
#         (losetup --sector-size 4096), checked byte for byte.
# The loop devices read their backing file with direct I/O (losetup
# --direct-io=on), so that a cold read reaches the disk under it. The image
# lives in BENCH_DIR, which must be on a disk file system (not a tmpfs).
# Needs root (losetup, drop_caches): says so and exits 0 without it. Not a
# test: prints a table, exits 2 when a target is missed.
#
# Environment: BENCH_MIB (512), BENCH_RUNS (7), BENCH_DIR
# (/var/tmp/km-direct-bench; removed afterwards).
set -euo pipefail
KARMACTL=${1:?usage: direct-bench.sh KARMACTL}
MIB=${BENCH_MIB:-512}
RUNS=${BENCH_RUNS:-7}
DIR=${BENCH_DIR:-/var/tmp/km-direct-bench}
export LC_ALL=C

NAME=direct-bench.sh
. "$(dirname "${BASH_SOURCE[0]}")/loop-bench-lib.sh"
mibs() { awk -v u="$1" -v m="$MIB" 'BEGIN { printf "%.0f", m / (u / 1e6) }'; }
meets() { awk -v v="$1" -v t="$2" 'BEGIN { print (v >= t) ? "yes" : "NO" }'; }
drop_caches() { sync; echo 3 > /proc/sys/vm/drop_caches; }
# timed COMMAND...: its wall time in us.
timed() { local t0 t1; t0=$(now_us); "$@" > /dev/null; t1=$(now_us); echo $((t1 - t0)); }

echo "# karmactl: $KARMACTL"
echo "# $MIB MiB, $RUNS runs each, median; in $DIR ($(df -h --output=fstype "$DIR" | tail -n1 | tr -d ' '))"
echo "# $(nproc) cores, $(uname -r), load average $(cut -d' ' -f1-3 /proc/loadavg)"

head -c "${MIB}M" /dev/urandom > "$DIR/src"
"$KARMACTL" mkfs --size $((MIB + 64))M "$DIR/vol.img" > /dev/null
"$KARMACTL" -i "$DIR/vol.img" put "$DIR/src" /big
loop=$(losetup -f --show --direct-io=on "$DIR/vol.img")
loops+=("$loop")
"$KARMACTL" --device "$loop" cat /big | cmp - "$DIR/src"

kc_cold() { drop_caches; timed "$KARMACTL" --device "$1" cat /big; }
dd_cold() { drop_caches; timed dd if="$1" iflag=direct bs=1M count="$MIB" of=/dev/null status=none; }

# ------------------------------------------------------------------- cold
# The drop also evicts karmactl's own binary and libraries: its start from a
# cold disk (`karmactl --device LOOP info`, a file system command like cat,
# which opens the device and reads its superblock and root block alone) is
# measured too, and shown apart.
cold_kc=() cold_dd=() cold_start=()
kc_cold "$loop" > /dev/null; dd_cold "$loop" > /dev/null	# warm-up
for _ in $(seq "$RUNS"); do
    cold_dd+=("$(dd_cold "$loop")")
    cold_kc+=("$(kc_cold "$loop")")
    drop_caches
    cold_start+=("$(timed "$KARMACTL" --device "$loop" info)")
done
KARMACTL_STATS=1 "$KARMACTL" --device "$loop" cat /big 2>&1 > /dev/null | tail -n1 > "$DIR/cold.stats"

# ------------------------------------------------------------------- warm
warm_kc=() warm_dd=()
cat "$DIR/vol.img" > /dev/null
for _ in $(seq "$RUNS"); do
    warm_dd+=("$(timed dd if="$DIR/vol.img" bs=1M count="$MIB" of=/dev/null status=none)")
    warm_kc+=("$(timed "$KARMACTL" -i "$DIR/vol.img" cat /big)")
done

# ------------------------------------------------------------------- 4096
losetup -d "$loop"
loops=()
loop=$(losetup -f --show --direct-io=on --sector-size 4096 "$DIR/vol.img")
loops+=("$loop")
drop_caches
"$KARMACTL" --device "$loop" cat /big | cmp - "$DIR/src"
big_kc=() big_dd=()
for _ in $(seq "$RUNS"); do
    big_dd+=("$(dd_cold "$loop")")
    big_kc+=("$(kc_cold "$loop")")
done

# ----------------------------------------------------------------- report
status=0
echo
echo "| read | karmactl | MiB/s | reference | MiB/s | ratio | target | met |"
echo "|---|---|---|---|---|---|---|---|"
row() {	# NAME REFERENCE KC_MEDIAN DD_MEDIAN
    local r ok
    r=$(ratio "$4" "$3")
    ok=$(meets "$r" 0.9)
    [ "$ok" = yes ] || status=2
    printf '| %s | %s ms | %s | %s %s ms | %s | %s | >= 0.90 | %s |\n' "$1" "$(ms "$3")" \
        "$(mibs "$3")" "$2" "$(ms "$4")" "$(mibs "$4")" "$r" "$ok"
}
row "cold, loop device (512-byte sectors)" "dd iflag=direct" "$(median "${cold_kc[@]}")" \
    "$(median "${cold_dd[@]}")"
row "warm, image file" "dd" "$(median "${warm_kc[@]}")" "$(median "${warm_dd[@]}")"
row "cold, loop device (4096-byte sectors)" "dd iflag=direct" "$(median "${big_kc[@]}")" \
    "$(median "${big_dd[@]}")"
start_m=$(median "${cold_start[@]}")
read_m=$(( $(median "${cold_kc[@]}") - start_m ))
echo
echo "| karmactl's start from a cold disk (\`info\`) | cold read without it | ratio to dd |"
echo "|---|---|---|"
printf '| %s ms | %s ms | %s |\n' "$(ms "$start_m")" "$(ms "$read_m")" \
    "$(ratio "$(median "${cold_dd[@]}")" "$read_m")"
echo
echo "# cold read's counters: $(cat "$DIR/cold.stats")"
echo "# every run (us):"
echo "# cold karmactl: ${cold_kc[*]}"
echo "# cold dd: ${cold_dd[*]}"
echo "# cold start (info): ${cold_start[*]}"
echo "# warm karmactl: ${warm_kc[*]}"
echo "# warm dd: ${warm_dd[*]}"
echo "# 4096 karmactl: ${big_kc[*]}"
echo "# 4096 dd: ${big_dd[*]}"
exit $status
