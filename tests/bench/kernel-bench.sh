#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kernel-bench.sh KARMACTL [BENCH_LIBRARY_FILL]: our OMFS core against the
# Linux kernel's omfs driver, side by side in the kernel oracle's VM
# (tests/interop/oracle: qemu, the same virtual disk for both), the page
# cache dropped before every run (docs/PERFORMANCE.md, "The kernel's omfs
# driver in a VM"; issue 19).
#
#   read: `cat /mnt/big.bin` through the kernel's mount, against
#         `vm-omfs-bench DEV cat /big.bin` (tests/bench/vm-omfs-bench.c: the
#         core behind km_image_device, as karmactl reads a disk, reading the
#         mounted disk's device read-only). Target: at least 2 times the
#         kernel's speed (kernel time / our time).
#   walk: `find /mnt -type f` against `vm-omfs-bench DEV walk` (every entry
#         listed and stat'ed) over BENCH_FILES small files in 10 folders.
#         Target: at least 1.0 times the kernel's speed.
# BENCH_RUNS alternating runs of each inside one VM; medians. The volume is
# made on the host with KARMACTL (mkfs, put). vm-omfs-bench is built here,
# static (the VM has nothing but busybox), with the host's C compiler.
# Needs the oracle set up (tests/interop/oracle/setup.sh, root; run here
# when missing) and a C compiler with a static C library: says what is
# missing and exits 0 without them. Not a test: prints a table, exits 2 when
# a target is missed.
#
# Environment: BENCH_MIB (96), BENCH_FILES (3000), BENCH_RUNS (5), BENCH_DIR
# (/var/tmp/km-kernel-bench; removed afterwards), ORACLE_CACHE (the oracle's).
set -euo pipefail
KARMACTL=${1:?usage: kernel-bench.sh KARMACTL}
MIB=${BENCH_MIB:-96}
FILES=${BENCH_FILES:-3000}
RUNS=${BENCH_RUNS:-5}
DIR=${BENCH_DIR:-/var/tmp/km-kernel-bench}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
ORACLE=$ROOT/tests/interop/oracle
CACHE=${ORACLE_CACHE:-/var/cache/karma-manager-oracle}
export LC_ALL=C

skip() { echo "# kernel-bench.sh: skipped: $*"; exit 0; }
if [ ! -e "$CACHE/oracle.env" ]; then
    [ "$(id -u)" = 0 ] || skip "the kernel oracle is not set up and setting it up needs root"
    ORACLE_CACHE=$CACHE "$ORACLE/setup.sh" > /dev/null 2>&1 || skip "tests/interop/oracle/setup.sh failed"
fi
rm -rf "$DIR"
mkdir -p "$DIR"
trap 'rm -rf "$DIR"' EXIT

cc -O2 -static -std=gnu11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 \
    -I "$ROOT/src/omfs" -I "$ROOT/src/device" -o "$DIR/vm-omfs-bench" \
    "$ROOT/tests/bench/vm-omfs-bench.c" "$ROOT"/src/omfs/*.c \
    "$ROOT"/src/device/{km-image-device,km-direct-read,km-write-through,km-storage-lock}.c \
    2> "$DIR/cc.log" || skip "cannot build a static vm-omfs-bench ($(head -n1 "$DIR/cc.log"))"

# The volume: one big file and FILES small ones in 10 folders.
head -c "${MIB}M" /dev/urandom > "$DIR/big.bin"
mkdir -p "$DIR/tree"
for d in $(seq 0 9); do mkdir -p "$DIR/tree/d$d"; done
for i in $(seq 1 "$FILES"); do echo "file $i" > "$DIR/tree/d$((i % 10))/f$i"; done
# a small file takes a cluster (up to 64 KiB) and its inode
"$KARMACTL" mkfs --size $((MIB + FILES / 10 + 64))M "$DIR/vol.img" > /dev/null
"$KARMACTL" -i "$DIR/vol.img" put "$DIR/big.bin" /big.bin
"$KARMACTL" -i "$DIR/vol.img" put -r "$DIR/tree" /tree

# The job, in the VM's busybox sh: the kernel holds the volume at /mnt, on $DEV.
cat > "$DIR/job.sh" <<JOB
B=/job/files/vm-omfs-bench
DEV=\$(awk '\$2 == "/mnt" { print \$1 }' /proc/mounts)
cold() { sync; echo 3 > /proc/sys/vm/drop_caches; }
for i in \$(seq $RUNS); do
    cold; k=\$(\$B time cat /mnt/big.bin)
    cold; o=\$(\$B time \$B "\$DEV" cat /big.bin)
    echo "RESULT read \$k \$o"
    cold; k=\$(\$B time find /mnt -type f)
    cold; o=\$(\$B time \$B "\$DEV" walk)
    echo "RESULT walk \$k \$o"
done
\$B "\$DEV" cat /big.bin
\$B "\$DEV" walk
JOB

echo "# karmactl: $KARMACTL (made the volume); our core: vm-omfs-bench"
echo "# $MIB MiB file, $FILES small files in 10 folders, $RUNS alternating runs, medians"
echo "# host: $(nproc) cores, $(uname -r), load average $(cut -d' ' -f1-3 /proc/loadavg)"
ORACLE_CACHE=$CACHE "$ORACLE/omfs-oracle" --timeout 1200 "$DIR/vol.img" exec "$DIR/job.sh" \
    -o "$DIR/after.img" --add "$DIR/vm-omfs-bench" > "$DIR/vm.log" 2>&1 || {
    echo "kernel-bench.sh: the VM job failed:" >&2
    cat "$DIR/vm.log" >&2
    exit 1
}
grep -q "^$((MIB << 20)) bytes" "$DIR/vm.log" ||
    { echo "kernel-bench.sh: our core did not read the whole file" >&2; cat "$DIR/vm.log" >&2; exit 1; }
grep -q "^$((FILES + 12)) entries" "$DIR/vm.log" ||
    { echo "kernel-bench.sh: our core did not walk every entry" >&2; cat "$DIR/vm.log" >&2; exit 1; }
grep -m1 '^### kernel' "$DIR/vm.log" | sed 's/^###/# VM:/'

median() {
    printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
        print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
status=0
echo
echo "| work | kernel | our core | speed against the kernel | target | met |"
echo "|---|---|---|---|---|---|"
for what in read walk; do
    mapfile -t kernel_runs < <(awk -v w="$what" '$1 == "RESULT" && $2 == w { print $3 }' "$DIR/vm.log")
    mapfile -t our_runs < <(awk -v w="$what" '$1 == "RESULT" && $2 == w { print $4 }' "$DIR/vm.log")
    k=$(median "${kernel_runs[@]}")
    o=$(median "${our_runs[@]}")
    r=$(awk -v k="$k" -v o="$o" 'BEGIN { printf "%.2f", k / o }')
    t=$([ "$what" = read ] && echo 2.0 || echo 1.0)
    met=$(awk -v r="$r" -v t="$t" 'BEGIN { print (r >= t) ? "yes" : "NO" }')
    [ "$met" = yes ] || status=2
    label=$([ "$what" = read ] && echo "cold read of $MIB MiB (\`cat\`)" || echo "walk of $((FILES + 12)) entries (\`find -type f\`)")
    printf '| %s | %.3f s | %.3f s | %s | >= %s | %s |\n' "$label" "$k" "$o" "$r" "$t" "$met"
done
echo
grep '^RESULT' "$DIR/vm.log" | sed 's/^RESULT/# run: work, kernel s, ours s:/'
exit $status
