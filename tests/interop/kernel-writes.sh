#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kernel-writes.sh KARMACTL [mkfs options]: THE KERNEL WRITES, WE READ.
#
# karmactl formats a volume; the Linux driver runs jobs/kernel-populate.sh on
# it (create, write, multi-extent files, rename, delete, mkdir, rmdir of an
# empty folder, truncate to 0) and lists the result in the same boot.  Then:
#   - our fsck finds the kernel-made volume clean (exit 0; INFO is allowed);
#   - our manifest equals the kernel's, byte for byte;
#   - free blocks agree (kernel statfs, karmactl df, the bitmap).
# Round trip: karmactl then changes that volume (put, mv, rm, shrink a
# kernel-written multi-extent file, mkdir) and the kernel must read exactly
# our result, with a clean log.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
interop_init "$@"

IMG=$W/kw.img
AFTER=$W/kw.after.img
BLOB=$W/blob.bin

must "mkfs ${GEOMETRY[*]:-(defaults)}" mkfs "$IMG" 48M
must "fresh volume is clean for our fsck" fsck_clean "$IMG"
gen "$BLOB" $((3 * 1048576 + 4321)) 42

must "the kernel runs the populate job (mount, script, umount)" \
    oracle exec "$IMG" exec "$INTEROP_DIR/jobs/kernel-populate.sh" \
    --add "$BLOB" --list-after -o "$AFTER"
section exec script | diag
ok "kernel log clean after its writes" dmesg_clean exec
ok "the kernel re-read its own files" no_read_errors exec
kernel_manifest exec > "$W/kernel.tsv"
ok "the kernel's manifest has the job's entries" \
    [ "$(grep -c '^/k/M' "$W/kernel.tsv")" = 118 ]

# our fsck: exit 0 means clean; findings of severity INFO may be printed
ok "our fsck finds the kernel-made volume clean" fsck_clean "$AFTER"
ok "karmactl manifest" to "$W/ours.tsv" kc "$AFTER" manifest
ok "our manifest equals the kernel's, byte for byte" same_manifest "$W/ours.tsv" "$W/kernel.tsv"
ok "same entries as the kernel, in any order" same_lines "$W/ours.tsv" "$W/kernel.tsv"

# every file's bytes, read through `get` as well (not only the manifest path)
check_get() {
    local path sum
    path=$1
    kc "$AFTER" get "$path" "$W/got" || return 1
    sum=$(sha256sum < "$W/got" | cut -d' ' -f1)
    equal "sha256 of $path" "$sum" "$(awk -F'\t' -v p="$path" '$1 == p { print $4 }' "$W/kernel.tsv")"
}
for p in /m/A001/B002/T001 /m/A001/X003 /m/A002/X001 /d/R001 /d/Z001 /d/empty; do
    ok "get $p: the kernel's bytes" check_get "$p"
done

kfree=$(kernel_bfree exec)
bfree=$("${UTIL[@]}" free "$AFTER")
ok "statfs free: kernel $kfree, bitmap $bfree" equal "free blocks" "$kfree" "$bfree"
ok "karmactl df shows $kfree free blocks" df_agrees "$AFTER" "$kfree"

# ----------------------------------------- round trip: we change it, kernel reads
gen "$W/new.bin" 200000 43
ok "put a new file next to the kernel's" kc "$AFTER" put "$W/new.bin" /d/N001
ok "mv a kernel-written multi-extent file to the root" kc "$AFTER" mv /m/A001/X003 /X003
ok "rm a kernel-written file from a long chain" kc "$AFTER" rm /k/M050
ok "shrink a kernel-written multi-extent file" kc "$AFTER" truncate /m/A002/X001 100000
ok "grow a kernel-written file" kc "$AFTER" truncate /d/one 20000
ok "mkdir -p" kc "$AFTER" mkdir -p /new/sub
ok "put into the new folder" kc "$AFTER" put "$W/new.bin" /new/sub/N002
ok "rm -r a kernel-made folder" kc "$AFTER" rm -r /m/A001/B002
ok "our fsck: clean after our changes" fsck_clean "$AFTER"
ok "karmactl manifest after our changes" to "$W/ours2.tsv" kc "$AFTER" manifest

must "the kernel lists the volume we changed" oracle list2 "$AFTER" list
kernel_manifest list2 > "$W/kernel2.tsv"
ok "the kernel read every file" no_read_errors list2
ok "our manifest equals the kernel's after our changes" same_manifest "$W/ours2.tsv" "$W/kernel2.tsv"
ok "kernel log clean" dmesg_clean list2
kfree=$(kernel_bfree list2)
bfree=$("${UTIL[@]}" free "$AFTER")
ok "statfs free after our changes: kernel $kfree, bitmap $bfree" equal "free blocks" "$kfree" "$bfree"

# spot checks that the changes are what we meant, as the kernel read them
expect() {  # expect PATH SIZE [SHA256]
    local line
    line=$(awk -F'\t' -v p="$1" '$1 == p' "$W/kernel2.tsv")
    [ -n "$line" ] || { echo "$1 missing from the kernel's manifest"; return 1; }
    equal "size of $1" "$(cut -f3 <<< "$line")" "$2" || return 1
    [ $# -lt 3 ] || equal "sha256 of $1" "$(cut -f4 <<< "$line")" "$3"
}
absent() {
    awk -F'\t' -v p="$1" '$1 == p { found = 1 } END { exit found }' "$W/kernel2.tsv"
}
new_sha=$(sha256sum < "$W/new.bin" | cut -d' ' -f1)
ok "kernel sees /d/N001" expect /d/N001 200000 "$new_sha"
ok "kernel sees /new/sub/N002" expect /new/sub/N002 200000 "$new_sha"
ok "kernel sees /X003 moved" expect /X003 $((30 * 65536))
ok "kernel sees /m/A002/X001 shrunk" expect /m/A002/X001 100000 \
    "$(head -c 100000 "$BLOB" | sha256sum | cut -d' ' -f1)"
ok "kernel sees /d/one grown with zeros" expect /d/one 20000 \
    "$({ printf x; head -c 19999 /dev/zero; } | sha256sum | cut -d' ' -f1)"
ok "kernel no longer sees /k/M050, /m/A001/X003, /m/A001/B002" \
    eval 'absent /k/M050 && absent /m/A001/X003 && absent /m/A001/B002'

done_testing
