#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# independent-mkfs.sh KARMACTL [--blocksize N] [--clustersize N]:
# volumes made by another implementation, oracle/mkomfs-min.py (the
# omfsprogs layout, written in Python from the format description).
#
# Its --fragmented-file puts a 1 MiB file in one-block extents over the
# inode's table and a continuation table: something the kernel never writes
# and cannot read back (its find_block restarts the offset per table), so
# this is the only independent writer of continuation tables we have.
#   - our fsck finds the volume clean;
#   - we read the fragmented file's exact bytes (offsets accumulate across
#     tables), and shrink it across the table boundary;
#   - we add files, delete the fragmented file (freeing its continuation
#     block) and fsck stays clean;
#   - when the oracle is available, the kernel reads the result exactly;
#   - once everything is deleted, every block is free again.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
INTEROP_ORACLE_OPTIONAL=1
interop_init "$@"

IMG=$W/min.img
FRAG_SIZE=1048576
must "mkomfs-min.py formats a volume with a fragmented file" \
    to "$W/mkfs.txt" python3 "$ORACLE_DIR/mkomfs-min.py" "$IMG" --size 32M \
    ${GEOMETRY[@]+"${GEOMETRY[@]}"} --fragmented-file frag.bin:$FRAG_SIZE --seed 1
diag < "$W/mkfs.txt"
# mkomfs-min's content: random.Random(seed).randbytes(size), as util.py gen
gen "$W/frag.ref" $FRAG_SIZE 1
ref_sha=$(sha256sum < "$W/frag.ref" | cut -d' ' -f1)
ok "util.py gen reproduces mkomfs-min's content" grep -q "sha256=$ref_sha" "$W/mkfs.txt"
tables=$(sed -n 's/.* extent_tables=\([0-9]*\) .*/\1/p' "$W/mkfs.txt")
ok "the file spans a continuation table ($tables tables)" [ "${tables:-0}" -ge 2 ]

ok "our fsck finds mkomfs-min's volume clean" fsck_clean "$IMG"
ok "karmactl manifest" to "$W/ours.tsv" kc "$IMG" manifest
ok "manifest: /frag.bin with its exact bytes" \
    grep -qxF "$(printf '/frag.bin\tf\t%d\t%s' $FRAG_SIZE "$ref_sha")" "$W/ours.tsv"
ok "get /frag.bin" kc "$IMG" get /frag.bin "$W/frag.got"
ok "get: the same bytes" cmp "$W/frag.got" "$W/frag.ref"

# shrink to a size inside the first table, then grow again with zeros
first=$(( (2048 - 0x1D0 - 32) / 16 ))  # data extents in the inode's table
keep=$(( (first - 3) * $(od -An -tu4 --endian=big -j 276 -N 4 "$IMG" | tr -d ' ') + 123 ))
ok "truncate /frag.bin to $keep (frees the continuation table)" kc "$IMG" truncate /frag.bin $keep
ok "fsck clean after the shrink" fsck_clean "$IMG"
head -c $keep "$W/frag.ref" > "$W/frag.short"
ok "get after the shrink" kc "$IMG" get /frag.bin "$W/frag.got2"
ok "the first $keep bytes are intact" cmp "$W/frag.got2" "$W/frag.short"

gen "$W/a.bin" 777777 5
ok "put a file" kc "$IMG" put "$W/a.bin" /a.bin
ok "mkdir" kc "$IMG" mkdir /dir
ok "put a second copy" kc "$IMG" put "$W/a.bin" /dir/b.bin
ok "rm the fragmented file" kc "$IMG" rm /frag.bin
ok "fsck clean after our changes" fsck_clean "$IMG"
ok "karmactl manifest after our changes" to "$W/ours2.tsv" kc "$IMG" manifest
if why=$(oracle_missing); then
    skip_check "the kernel reads our changes" "$why"
else
    must "the kernel lists the volume" oracle list "$IMG" list
    kernel_manifest list > "$W/kernel.tsv"
    ok "our manifest equals the kernel's" same_manifest "$W/ours2.tsv" "$W/kernel.tsv"
    ok "kernel log clean" dmesg_clean list
    kfree=$(kernel_bfree list)
    ok "statfs free agrees with the bitmap" equal "free blocks" "$kfree" "$("${UTIL[@]}" free "$IMG")"
fi

# everything deleted: every block comes back (checked against a fresh
# volume of the same geometry made by mkomfs-min.py without the file)
ok "rm /a.bin" kc "$IMG" rm /a.bin
ok "rm -r /dir" kc "$IMG" rm -r /dir
python3 "$ORACLE_DIR/mkomfs-min.py" "$W/fresh.img" --size 32M ${GEOMETRY[@]+"${GEOMETRY[@]}"} > /dev/null
ok "all blocks free again (no leak)" \
    equal "free blocks" "$("${UTIL[@]}" free "$IMG")" "$("${UTIL[@]}" free "$W/fresh.img")"
ok "fsck clean on the emptied volume" fsck_clean "$IMG"

done_testing
