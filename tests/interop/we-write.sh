#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# we-write.sh KARMACTL [mkfs options]: WE WRITE, THE KERNEL READS.
#
# karmactl formats a volume and builds a tree on it (nested directories,
# empty and small files, files around the block and cluster sizes, a file of
# several MiB, 250 names in one directory, renames, deletes, truncates, and a
# file fragmented into many extents, but no more than the 97 the kernel can
# read).  The same operations are replayed on a host folder, the mirror.
# Then the Linux driver mounts the volume (omfs-oracle list) and:
#   - our manifest, the kernel's and the mirror's are identical;
#   - the kernel read every file, and its log is clean;
#   - statfs free blocks agree (kernel, karmactl df, the bitmap itself);
#   - the fragmented file has many extents in one table;
#   - the kernel sees our timestamps as "now" (we store real milliseconds).
# Names follow the oracle README: in one directory no name is a prefix of
# another (the kernel's lookup matches prefixes).
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
interop_init "$@"

IMG=$W/we-write.img
M=$W/mirror
S=$W/src
mkdir -p "$M" "$S"

must "mkfs ${GEOMETRY[*]:-(defaults)}" mkfs "$IMG" 64M
BS=$(od -An -tu4 --endian=big -j 276 -N 4 "$IMG" | tr -d ' ')
SBS=$(od -An -tu4 --endian=big -j 284 -N 4 "$IMG" | tr -d ' ')
ROOT=$(od -An -tu8 --endian=big -j 256 -N 8 "$IMG" | tr -d ' ')
CS=$(od -An -tu4 --endian=big -j $((ROOT * BS + 60)) -N 4 "$IMG" | tr -d ' ')
MIRRORS=$(od -An -tu4 --endian=big -j 280 -N 4 "$IMG" | tr -d ' ')
CLUSTER=$((CS * BS))
echo "# blocksize $BS, sys_blocksize $SBS, clustersize $CS, mirrors $MIRRORS"
must "fresh volume is clean for our fsck" fsck_clean "$IMG"

# ------------------------------------------------ operations, on both sides
# Each helper does one thing to the volume (a check) and the same to the
# mirror, so the mirror's manifest is what both readers must show.
seed=100
newsrc() {  # newsrc SIZE: a new host source file $SRC of SIZE bytes
    seed=$((seed + 1))
    SRC=$S/src-$seed
    gen "$SRC" "$1" $seed
}
v_mkdir() {
    ok "mkdir -p $1" kc "$IMG" mkdir -p "$1" && mkdir -p "$M$1"
}
v_put() {  # v_put SIZE PATH: a fresh source file of SIZE bytes to PATH
    newsrc "$1"
    ok "put $1 bytes to $2" kc "$IMG" put "$SRC" "$2" && cp "$SRC" "$M$2"
}
v_put_r() {  # v_put_r HOSTDIR PATH
    ok "put -r $(basename "$1") to $2" kc "$IMG" put -r "$1" "$2" && cp -r "$1" "$M$2"
}
v_mv() {
    ok "mv $1 $2" kc "$IMG" mv "$1" "$2" && mv -T "$M$1" "$M$2"
}
v_rm() {
    ok "rm $*" kc "$IMG" rm "$@" && rm -rf "$M${*: -1}"
}
v_truncate() {
    ok "truncate $1 to $2" kc "$IMG" truncate "$1" "$2" && truncate -s "$2" "$M$1"
}

# sizes around the sysblock, block and cluster sizes, and several MiB;
# fixed-width names (none a prefix of another)
v_mkdir /sizes
for size in 0 1 $((SBS - 1)) $SBS $((SBS + 1)) $((BS - 1)) $BS $((BS + 1)) \
        $((CLUSTER - 1)) $CLUSTER $((CLUSTER + 1)) 100000 $((3 * 1048576 + 17)); do
    v_put $size "/sizes/$(printf 'z%08d' $size)"
done

# nested folders from the host in one go, and deep ones made by mkdir -p
mkdir -p "$S/music/A001/B001" "$S/music/A001/B002" "$S/music/A002/B001"
gen "$S/music/A001/B001/T001" 300000 1
gen "$S/music/A001/B001/T002" 70000 2
gen "$S/music/A001/B002/T001" 1 3
gen "$S/music/A002/B001/T001" 500000 4
v_put_r "$S/music" /music
v_mkdir /deep/d1/d2/d3/d4/d5/d6
v_put 4000 /deep/d1/d2/d3/d4/d5/d6/leaf
v_mkdir /empty-dir
# sorts between /music and /music/...: a manifest sorted by path, not a tree walk
v_put 10 /music-old

# 250 names in one folder: shared hash buckets and long chains
mkdir -p "$S/many"
for n in $(seq 1 250); do echo "file $n" > "$S/many/$(printf 'N%03d' "$n")"; done
v_put_r "$S/many" /many

# names: same bucket with case-folded hash but case-sensitive compare,
# Latin-1 (the kernel folds 0xC9 to 0xE9 for the hash), UTF-8, 255 bytes
v_mkdir /names
v_put 11 /names/CaseTest
v_put 12 /names/casetest
v_put 13 "/names/Caf$(printf '\311')"
v_put 14 "/names/na$(printf '\303\257')ve"
v_put 15 "/names/$(printf 'L%.0s' $(seq 1 255))"

# renames: same folder, across folders, a folder, onto an existing file
v_mkdir /docs
v_put 2222 /docs/R001
v_mv /docs/R001 /docs/R002
v_mv /docs/R002 /music/A002/R003
v_mkdir /tmpdir/sub
v_put 3333 /tmpdir/sub/X001
v_mv /tmpdir /moved-dir
v_put 4444 /docs/V001
v_put 5555 /docs/V002
v_mv /docs/V002 /docs/V001
# put onto an existing file replaces it
v_put 300000 /docs/W001
v_put 1234 /docs/W001

