#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Playlists out as files: karmactl export --playlist copies a playlist's
# tracks out (each once) and writes NAME.m3u8 beside them, in the
# playlist's order, with paths relative to the folder that resolve.
# Speaks TAP.
#   bash tests/cli/test-playlist-files-cli.sh PATH/TO/karmactl
set -u

. "$(dirname "${BASH_SOURCE[0]}")/tap.sh" "$@"
export LC_ALL=C.UTF-8

IMG=$W/e.img
k mkkarma "$IMG" --size 64M --demo 4 >/dev/null
json() { python3 -c 'import json, sys; d = json.load(sys.stdin); print('"$1"')'; }
prop() { kv tracks --json | json "[o.get('$2') for o in d if o['fid'] == $1][0]"; }
# entries LIST: the paths of an m3u8, one per line.
entries() { grep -v '^#' "$1"; }

A=272 B=288 C=304
check "a playlist with a '/' and accents in its name" kv playlist create "Été/Road"
check "...of three tracks, one of them twice" kv playlist add "Été/Road" $B $A $B $C

kv export --to out --playlist "Été/Road" >out.txt 2>"$ERR"
report "export --playlist exits 0" $?
same "...copies each track once" 3 "$(grep -c '^fid ' out.txt)"
same "...writes the list, its name made safe" "playlist -> out/Été_Road.m3u8" \
	"$(grep '^playlist' out.txt)"
LIST=out/Été_Road.m3u8
same "...which starts with #EXTM3U" "#EXTM3U" "$(head -n 1 "$LIST")"
same "...lists every entry, in order" 4 "$(entries "$LIST" | wc -l)"
same "...the twice-listed track at both places" "$(entries "$LIST" | sed -n 1p)" \
	"$(entries "$LIST" | sed -n 3p)"
resolving=0
while IFS= read -r path; do
	[ -f "out/$path" ] && resolving=$((resolving + 1))
done < <(entries "$LIST")
same "...every path resolves from the list's folder" 4 "$resolving"
same "...to the track's bytes" "$(prop $A length)" \
	"$(stat -c %s "out/$(entries "$LIST" | sed -n 2p)")"
same "...each with #EXTINF: seconds, artist - title" \
	"#EXTINF:$((($(prop $A duration) + 500) / 1000)),$(prop $A artist) - $(prop $A title)" \
	"$(grep '^#EXTINF' "$LIST" | sed -n 2p)"
check "...in UTF-8" iconv -f UTF-8 -t UTF-8 "$LIST" -o /dev/null

cp "$LIST" first.m3u8
kv export --to out --playlist "Été/Road" >out2.txt 2>"$ERR"
report "a second export into the same folder exits 0" $?
same "...overwrites nothing: a new list" "playlist -> out/Été_Road (2).m3u8" \
	"$(grep '^playlist' out2.txt)"
same "...the first list is as it was" "$(cat first.m3u8)" "$(cat "$LIST")"
same "...the new one names the new copies" 4 \
	"$(entries "out/Été_Road (2).m3u8" | grep -c ' (2)\.')"

PL=$(kv playlist list | awk -F: '/Été/ { print $1 }' | grep -o '[0-9]*' | head -n 1)
check "the playlist by its fid ($PL)" kv export --to byfid --playlist "$PL"
check "...gives the same list" test -s byfid/Été_Road.m3u8

check "a track of the playlist is removed (rm-track drops its entries)" kv rm-track $A
check "another's fid now holds a later object (its fid_generation changed)" \
	kv tag $C fid_generation=4000000000
kv export --to out3 --playlist "Été/Road" >out3.txt 2>"$ERR"
report "export --playlist then exits 0" $?
same "...lists the entries left whose track is still theirs" 2 \
	"$(entries out3/Été_Road.m3u8 | wc -l)"
same "...and says one entry was left out" "1 playlist entry left out: its track is gone" \
	"$(tail -n 1 out3.txt)"

fails 2 "--playlist and FIDs together are refused" kv export --to x --playlist "Été/Road" $B
fails 1 "an unknown playlist is refused" kv export --to x --playlist nothing
check "...and nothing is made" test ! -e x

tap_done
