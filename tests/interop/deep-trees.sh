#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# deep-trees.sh KARMACTL [mkfs options]: FOLDERS 60 LEVELS DEEP.
#
# We put -r a host tree deep/L01/.../L60 with files at depths 1, 15, 30, 45
# and 60; the kernel (jobs/kernel-deep.sh) makes kdeep/ the same way with
# its own mkdir -p.  The kernel's listing must equal a host mirror of both;
# we read the kernel's tree (fsck, manifest, get -r).  Then we rm -r both
# trees: the kernel sees an empty volume with every block free again, as
# many as after mkfs.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
interop_init "$@"

IMG=$W/deep.img
AFTER=$W/deep.after.img
M=$W/mirror
must "mkfs ${GEOMETRY[*]:-(defaults)}" mkfs "$IMG" 16M
SBS=$(od -An -tu4 --endian=big -j 284 -N 4 "$IMG" | tr -d ' ')
FREE0=$("${UTIL[@]}" free "$IMG")

# deep_tree TOP WHO: the 60-level path under TOP, with its files
deep_tree() {
    local p=$1 i
    for i in $(seq 1 60); do
        p=$p/$(printf 'L%02d' "$i")
        mkdir -p "$p"
        case $i in 1|15|30|45|60) echo "$2 file at depth $i" > "$p/$(printf 'F%02d' "$i")" ;; esac
    done
}
deep_tree "$M/deep" ours
deep_tree "$M/kdeep" kernel
must "put -r a tree 60 folders deep" kc "$IMG" put -r "$M/deep" /deep
ok "our fsck finds it clean" fsck_clean "$IMG"
ok "karmactl manifest" to "$W/ours.tsv" kc "$IMG" manifest
ok "$(grep -c . "$W/ours.tsv") entries: 60 folders and 5 files, plus /deep" \
    equal entries "$(grep -c . "$W/ours.tsv")" 66

must "the kernel makes its own 60-level tree (and lists both)" \
    oracle exec "$IMG" exec "$INTEROP_DIR/jobs/kernel-deep.sh" --list-after -o "$AFTER"
kernel_manifest exec > "$W/kernel.tsv"
"${UTIL[@]}" manifest "$M" "$SBS" > "$W/mirror.tsv"
ok "the kernel read every file" no_read_errors exec
ok "the kernel's listing equals the mirror (ours and its tree)" \
    same_manifest "$W/mirror.tsv" "$W/kernel.tsv"
ok "kernel log clean" dmesg_clean exec

ok "our fsck finds the kernel's tree clean" fsck_clean "$AFTER"
ok "karmactl manifest" to "$W/ours2.tsv" kc "$AFTER" manifest
ok "our manifest equals the kernel's" same_manifest "$W/ours2.tsv" "$W/kernel.tsv"
mkdir "$W/got"
ok "get -r the kernel's tree" kc "$AFTER" get -r /kdeep "$W/got/kdeep"
"${UTIL[@]}" manifest "$W/got" "$SBS" > "$W/got.tsv"
grep '^/kdeep' "$W/mirror.tsv" > "$W/mirror-kdeep.tsv"
ok "what get -r wrote is the kernel's tree" same_manifest "$W/got.tsv" "$W/mirror-kdeep.tsv"
kfree=$(kernel_bfree exec)
ok "statfs free: kernel $kfree, bitmap" equal "free blocks" "$kfree" "$("${UTIL[@]}" free "$AFTER")"

ok "rm -r our tree" kc "$AFTER" rm -r /deep
ok "rm -r the kernel's tree" kc "$AFTER" rm -r /kdeep
ok "our fsck: clean after the rm -r" fsck_clean "$AFTER"
must "the kernel lists the emptied volume" oracle list "$AFTER" list
ok "the kernel sees both trees gone" eval "[ -z \"\$(kernel_manifest list)\" ]"
kernel_manifest list | head -n 5 | diag
ok "kernel log clean" dmesg_clean list
ok "every block is free again (kernel statfs, as after mkfs)" \
    equal "free blocks" "$(kernel_bfree list)" "$FREE0"
ok "karmactl df agrees" df_agrees "$AFTER" "$FREE0"

done_testing
