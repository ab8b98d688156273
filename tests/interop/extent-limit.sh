#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# extent-limit.sh KARMACTL [mkfs options]: FILES AT THE 97-EXTENT LIMIT.
#
# The inode's extent table holds 97 data extents (sys_blocksize 2048); the
# kernel writes no continuation table and reads them wrongly, so 97 is the
# most a file the kernel shares with us may have, and the 97th extent is
# where an off-by-one would spill into a continuation table.
# We write: free space is cut into about 200 holes (fillers, every other one
# deleted); a binary search on the size finds files that take exactly 96
# and exactly 97 extents, all in the inode's table.  The kernel must read
# their exact bytes, with a clean log and the same free blocks.
# The kernel writes: jobs/kernel-extents.sh makes two files of 97 extents
# (and shows it refuses a 98th); we read their bytes, fsck finds the volume
# clean, and deleting one frees everything (fsck clean again).
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
interop_init "$@"

IMG=$W/ext.img
must "mkfs ${GEOMETRY[*]:-(defaults)}" mkfs "$IMG" 64M
BS=$(od -An -tu4 --endian=big -j 276 -N 4 "$IMG" | tr -d ' ')
ROOT=$(od -An -tu8 --endian=big -j 256 -N 8 "$IMG" | tr -d ' ')
CS=$(od -An -tu4 --endian=big -j $((ROOT * BS + 60)) -N 4 "$IMG" | tr -d ' ')
MIRRORS=$(od -An -tu4 --endian=big -j 280 -N 4 "$IMG" | tr -d ' ')
echo "# blocksize $BS, clustersize $CS, mirrors $MIRRORS"

# ino_of DIR NAME: the inode (block) number of DIR/NAME, from ls -l
ino_of() {
    kc "$IMG" ls -l "$1" | awk -v n="$2" '$NF == n { print $(NF - 1) }'
}

# ---------------------------------------- cut the free space into holes
HOLES=210
FILLERS=$((2 * HOLES))
free=$("${UTIL[@]}" free "$IMG")
ballast=$(( (free - FILLERS * (CS + MIRRORS) - 3 * MIRRORS - 2 * CS) * BS ))
echo "# $free free blocks; ballast of $ballast bytes, $FILLERS one-cluster fillers"
must "room for the fillers" [ "$ballast" -gt 0 ]
gen "$W/ballast" "$ballast" 1
must "put the ballast" kc "$IMG" put "$W/ballast" /BALLAST
mkdir "$W/fill"
for n in $(seq 1 $FILLERS); do
    head -c $((CS * BS)) /dev/zero > "$W/fill/$(printf 'P%04d' "$n")"
done
must "put -r $FILLERS fillers" kc "$IMG" put -r "$W/fill" /fill
removed=0
for name in $(kc "$IMG" ls -l /fill | sort -n -k4 | awk 'NR % 2 == 0 { print $NF }'); do
    kc "$IMG" rm "/fill/$name" || break
    removed=$((removed + 1))
done
ok "deleted every other filler, in disk order ($removed)" equal "deleted" "$removed" $HOLES
FREE=$("${UTIL[@]}" free "$IMG")
gen "$W/big" $((FREE * BS)) 2

# extents_for BLOCKS: the extents a file of BLOCKS data blocks takes (put,
# count, delete; "full" when it does not fit)
extents_for() {
    head -c $(($1 * BS)) "$W/big" > "$W/probe"
    kc "$IMG" put "$W/probe" /PROBE 2> /dev/null || { echo full; return; }
    "${UTIL[@]}" extents "$IMG" "$(ino_of / PROBE)"
    kc "$IMG" rm /PROBE
}

# blocks_for EXTENTS: the fewest data blocks that take EXTENTS extents
# (the count grows by at most one per block, so some size gives exactly EXTENTS)
blocks_for() {
    local lo=1 hi=$FREE mid e
    while [ "$lo" -lt "$hi" ]; do
        mid=$(( (lo + hi) / 2 ))
        e=$(extents_for $mid)
        if [ "$e" = full ] || [ "$e" -ge "$1" ]; then hi=$mid; else lo=$((mid + 1)); fi
    done
    echo $lo
}

