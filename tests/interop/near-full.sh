#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# near-full.sh KARMACTL [mkfs options]: A VOLUME FILLED TO THE LAST BLOCK.
#
# We put files of 1 MiB, then one cluster, then 1 byte, each until put fails
# with ENOSPC: karmactl must say "No space left on device" and that the
# volume is full, leave nothing behind and not change the free count; one
# that would replace a file by more than fits leaves that file alone.  The
# kernel then reads the full volume (same manifest, same free blocks).
# We delete three files in the middle; the kernel fills that room with its
# own files until its writes fail (jobs/kernel-fill.sh).  We read what it
# wrote: fsck clean, same manifest, same free blocks.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
interop_init "$@"

IMG=$W/full.img
AFTER=$W/full.after.img
must "mkfs ${GEOMETRY[*]:-(defaults)}" mkfs "$IMG" 16M
BS=$(od -An -tu4 --endian=big -j 276 -N 4 "$IMG" | tr -d ' ')
ROOT=$(od -An -tu8 --endian=big -j 256 -N 8 "$IMG" | tr -d ' ')
CS=$(od -An -tu4 --endian=big -j $((ROOT * BS + 60)) -N 4 "$IMG" | tr -d ' ')
gen "$W/src.bin" 1048576 7

# fill PREFIX BYTES: puts files of BYTES until one fails; the failure must be
# ENOSPC, said plainly, with no leftover and no block taken
fill() {
    local n=0 f before after
    while [ $n -lt 5000 ]; do
        n=$((n + 1))
        f=/$1$(printf '%04d' $n)
        before=$("${UTIL[@]}" free "$IMG")
        head -c "$2" "$W/src.bin" > "$W/piece"
        kc "$IMG" put "$W/piece" "$f" 2> "$W/put.err" || break
    done
    after=$("${UTIL[@]}" free "$IMG")
    echo "$((n - 1)) files of $2 bytes; then: $(cat "$W/put.err")"
    grep -q 'No space left on device' "$W/put.err" ||
        { echo "no ENOSPC message"; return 1; }
    grep -q 'the volume is full\|no room for a new sysblock' "$W/put.err" ||
        { echo "the message does not say the volume is full"; return 1; }
    ! kc "$IMG" ls "$f" > /dev/null 2>&1 || { echo "the failed put left $f"; return 1; }
    equal "free blocks before and after the failed put" "$before" "$after"
}
ok "put 1 MiB files until ENOSPC" fill M 1048576
diag < "$W/last.out"
ok "put one-cluster files until ENOSPC" fill B $((CS * BS))
diag < "$W/last.out"
ok "put 1-byte files until ENOSPC" fill C 1
diag < "$W/last.out"
# replacing a file by more than fits must leave it as it was
replace_too_big() {
    local before
    before=$(kc "$IMG" cat /M0001 | sha256sum)
    head -c $((2 * 1048576)) /dev/zero > "$W/piece"
    ! kc "$IMG" put "$W/piece" /M0001 || { echo "the put succeeded"; return 1; }
    equal "/M0001" "$(kc "$IMG" cat /M0001 | sha256sum)" "$before"
}
ok "put of 2 MiB onto /M0001 fails and leaves it as it was" replace_too_big
diag < "$W/last.out"
FULL=$("${UTIL[@]}" free "$IMG")
echo "# $FULL free blocks left"
ok "our fsck finds the full volume clean" fsck_clean "$IMG"
ok "karmactl manifest" to "$W/ours.tsv" kc "$IMG" manifest

must "the kernel lists the full volume" oracle list "$IMG" list
kernel_manifest list > "$W/kernel.tsv"
ok "the kernel read every file" no_read_errors list
ok "our manifest equals the kernel's" same_manifest "$W/ours.tsv" "$W/kernel.tsv"
ok "kernel log clean" dmesg_clean list
ok "statfs free: kernel and bitmap agree ($FULL)" equal "free blocks" "$(kernel_bfree list)" "$FULL"
ok "karmactl df agrees" df_agrees "$IMG" "$FULL"

# --------------------------------------- room in the middle, the kernel fills it
for f in /M0003 /M0006 /M0009; do
    ok "rm $f" kc "$IMG" rm "$f"
done
must "the kernel fills the volume until its writes fail" \
    oracle exec "$IMG" exec "$INTEROP_DIR/jobs/kernel-fill.sh" \
    --add "$W/src.bin" --list-after -o "$AFTER"
section exec script | diag
# this kernel fails a write that finds no free block with EIO, a create
# with no room for an inode with ENOSPC (README, the kernel's limits)
ok "the kernel's 256 KiB files end with a failed write" eval \
    "section exec script | grep -Eq '^kfill/A[0-9]+: .*(I/O error|No space left on device)'"
ok "then the kernel cannot create a file: ENOSPC" eval \
    "section exec script | grep -q \"can't create kfill/C0001: No space left on device\""
ok "kernel log clean" dmesg_clean exec
ok "the kernel read back every file" no_read_errors exec
kernel_manifest exec > "$W/kernel2.tsv"
ok "our fsck finds the kernel's fill clean" fsck_clean "$AFTER"
ok "karmactl manifest" to "$W/ours2.tsv" kc "$AFTER" manifest
ok "our manifest equals the kernel's" same_manifest "$W/ours2.tsv" "$W/kernel2.tsv"
# the file whose write failed holds what the kernel managed to write: the
# first bytes of its source
last_is_prefix() {
    local line size
    line=$(grep '^/kfill/A' "$W/ours2.tsv" | tail -n 1)
    size=$(cut -f3 <<< "$line")
    echo "$line"
    [ -n "$size" ] && [ "$size" -lt 262144 ] &&
        equal "sha256 of $(cut -f1 <<< "$line")" "$(cut -f4 <<< "$line")" \
        "$(head -c "$size" "$W/src.bin" | sha256sum | cut -d' ' -f1)"
}
ok "the kernel's partly written last file: the first bytes of its source" last_is_prefix
kfree=$(kernel_bfree exec)
ok "statfs free: kernel $kfree, bitmap" equal "free blocks" "$kfree" "$("${UTIL[@]}" free "$AFTER")"
ok "karmactl df agrees" df_agrees "$AFTER" "$kfree"
ok "the volume is full again ($kfree free blocks, fewer than an inode and a block)" \
    [ "$kfree" -lt 3 ]

done_testing
