#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# write-bench.sh KARMACTL [BENCH_LIBRARY_FILL]: writing to a block device
# (docs/PERFORMANCE.md, "Writing to a block device"; issue 19).
#
#   durable: `karmactl --device LOOP put SRC /big` of a BENCH_MIB file onto an
#            OMFS volume on a loop device (the command ends with the data on
#            the device), against `cp SRC LOOP2 && sync LOOP2` of the same bytes
#            onto a second loop device of the same kind (`sync LOOP2`: that
#            device's flush, not every file system's). Target: at least
#            0.75 times the reference's speed, median of alternating runs.
#   tail:    `karmactl --device LOOP add --progress BIG.wav` of a BENCH_MIB
#            WAV file onto a Karma disk on a loop device: the time from the
#            first progress line that shows every byte written to the end of
#            the command, against the whole command. Target: under 5%.
#   cache:   the most of the loop device's own pages in the page cache
#            while a put and an add run (cachestat(2) every 20 ms, in a run
#            of each apart from the timed ones; the kernel drops a device's
#            pages when its last user closes it, so the end says nothing),
#            and how much `Buffers` + `Cached` in /proc/meminfo grew by the
#            end (every program's files count). Target: a few MiB.
#   backup:  `karmactl --device LOOP backup --to FILE` of the Karma disk the
#            add filled, then `restore --from FILE --force` onto a blank one,
#            against `dd` of as many bytes read from the device (iflag=direct)
#            into a file and written back (oflag=direct), each made durable
#            (conv=fsync); the most of the device's and the image file's
#            pages in the page cache while each runs, and the growth of
#            `Buffers` + `Cached`. Target: a few MiB; the speeds are shown.
# The loop devices read and write their backing files with direct I/O
# (losetup --direct-io=on), in BENCH_DIR (a disk file system). Needs root:
# says so and exits 0 without it. Not a test: prints a table, exits 2 when
# a target is missed.
#
# Environment: BENCH_MIB (256), BENCH_RUNS (5), BENCH_DIR
# (/var/tmp/km-write-bench; removed afterwards).
set -euo pipefail
KARMACTL=${1:?usage: write-bench.sh KARMACTL}
MIB=${BENCH_MIB:-256}
RUNS=${BENCH_RUNS:-5}
DIR=${BENCH_DIR:-/var/tmp/km-write-bench}
export LC_ALL=C