# put_with_extents NAME EXTENTS: a file that takes exactly EXTENTS extents
put_with_extents() {
    local blocks ino e t
    blocks=$(blocks_for "$2")
    # a last block that is not full (the kernel reads i_size, not the mapping)
    head -c $((blocks * BS - 100)) "$W/big" > "$W/$1"
    kc "$IMG" put "$W/$1" "/$1" || return 1
    ino=$(ino_of / "$1")
    e=$("${UTIL[@]}" extents "$IMG" "$ino")
    t=$("${UTIL[@]}" tables "$IMG" "$ino")
    echo "$1: $blocks blocks, ino $ino, $e extents in $t table(s)"
    equal "extents of /$1" "$e" "$2" && equal "tables of /$1" "$t" 1
}
ok "a file of exactly 96 extents, in the inode's table" put_with_extents F096 96
diag < "$W/last.out"
ok "a file of exactly 97 extents, in the inode's table" put_with_extents F097 97
diag < "$W/last.out"
ok "our fsck finds the volume clean" fsck_clean "$IMG"
ok "karmactl manifest" to "$W/ours.tsv" kc "$IMG" manifest

must "the kernel lists the volume" oracle list "$IMG" list
kernel_manifest list > "$W/kernel.tsv"
ok "the kernel read every file" no_read_errors list
ok "our manifest equals the kernel's, byte for byte" same_manifest "$W/ours.tsv" "$W/kernel.tsv"
for f in F096 F097; do
    ok "the kernel read /$f's exact bytes" equal "sha256 of /$f" \
        "$(awk -F'\t' -v p="/$f" '$1 == p { print $4 }' "$W/kernel.tsv")" \
        "$(sha256sum < "$W/$f" | cut -d' ' -f1)"
done
ok "kernel log clean" dmesg_clean list
kfree=$(kernel_bfree list)
ok "statfs free: kernel $kfree, bitmap" equal "free blocks" "$kfree" "$("${UTIL[@]}" free "$IMG")"

# ------------------------------------------- the kernel writes 97 extents
KIMG=$W/kext.img
KAFTER=$W/kext.after.img
must "mkfs ${GEOMETRY[*]:-(defaults)} for the kernel" mkfs "$KIMG" 32M
gen "$W/src.bin" $((99 * 65536)) 3
must "the kernel writes two files of 97 extents" \
    oracle kexec "$KIMG" exec "$INTEROP_DIR/jobs/kernel-extents.sh" \
    --add "$W/src.bin" --list-after -o "$KAFTER"
section kexec script | diag
ok "the kernel refuses a 98th extent (its limit)" eval \
    "section kexec script | grep -qx '98th extent: refused'"
ok "kernel log clean after its writes" dmesg_clean kexec
kernel_manifest kexec > "$W/kernel2.tsv"
ok "our fsck finds the kernel's volume clean" fsck_clean "$KAFTER"
ok "karmactl manifest of the kernel's volume" to "$W/ours2.tsv" kc "$KAFTER" manifest
ok "our manifest equals the kernel's" same_manifest "$W/ours2.tsv" "$W/kernel2.tsv"
head -c $((97 * 65536)) "$W/src.bin" > "$W/KA.want"
tail -c +65537 "$W/src.bin" | head -c $((97 * 65536)) > "$W/KB.want"
for f in KA KB; do
    ino=$(kc "$KAFTER" ls -l / | awk -v n=$f '$NF == n { print $(NF - 1) }')
    ok "the kernel's /$f has 97 extents" equal "extents of /$f" \
        "$("${UTIL[@]}" extents "$KAFTER" "${ino:-0}" 2>&1)" 97
    ok "get /$f: the bytes the kernel was given" eval \
        "kc '$KAFTER' get /$f '$W/$f.got' && cmp '$W/$f.got' '$W/$f.want'"
done
kfree=$(kernel_bfree kexec)
ok "statfs free: kernel $kfree, bitmap" equal "free blocks" "$kfree" "$("${UTIL[@]}" free "$KAFTER")"
ok "rm the kernel's 97-extent /KA" kc "$KAFTER" rm /KA
ok "our fsck: clean after the rm (every block of its 97 extents freed)" fsck_clean "$KAFTER"

done_testing
