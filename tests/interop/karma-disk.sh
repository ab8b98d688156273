#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# karma-disk.sh KARMACTL: A KARMA DISK MADE AND FILLED BY THE LIBRARY.
#
# `karmactl mkkarma --demo` makes a whole Karma disk (the Karma partition
# label, a system partition at byte 512 and the music partition at 16 MiB)
# and adds generated tracks through the music library (fids0/, var/smalldb).
# The oracle parses MBR and GPT only, not the Karma label, so it mounts each
# partition at its byte offset.  On both partitions:
#   - our manifest equals the kernel's (every file reads identically);
#   - the kernel's log is clean;
#   - statfs free blocks agree (kernel, karmactl df, the bitmap).
# mkkarma has its own geometry: mkfs options given to this test are ignored
# (meson runs it once).
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
interop_init "$@"

IMG=$W/karma.img
TRACKS=40

must "mkkarma with $TRACKS demo tracks" kc "$IMG" mkkarma "$IMG" --demo $TRACKS
ok "the library verifies clean" kc "$IMG" verify
ok "tracks --json lists $TRACKS tunes" eval \
    "[ \"\$(kc '$IMG' tracks --json | grep -c '\"type\": \"tune\"')\" = $TRACKS ]"

# check_partition NAME OFFSET FILES: one partition (of FILES files) against the kernel
check_partition() {
    local name=$1 offset=$2 files=$3 kfree bfree
    ok "$name: our fsck finds it clean" kc "$IMG" --offset "$offset" fsck
    ok "$name: karmactl manifest" to "$W/$name-ours.tsv" kc "$IMG" --offset "$offset" manifest
    ok "$name: $files files" equal "files" \
        "$(awk -F'\t' '$2 == "f"' "$W/$name-ours.tsv" | wc -l)" "$files"
    must "$name: the kernel mounts the partition at byte $offset and lists it" \
        oracle "$name" "$IMG" list --offset "$offset"
    kernel_manifest "$name" > "$W/$name-kernel.tsv"
    ok "$name: the kernel read every file" no_read_errors "$name"
    ok "$name: our manifest equals the kernel's, byte for byte" \
        same_manifest "$W/$name-ours.tsv" "$W/$name-kernel.tsv"
    ok "$name: kernel log clean" dmesg_clean "$name"
    kfree=$(kernel_bfree "$name")
    bfree=$("${UTIL[@]}" free "$IMG" "$offset")
    ok "$name: statfs free: kernel $kfree, bitmap $bfree" equal "free blocks" "$kfree" "$bfree"
    ok "$name: karmactl df shows $kfree free blocks" df_agrees "$IMG" "$kfree" --offset "$offset"
}

# the music partition: every track (one data and one properties file each)
# and var/smalldb
check_partition music $((16 << 20)) $((2 * TRACKS + 1))
# the system partition: an empty volume (as mkkarma leaves it)
check_partition system 512 0

done_testing
