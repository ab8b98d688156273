#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# hash-buckets.sh KARMACTL [mkfs options]: NAMES IN ONE HASH BUCKET.
#
# util.py collide gives 60 names of one length (so none is a prefix of
# another: the kernel's lookup matches prefixes) that the kernel's hash puts
# in one bucket.  In B/ we create 40 of them (one chain of 40 inodes) and
# delete its tail, head and two in the middle; the kernel (jobs/kernel-
# buckets.sh) reads them, makes its own chain K/ the same way, and deletes
# from and adds to ours; we read its result and delete from the middle of
# its chain and add to both; the kernel reads that.  At each step: the
# manifests equal a host mirror of the same operations, the chains are
# really one bucket on disk (util.py buckets), fsck and the kernel's log
# are clean, and free blocks agree.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
interop_init "$@"

IMG=$W/hb.img
AFTER=$W/hb.after.img
M=$W/mirror
must "mkfs ${GEOMETRY[*]:-(defaults)}" mkfs "$IMG" 16M
SBS=$(od -An -tu4 --endian=big -j 284 -N 4 "$IMG" | tr -d ' ')
NB=$(( (SBS - 0x1B8) / 8 ))
must "60 names in one of $NB buckets" to "$W/names.txt" "${UTIL[@]}" collide "$NB" 60 H
name() { sed -n "${1}p" "$W/names.txt"; }
echo "# names: $(name 1) $(name 2) ... $(name 60)"

# one_chain IMAGE DIR COUNT: DIR's entries are one chain of COUNT names
one_chain() {
    local ino
    ino=$(kc "$1" ls -l / | awk -v n="${2#/}" '$NF == n { print $(NF - 1) }')
    "${UTIL[@]}" buckets "$1" "${ino:-0}" > "$W/buckets.txt" || return 1
    cat "$W/buckets.txt"
    equal "used buckets of $2" "$(wc -l < "$W/buckets.txt")" 1 &&
        equal "names in the chain of $2" "$(wc -w < "$W/buckets.txt")" $(($3 + 1))
}
# mirror_new DIR N TEXT: a file of TEXT named name N in the mirror's DIR
mirror_new() {
    echo "$3" > "$M$1/$(name "$2")"
}

# ------------------------------------------------------------ we write
mkdir -p "$M/B"
for i in $(seq 1 40); do mirror_new /B "$i" "ours $i"; done
must "put -r 40 names of one bucket" kc "$IMG" put -r "$M/B" /B
deleted=0
for i in 1 20 21 40; do
    kc "$IMG" rm "/B/$(name "$i")" && rm "$M/B/$(name "$i")" && deleted=$((deleted + 1))
done
ok "deleted the tail, two in the middle and the head of our chain" equal deleted $deleted 4
ok "B/ is one chain of 36 on disk" one_chain "$IMG" /B 36
ok "our fsck finds it clean" fsck_clean "$IMG"

# ---------------------------------------- the kernel reads, and writes
must "the kernel runs jobs/kernel-buckets.sh" \
    oracle exec "$IMG" exec "$INTEROP_DIR/jobs/kernel-buckets.sh" \
    --add "$W/names.txt" --list-after -o "$AFTER"
# what the kernel read in B/ before changing anything
section exec script | awk '/^--- B before/ { f = 1; next } /^---/ { f = 0 } f' |
    awk '{ print $2 "\t" $1 }' | sort > "$W/k-before.txt"
(cd "$M" && for f in B/*; do printf '%s\t%s\n' "$f" "$(sha256sum < "$f" | cut -d' ' -f1)"; done) |
    sort > "$W/m-before.txt"
ok "the kernel finds our 36 names with their bytes" same_manifest "$W/m-before.txt" "$W/k-before.txt"
ok "kernel log clean" dmesg_clean exec
mkdir -p "$M/K"
for i in $(seq 1 40); do
    case $i in 1|20|21|40) ;; *) mirror_new /K "$i" "kernel $i" ;; esac
done
for i in 10 30; do rm "$M/B/$(name "$i")"; done
for i in $(seq 41 50); do mirror_new /B "$i" "kernel in ours $i"; done
"${UTIL[@]}" manifest "$M" "$SBS" > "$W/mirror1.tsv"
kernel_manifest exec > "$W/kernel1.tsv"
ok "the kernel's result is the mirror's" same_manifest "$W/mirror1.tsv" "$W/kernel1.tsv"

# ------------------------------------------------------------ we read
ok "our fsck finds the kernel's chains clean" fsck_clean "$AFTER"
ok "karmactl manifest" to "$W/ours1.tsv" kc "$AFTER" manifest
ok "our manifest equals the kernel's" same_manifest "$W/ours1.tsv" "$W/kernel1.tsv"
ok "the kernel's K/ is one chain of 36 on disk" one_chain "$AFTER" /K 36
ok "B/ is one chain of 44 on disk" one_chain "$AFTER" /B 44
changed=0
for i in 10 30; do
    kc "$AFTER" rm "/K/$(name "$i")" && rm "$M/K/$(name "$i")" && changed=$((changed + 1))
done
for i in $(seq 51 60); do
    echo "ours again $i" > "$W/new"
    for d in B K; do
        kc "$AFTER" put "$W/new" "/$d/$(name "$i")" && cp "$W/new" "$M/$d/$(name "$i")" &&
            changed=$((changed + 1))
    done
done
ok "deleted two in the middle of the kernel's chain, added 10 names to each" \
    equal changed $changed 22
ok "our fsck: clean after our changes" fsck_clean "$AFTER"
ok "karmactl manifest after our changes" to "$W/ours2.tsv" kc "$AFTER" manifest
"${UTIL[@]}" manifest "$M" "$SBS" > "$W/mirror2.tsv"
ok "our manifest is the mirror's" same_manifest "$W/ours2.tsv" "$W/mirror2.tsv"

must "the kernel lists the result" oracle list "$AFTER" list
kernel_manifest list > "$W/kernel2.tsv"
ok "the kernel read every file" no_read_errors list
ok "the kernel's manifest equals ours" same_manifest "$W/ours2.tsv" "$W/kernel2.tsv"
ok "kernel log clean" dmesg_clean list
kfree=$(kernel_bfree list)
ok "statfs free: kernel $kfree, bitmap" equal "free blocks" "$kfree" "$("${UTIL[@]}" free "$AFTER")"
ok "karmactl df shows $kfree free blocks" df_agrees "$AFTER" "$kfree"

done_testing