NAME=write-bench.sh
. "$(dirname "${BASH_SOURCE[0]}")/loop-bench-lib.sh"
# Buffers + Cached: a block device's pages count as Buffers.
cached_kib() { awk '/^(Buffers|Cached):/ { n += $2 } END { print n }' /proc/meminfo; }
# most_cached PATHS COMMAND...: runs COMMAND (not timed); prints the most MiB of
# the pages of PATHS (a device or file, or several joined by ':') in the page
# cache while it ran (cachestat(2) every 20 ms: exact, whatever other programs
# cache; a file COMMAND makes is sampled from when it appears).
most_cached() {
    local paths=$1 sampler
    shift
    rm -f "$DIR/done" "$DIR/ready"
    python3 - "$paths" "$DIR/done" "$DIR/ready" > "$DIR/most" <<'PY' &
import ctypes, os, struct, sys, time
libc = ctypes.CDLL(None, use_errno=True)
fds = {}
def sample():
    total = 0
    for path in sys.argv[1].split(':'):
        if path not in fds and os.path.exists(path):
            fds[path] = os.open(path, os.O_RDONLY)
        if path in fds:
            cs = ctypes.create_string_buffer(40)
            whole = struct.pack('QQ', 0, 0)  # from byte 0 to the end
            if libc.syscall(451, fds[path], whole, cs, 0) != 0:
                sys.exit('cachestat: ' + os.strerror(ctypes.get_errno()))
            total += struct.unpack('5Q', cs.raw)[0]
    return total
sample()
open(sys.argv[3], 'w').close()
most = 0
while True:
    done = os.path.exists(sys.argv[2])
    most = max(most, sample())
    if done:
        break
    time.sleep(0.02)
print(most * os.sysconf('SC_PAGESIZE') // (1 << 20))
PY
    sampler=$!
    while [ ! -e "$DIR/ready" ]; do sleep 0.05; done  # the sampler has the device open
    "$@" > /dev/null 2>&1
    touch "$DIR/done"
    wait "$sampler"
    cat "$DIR/most"
}

# attach IMAGE: a free loop device over IMAGE (tried again when another program took it first).
attach() {
    local l
    for _ in 1 2 3 4 5; do
        l=$(losetup -f --show --direct-io=on "$1" 2> /dev/null) && break
        sleep 1
    done
    [ -n "$l" ] || { echo "write-bench.sh: no loop device for $1" >&2; exit 1; }
    echo "$l"
}

echo "# karmactl: $KARMACTL"
echo "# $MIB MiB, $RUNS runs each, median; in $DIR ($(df -h --output=fstype "$DIR" | tail -n1 | tr -d ' '))"
echo "# $(nproc) cores, $(uname -r), load average $(cut -d' ' -f1-3 /proc/loadavg)"

head -c "${MIB}M" /dev/urandom > "$DIR/src"
python3 - "$DIR/src" "$DIR/big.wav" <<'EOF'
import struct, sys
data = open(sys.argv[1], 'rb').read()
fmt = struct.pack('<IHHIIHH', 16, 1, 2, 44100, 176400, 4, 16)
with open(sys.argv[2], 'wb') as f:
    f.write(b'RIFF' + struct.pack('<I', 36 + len(data)) + b'WAVEfmt ' + fmt + b'data' +
            struct.pack('<I', len(data)) + data)
EOF
"$KARMACTL" mkfs --size $((MIB + 64))M "$DIR/vol0.img" > /dev/null
cp --sparse=always "$DIR/vol0.img" "$DIR/vol.img"
truncate -s $((MIB + 64))M "$DIR/plain.img"
"$KARMACTL" mkkarma -s $((2 * MIB + 64))M "$DIR/disk0.img" > /dev/null
cp --sparse=always "$DIR/disk0.img" "$DIR/disk.img"
vol=$(attach "$DIR/vol.img"); loops+=("$vol")
plain=$(attach "$DIR/plain.img"); loops+=("$plain")
disk=$(attach "$DIR/disk.img"); loops+=("$disk")

# fresh LOOP IMAGE0 IMAGE: LOOP (attached to IMAGE) holds IMAGE0's bytes again (not timed).
fresh() { losetup -d "$1"; cp --sparse=always "$2" "$3"; losetup --direct-io=on "$1" "$3"; }
timed() { local t0 t1; t0=$(now_us); "$@" > /dev/null; t1=$(now_us); echo $((t1 - t0)); }
cp_sync() { cp "$DIR/src" "$plain" && sync "$plain"; }

# ---------------------------------------------------------------- durable
kc_us=() cp_us=() kc_cache=()
cat "$DIR/src" "$DIR/big.wav" > /dev/null
for _ in $(seq "$RUNS"); do
    cp_us+=("$(timed cp_sync)")
    fresh "$vol" "$DIR/vol0.img" "$DIR/vol.img"; sync
    c0=$(cached_kib)
    kc_us+=("$(timed "$KARMACTL" --device "$vol" put "$DIR/src" /big)")
    kc_cache+=($(( ($(cached_kib) - c0) / 1024 )))
done
"$KARMACTL" --device "$vol" cat /big | cmp - "$DIR/src"

# ------------------------------------------------------------------- tail
tail_us=() whole_us=() add_cache=()
for _ in $(seq "$RUNS"); do
    fresh "$disk" "$DIR/disk0.img" "$DIR/disk.img"; sync
    cat "$DIR/big.wav" > /dev/null
    c0=$(cached_kib)
    t0=$(now_us)
    # The first progress line with every byte written ("N MiB of N MiB"), then the end.
    full=$("$KARMACTL" --device "$disk" add --progress "$DIR/big.wav" 2>&1 > /dev/null |
        while IFS= read -r line; do
            if [[ $line =~ :\ ([0-9.]+)\ MiB\ of\ ([0-9.]+)\ MiB ]] &&
               [ "${BASH_REMATCH[1]}" = "${BASH_REMATCH[2]}" ] && [ -z "${seen:-}" ]; then
                seen=1; now_us
            fi
        done)
    t1=$(now_us)
    add_cache+=($(( ($(cached_kib) - c0) / 1024 )))
    [ -n "$full" ] || { echo "write-bench.sh: no progress line at 100%" >&2; exit 1; }
    tail_us+=($((t1 - full)))
    whole_us+=($((t1 - t0)))
done

# ------------------------------------------------------------------ cache
fresh "$vol" "$DIR/vol0.img" "$DIR/vol.img"
dev_m=$(most_cached "$vol" "$KARMACTL" --device "$vol" put "$DIR/src" /big)
fresh "$disk" "$DIR/disk0.img" "$DIR/disk.img"
add_dev_m=$(most_cached "$disk" "$KARMACTL" --device "$disk" add "$DIR/big.wav")

# ----------------------------------------------------------------- backup
# The disk now holds the WAV file: backed up, then restored onto a blank disk.
cp --sparse=always "$DIR/disk0.img" "$DIR/blank.img"
blank=$(attach "$DIR/blank.img"); loops+=("$blank")
# timed_growth US GREW COMMAND...: COMMAND's time (us) onto array US, and how
# much Buffers + Cached grew while it ran (MiB) onto array GREW.
timed_growth() {
    local -n us=$1 grew=$2
    local c0 t0
    shift 2
    sync
    c0=$(cached_kib) t0=$(now_us)
    "$@" > /dev/null
    us+=($(( $(now_us) - t0 )))
    grew+=($(( ($(cached_kib) - c0) / 1024 )))
}
bk=$DIR/backup.img
backup_us=() restore_us=() dd_in_us=() dd_out_us=() backup_grew=() restore_grew=()
for _ in $(seq "$RUNS"); do
    rm -f "$bk"*
    timed_growth backup_us backup_grew "$KARMACTL" --device "$disk" backup --to "$bk"
    used_mib=$(du -m "$bk" | cut -f1)
    fresh "$blank" "$DIR/disk0.img" "$DIR/blank.img"
    timed_growth restore_us restore_grew "$KARMACTL" --device "$blank" restore --from "$bk" --force
    rm -f "$DIR/ref.img"
    dd_in_us+=("$(timed dd if="$disk" of="$DIR/ref.img" bs=1M count="$used_mib" iflag=direct \
        conv=fsync status=none)")
    dd_out_us+=("$(timed dd if="$DIR/ref.img" of="$blank" bs=1M oflag=direct conv=fsync \
        status=none)")
done
"$KARMACTL" --device "$blank" verify > /dev/null
rm -f "$bk"*
backup_m=$(most_cached "$disk:$bk" "$KARMACTL" --device "$disk" backup --to "$bk")
fresh "$blank" "$DIR/disk0.img" "$DIR/blank.img"
restore_m=$(most_cached "$blank:$bk" "$KARMACTL" --device "$blank" restore --from "$bk" --force)

# ----------------------------------------------------------------- report
status=0
kc_m=$(median "${kc_us[@]}") cp_m=$(median "${cp_us[@]}")
speed=$(ratio "$cp_m" "$kc_m" 3)
tail_m=$(median "${tail_us[@]}") whole_m=$(median "${whole_us[@]}")
share=$(ratio "$tail_m" "$whole_m" 3)
speed_ok=$(awk -v r="$speed" 'BEGIN { print (r >= 0.75) ? "yes" : "NO" }')
tail_ok=$(awk -v r="$share" 'BEGIN { print (r < 0.05) ? "yes" : "NO" }')
cache_m=$(median "${kc_cache[@]}") add_cache_m=$(median "${add_cache[@]}")
cache_ok=$(awk -v a="$dev_m" -v b="$add_dev_m" 'BEGIN { print (a <= 8 && b <= 8) ? "yes" : "NO" }')
backup_med=$(median "${backup_us[@]}") restore_med=$(median "${restore_us[@]}")
dd_in_med=$(median "${dd_in_us[@]}") dd_out_med=$(median "${dd_out_us[@]}")
backup_grew_m=$(median "${backup_grew[@]}") restore_grew_m=$(median "${restore_grew[@]}")
# A few MiB: the read-ahead window of the disk the image is on may stay while it is read.
backup_cache_ok=$(awk -v a="$backup_grew_m" -v b="$restore_grew_m" 'BEGIN {
    print (a <= 8 && b <= 8) ? "yes" : "NO" }')
echo
echo "| measure | karmactl | reference | value | target | met |"
echo "|---|---|---|---|---|---|"
printf '| durable copy of %s MiB (`put`) | %s ms | `cp` + `sync` %s ms | %s x its speed | >= 0.75 | %s |\n' \
    "$MIB" "$(ms "$kc_m")" "$(ms "$cp_m")" "$speed" "$speed_ok"
printf '| 100%% to the end (`add --progress`) | %s ms of %s ms | | %s of the time | < 0.05 | %s |\n' \
    "$(ms "$tail_m")" "$(ms "$whole_m")" "$share" "$tail_ok"
printf '| the device'"'"'s pages in the page cache (the most while running), put / add | %s MiB / %s MiB | | | a few MiB | %s |\n' \
    "$dev_m" "$add_dev_m" "$cache_ok"
printf '| `Buffers` + `Cached` growth by the end, put / add | %s MiB / %s MiB | | | | |\n' \
    "$cache_m" "$add_cache_m"
printf '| backup of %s MiB used (`backup --to`) | %s ms | `dd` device to file %s ms | %s x its speed | | |\n' \
    "$used_mib" "$(ms "$backup_med")" "$(ms "$dd_in_med")" "$(ratio "$dd_in_med" "$backup_med" 3)"
printf '| restore onto a blank disk (`restore --from`) | %s ms | `dd` file to device %s ms | %s x its speed | | |\n' \
    "$(ms "$restore_med")" "$(ms "$dd_out_med")" "$(ratio "$dd_out_med" "$restore_med" 3)"
printf '| `Buffers` + `Cached` growth by the end, backup / restore | %s MiB / %s MiB | | | a few MiB | %s |\n' \
    "$backup_grew_m" "$restore_grew_m" "$backup_cache_ok"
printf '| the device'"'"'s and the image'"'"'s pages in the page cache (the most while running), backup / restore | %s MiB / %s MiB | | | | |\n' \
    "$backup_m" "$restore_m"
[ "$speed_ok" = yes ] && [ "$tail_ok" = yes ] && [ "$cache_ok" = yes ] &&
    [ "$backup_cache_ok" = yes ] || status=2
echo
echo "# every run: put (us) ${kc_us[*]}; cp+sync (us) ${cp_us[*]}"
echo "# add: 100% to end (us) ${tail_us[*]}; whole (us) ${whole_us[*]}"
echo "# Cached growth (MiB): put ${kc_cache[*]}; add ${add_cache[*]}"
echo "# backup (us) ${backup_us[*]}; dd in (us) ${dd_in_us[*]}; Cached growth (MiB) ${backup_grew[*]}"
echo "# restore (us) ${restore_us[*]}; dd out (us) ${dd_out_us[*]}; Cached growth (MiB) ${restore_grew[*]}"
exit $status
