#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kernel-copy-riocp.sh KARMACTL: THE KERNEL COPIES, RIOCP READS.
#
# `karmactl mkkarma --demo` makes a Karma disk whose music partition (at
# 16 MiB) holds a library written by our music library.  The Linux driver
# runs `cp -a fids0 var kcopy/` on that partition (jobs/kernel-copy.sh).
# Then:
#   - the kernel's copy has the same bytes as the original, its log is
#     clean, and our fsck and manifest agree with it;
#   - `karmactl get -r /kcopy` brings the copy to the host, where libkarma's
#     riocp (Debian karma-tools) reads it as a music partition: from
#     var/smalldb it lists the same objects with the same properties as
#     `karmactl tracks --json`, from the properties files (-b) the same as
#     `tracks --json --scan`, and the audio it downloads (-d) is the bytes
#     the library wrote.
# mkkarma has its own geometry: mkfs options are ignored (meson runs it once).
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# before interop_init, which makes the work folder
command -v riocp > /dev/null || skip_all "riocp missing (Debian karma-tools)"
interop_init "$@"

IMG=$W/karma.img
AFTER=$W/karma.after.img
MUSIC=$((16 << 20))
TRACKS=30

must "mkkarma with $TRACKS demo tracks" kc "$IMG" mkkarma "$IMG" --demo $TRACKS
must "tracks --json" to "$W/tracks.json" kc "$IMG" tracks --json
must "tracks --json --scan" to "$W/tracks-scan.json" kc "$IMG" tracks --json --scan
ok "karmactl manifest of the library" to "$W/orig.tsv" kc "$IMG" --offset "$MUSIC" manifest

must "the kernel runs cp -a fids0 var kcopy/" \
    oracle exec "$IMG" exec "$INTEROP_DIR/jobs/kernel-copy.sh" \
    --offset "$MUSIC" --list-after -o "$AFTER"
section exec script | diag
ok "kernel log clean after its copy" dmesg_clean exec
ok "the kernel re-read every file" no_read_errors exec
kernel_manifest exec > "$W/kernel.tsv"

# the copy, as the kernel reads it, is the original with /kcopy in front
{ cat "$W/orig.tsv"; printf '/kcopy\td\t2048\t-\n'; sed 's|^/|/kcopy/|' "$W/orig.tsv"; } |
    sort > "$W/expected.tsv"
ok "the kernel's copy has the original's bytes" same_manifest "$W/expected.tsv" "$W/kernel.tsv"
ok "our fsck finds the kernel's copy clean" kc "$AFTER" --offset "$MUSIC" fsck
ok "karmactl manifest after the copy" to "$W/ours.tsv" kc "$AFTER" --offset "$MUSIC" manifest
ok "our manifest equals the kernel's" same_manifest "$W/ours.tsv" "$W/kernel.tsv"
kfree=$(kernel_bfree exec)
bfree=$("${UTIL[@]}" free "$AFTER" "$MUSIC")
ok "statfs free: kernel $kfree, bitmap $bfree" equal "free blocks" "$kfree" "$bfree"

DIR=$W/kcopy
must "karmactl get -r /kcopy" kc "$AFTER" --offset "$MUSIC" get -r /kcopy "$DIR"

# riocp_view NAME ARGS...: riocp on DIR with a fresh HOME, nothing written
# back (-w); what it loaded is in $W/NAME/.openrio/pearl-0/fileinfo
riocp_view() {
    local name=$1 out
    shift
    mkdir -p "$W/$name"
    out=$(cd "$W/$name" && HOME=$W/$name riocp -a "$DIR" -w "$@" 2>&1) ||
        { echo "$out"; return 1; }
    echo "$out"
    ! grep -q 'Could not read smalldb' <<< "$out"
}
ok "riocp loads the copy's smalldb" riocp_view home-db -s fid=
ok "riocp (smalldb) lists our tracks with our properties" \
    "${UTIL[@]}" riocp-compare "$W/tracks.json" "$W/home-db/.openrio/pearl-0/fileinfo"
ok "riocp -b reads the copy's properties files" riocp_view home-scan -s fid= -b
ok "riocp (properties files) lists every property we keep" \
    "${UTIL[@]}" riocp-compare "$W/tracks-scan.json" "$W/home-scan/.openrio/pearl-0/fileinfo"

# riocp downloads each tune as FID.CODEC: it must be the library's data file
# fids0/_XXXXX/YYY of the original (fid = 0xXXXXXYYY, docs/KARMA.md §6.2)
downloads_match() {
    local fid codec rel n=0 want got
    while IFS=$'\t' read -r fid codec; do
        rel=$(printf '/fids0/_%05x/%03x' $((fid >> 12)) $((fid & 0xfff)))
        want=$(awk -F'\t' -v p="$rel" '$1 == p { print $4 }' "$W/orig.tsv")
        got=$(sha256sum < "$W/home-dl/$fid.$codec" | cut -d' ' -f1) || return 1
        equal "riocp's $fid.$codec against $rel" "$got" "$want" || return 1
        n=$((n + 1))
    done < <(python3 -c 'import json, sys
for o in json.load(open(sys.argv[1])):
    if o.get("type") == "tune": print("%d\t%s" % (o["fid"], o["codec"]))' "$W/tracks.json")
    echo "$n downloads checked"
    equal "downloads" "$n" "$TRACKS"
}
ok "riocp -d downloads the copied tunes" riocp_view home-dl -s type=tune -d
ok "every tune riocp downloaded is the library's bytes" downloads_match

done_testing
