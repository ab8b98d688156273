#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# mkomfs-layout.sh KARMACTL --blocksize N: a volume laid out exactly as
# omfsprogs' mkomfs lays it out, quirks included (`oracle/mkomfs-min.py
# --mkomfs`: the root block left unsealed, r_mirrors byte-swapped, the
# bitmap's tail bits 0). The kernel mounts such volumes and omfsck calls
# them clean, so:
#   - our fsck calls it clean (exit 0), with the quirks as notes;
#   - we fill it (folders, files of several sizes, a rename, a delete) and
#     fsck stays clean;
#   - the kernel (when available) reads every file exactly as we do;
#   - fsck --repair normalises the notes (exit 1), then fsck finds nothing
#     at all, and the kernel still reads the same tree.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
INTEROP_ORACLE_OPTIONAL=1
interop_init "$@"

IMG=$W/mkomfs.img
must "mkomfs-min.py --mkomfs formats a volume" \
    to "$W/mkfs.txt" python3 "$ORACLE_DIR/mkomfs-min.py" "$IMG" --size 24M \
    ${GEOMETRY[@]+"${GEOMETRY[@]}"} --mkomfs
diag < "$W/mkfs.txt"
ok "r_mirrors is mkomfs's byte-swapped 2" \
    bash -c "'$KARMACTL' -i '$IMG' info | grep -qx 'r_mirrors *33554432'"
ok "its root block is not sealed" \
    bash -c "'$KARMACTL' -i '$IMG' info | grep -qx 'root_checksum_ok *no'"

# fsck_notes IMAGE: clean (exit 0), and the notes are mkomfs's quirks
fsck_notes() {
    kc "$1" fsck > "$W/fsck.txt"
    local rc=$?
    cat "$W/fsck.txt"
    [ $rc = 0 ] && grep -q '^note: .*as mkomfs writes it' "$W/fsck.txt" &&
        grep -q '^note: .*not sealed' "$W/fsck.txt" && ! grep -q '^error' "$W/fsck.txt"
}
ok "our fsck calls it clean, the quirks as notes" fsck_notes "$IMG"

gen "$W/a.bin" 3000000 1
gen "$W/b.bin" 70000 2
gen "$W/c.bin" 1 3
ok "mkdir /music/album" kc "$IMG" mkdir -p /music/album
ok "put a 3 MB file" kc "$IMG" put "$W/a.bin" /music/album/T01
ok "put a 70 kB file" kc "$IMG" put "$W/b.bin" /music/album/T02
ok "put a 1-byte file" kc "$IMG" put "$W/c.bin" /c.bin
ok "put a file to delete" kc "$IMG" put "$W/b.bin" /gone.bin
ok "mv" kc "$IMG" mv /music/album/T02 /music/T02
ok "rm" kc "$IMG" rm /gone.bin
ok "fsck still clean after our writes" fsck_notes "$IMG"
ok "karmactl manifest" to "$W/ours.tsv" kc "$IMG" manifest
ok "manifest: T01 with its bytes" grep -qF "$(sha256sum < "$W/a.bin" | cut -d' ' -f1)" "$W/ours.tsv"

kernel_reads() {    # NAME: the kernel's listing equals ours
    oracle "$1" "$IMG" list || return 1
    kernel_manifest "$1" > "$W/$1.tsv"
    same_manifest "$W/ours.tsv" "$W/$1.tsv" && dmesg_clean "$1" && no_read_errors "$1" &&
        equal "free blocks" "$(kernel_bfree "$1")" "$("${UTIL[@]}" free "$IMG")"
}
if why=$(oracle_missing); then
    skip_check "the kernel reads what we wrote on mkomfs's volume" "$why"
else
    ok "the kernel reads what we wrote on mkomfs's volume" kernel_reads list
fi

kc "$IMG" fsck --repair > "$W/repair.txt"
rc=$?
diag < "$W/repair.txt"
ok "fsck --repair normalises the notes (exit 1)" equal "exit status" "$rc" 1
ok "...and says what it rewrote" grep -q '^fixed: root block 1' "$W/repair.txt"
kc "$IMG" fsck > "$W/after.txt"
rc=$?
diag < "$W/after.txt"
ok "then fsck finds nothing, not even a note" \
    bash -c "[ $rc = 0 ] && ! grep -Eq '^(note|error|leak)' '$W/after.txt'"
ok "r_mirrors is 2 now" bash -c "'$KARMACTL' -i '$IMG' info | grep -qx 'r_mirrors *2'"
if why=$(oracle_missing); then
    skip_check "the kernel reads the normalised volume" "$why"
else
    ok "the kernel reads the normalised volume" kernel_reads normalised
fi

done_testing