# deletes: a file, a tree, two names in the long chains
v_put 6666 /docs/D001
v_rm /docs/D001
v_mkdir /gone/sub
v_put 7777 /gone/sub/G001
v_rm -r /gone
v_rm /many/N007
v_rm /many/N100

# truncate: shrink (frees blocks; the kernel only ever truncates to 0),
# grow (must be real zeroed blocks: the kernel cannot read holes), to 0
v_mkdir /trunc
v_put 200000 /trunc/T001
v_truncate /trunc/T001 1000
v_put 5000 /trunc/T002
v_truncate /trunc/T002 300000
v_put 70000 /trunc/T003
v_truncate /trunc/T003 0
v_put 100 /trunc/T004
v_truncate /trunc/T004 100

# ---------------------------------- a file fragmented into many extents
# Fill the volume: a ballast file, then one-cluster fillers until the
# volume is full; delete every other filler; the new file can only go into
# the holes, one extent per hole (about HOLES of them, well under 97).
HOLES=40
FILLERS=$((2 * HOLES))
free=$("${UTIL[@]}" free "$IMG")
ballast=$(( (free - FILLERS * (CS + MIRRORS) - MIRRORS - 2 * CS) * BS ))
echo "# $free free blocks before the ballast of $ballast bytes"
v_mkdir /fill
[ "$ballast" -gt 0 ] && v_put $ballast /fill/BALLAST
n=0 full=0
while [ $n -lt $((FILLERS + 40)) ]; do
    n=$((n + 1))
    name=$(printf 'P%04d' $n)
    newsrc "$CLUSTER"
    if ! kc "$IMG" put "$SRC" "/fill/$name" 2> "$W/fill.err"; then
        full=1
        break
    fi
    cp "$SRC" "$M/fill/$name"
done
T_N=$((T_N + 1))
if [ $full = 1 ] && grep -qi 'space' "$W/fill.err"; then
    echo "ok $T_N - the volume fills up after $((n - 1)) fillers with ENOSPC"
else
    echo "not ok $T_N - the volume fills up with ENOSPC (after $n fillers)"
    T_FAIL=$((T_FAIL + 1))
    diag < "$W/fill.err"
fi
# a failed put must leave nothing behind, or at least something we can delete
if [ $full = 1 ] && kc "$IMG" ls "/fill/$name" > /dev/null 2>&1; then
    echo "# the failed put left /fill/$name behind: deleting it"
    ok "rm the leftover of the failed put" kc "$IMG" rm "/fill/$name"
fi
ok "fsck clean on the full volume" fsck_clean "$IMG"
removed=0
for i in $(seq 2 2 $((n - 1))); do
    name=$(printf 'P%04d' "$i")
    kc "$IMG" rm "/fill/$name" || { echo "# rm /fill/$name failed"; break; }
    rm "$M/fill/$name"
    removed=$((removed + 1))
done
ok "deleted $removed fillers (every other one)" [ $removed -ge 10 ]
v_put $((removed * CLUSTER - 777)) /fill/FRAG

# ------------------------------------------------------------- compare
ok "our fsck finds the volume clean" fsck_clean "$IMG"
ok "karmactl manifest" to "$W/ours.tsv" kc "$IMG" manifest
"${UTIL[@]}" manifest "$M" "$SBS" > "$W/mirror.tsv"
ok "our manifest equals the mirror's (what was put)" same_manifest "$W/ours.tsv" "$W/mirror.tsv"

must "the kernel mounts and lists the volume" oracle list "$IMG" list --long
kernel_manifest list > "$W/kernel.tsv"
ok "the kernel read every file" no_read_errors list
ok "our manifest equals the kernel's, byte for byte" same_manifest "$W/ours.tsv" "$W/kernel.tsv"
ok "same entries as the kernel, in any order" same_lines "$W/ours.tsv" "$W/kernel.tsv"
ok "the kernel's manifest equals the mirror's" same_manifest "$W/mirror.tsv" "$W/kernel.tsv"
ok "kernel log clean (no omfs error, BUG or WARNING)" dmesg_clean list

kfree=$(kernel_bfree list)
bfree=$("${UTIL[@]}" free "$IMG")
ok "statfs free: kernel $kfree, bitmap $bfree" equal "free blocks" "$kfree" "$bfree"
ok "karmactl df shows $kfree free blocks" df_agrees "$IMG" "$kfree"

frag_ino=$(section list manifest | awk -F'\t' '$1 == "/fill/FRAG" { sub(/^ino=/, "", $5); sub(/ .*/, "", $5); print $5 }')
extents=$("${UTIL[@]}" extents "$IMG" "${frag_ino:-0}" 2>&1)
in_range() {  # in_range VALUE MIN MAX
    [[ "$1" =~ ^[0-9]+$ ]] && [ "$1" -ge "$2" ] && [ "$1" -le "$3" ]
}
ok "/fill/FRAG has many extents, within the kernel's 97 ($extents)" in_range "$extents" 10 97

now=$(date +%s)
bad_times=$(section list manifest | awk -F'\t' -v now="$now" '{
    m = $5; sub(/.*mtime=/, "", m); sub(/ .*/, "", m)
    if (m < now - 86400 || m > now + 86400) print $1 " mtime=" m }')
ok "the kernel reads our ctimes as today (milliseconds on disk)" [ -z "$bad_times" ]
[ -n "$bad_times" ] && echo "$bad_times" | head -n 5 | diag

done_testing
