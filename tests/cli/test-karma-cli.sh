#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# karmactl's Karma-level commands end to end (mkkarma, tracks, verify,
# rebuild-db), on fresh whole-disk images.  Speaks TAP.
#   bash tests/cli/test-karma-cli.sh PATH/TO/karmactl
set -u

. "$(dirname "${BASH_SOURCE[0]}")/tap.sh" "$@"
export LC_ALL=C.UTF-8

# The music partition as a bare OMFS volume: mkkarma puts it at 16 MiB.
km() { "$KARMACTL" -i "$IMG" --offset 16M "$@"; }

# json PYTHON-EXPRESSION: evaluates it with d = the JSON read from stdin.
json() { python3 -c 'import json, sys; d = json.load(sys.stdin); print('"$1"')'; }

# ---- mkkarma: an empty disk ----

IMG=$W/empty.img
check "mkkarma with the defaults" k mkkarma "$IMG"
same "the image is 256 MiB" 268435456 "$(stat -c %s "$IMG")"
check "the image is sparse" test "$(stat -c %b "$IMG")" -lt 65536
same "sector 0 holds the label magic 0xAB56" "56ab" "$(od -An -tx1 -j 510 -N 2 "$IMG" | tr -d ' \n')"
check "the system partition is an OMFS volume" k -i "$IMG" --offset 512 fsck
check "the music partition is an OMFS volume" km fsck
same "the music partition holds fids0/ and var/" "$(printf 'fids0\nvar')" "$(km ls / | tr -d /)"
check "var/smalldb is there" km ls /var/smalldb
same "tracks --json of an empty disk is an empty array" 0 "$(kv tracks --json | json 'len(d)')"
same "tracks of an empty disk prints nothing" "" "$(kv tracks)"
status 0 "verify of an empty disk exits 0" kv verify
same "tracks --partition 2 finds the library" 0 "$(kv tracks --json --partition 2 | json 'len(d)')"
fails 1 "tracks --partition 1 (the system partition) fails" kv tracks --partition 1
fails 2 "tracks --partition 3 is a usage error" kv tracks --partition 3
check "mkkarma --size 48M" k mkkarma "$W/small.img" --size 48M
same "...makes 48 MiB" 50331648 "$(stat -c %s "$W/small.img")"
check "...which verifies clean" k -i "$W/small.img" verify
fails 2 "mkkarma with a disk too small is a usage error" k mkkarma "$W/x.img" --size 1M
fails 2 "mkkarma with a bad size is a usage error" k mkkarma "$W/x.img" --size 12Q
fails 2 "mkkarma with a bad --demo is a usage error" k mkkarma "$W/x.img" --demo many
fails 2 "mkkarma without an image is a usage error" k mkkarma
fails 1 "tracks of a missing image fails" k -i "$W/none.img" tracks
fails 2 "tracks without -i is a usage error" k tracks
k mkfs "$W/plain.img" --size 16M >/dev/null 2>&1
fails 1 "tracks of an OMFS volume without fids0/ and var/ fails" k -i "$W/plain.img" tracks
fails 8 "verify of an OMFS volume without fids0/ and var/ fails" k -i "$W/plain.img" verify

# ---- mkkarma --demo ----

IMG=$W/demo.img
check "mkkarma --demo 12" k mkkarma "$IMG" --size 64M --demo 12
kv tracks --json >tracks.json 2>"$ERR"
report "tracks --json" $?
same "...prints 12 objects" 12 "$(json 'len(d)' <tracks.json)"
same "...all tunes of codec wave" "tune wave" \
	"$(json '" ".join(sorted({o["type"] + " " + o["codec"] for o in d}))' <tracks.json)"
same "...with title, artist, source, genre, year, tracknr, duration, rid" True \
	"$(json 'all(all(k in o for k in ("title", "artist", "source", "genre", "year", "tracknr", "duration", "length", "samplerate", "bitrate", "rid", "ctime", "fid_generation")) for o in d)' <tracks.json)"
same "...fids are numbers, unique and ascending" True \
	"$(json 'all(isinstance(o["fid"], int) for o in d) and [o["fid"] for o in d] == sorted({o["fid"] for o in d})' <tracks.json)"
same "...numeric columns are numbers, year and strings are strings" True \
	"$(json 'all(isinstance(o[k], int) for o in d for k in ("duration", "length", "samplerate", "tracknr", "ctime")) and all(isinstance(o[k], str) for o in d for k in ("year", "title", "bitrate"))' <tracks.json)"
same "...durations of 2 to 4 seconds at 8 kHz" True \
	"$(json 'all(o["samplerate"] == 8000 and o["duration"] in (2000, 3000, 4000) for o in d)' <tracks.json)"
same "...varied artists, some with a leading \"The \"" True \
	"$(json 'len({o["artist"] for o in d}) >= 5 and sum(o["artist"].startswith("The ") for o in d) >= 2' <tracks.json)"
same "...varied albums, genres and years" True \
	"$(json 'len({o["source"] for o in d}) >= 5 and len({o["genre"] for o in d}) >= 5 and len({o["year"] for o in d}) >= 5' <tracks.json)"
same "...the non-ASCII artist comes through as UTF-8" 2 \
	"$(json 'sum(o["artist"] == "\u00c9lodie Fr\u00e9quence" for o in d)' <tracks.json)"
same "...a quote in a tag is escaped" True \
	"$(json 'any(o["source"] == "\"Live\" at Block 0" for o in d)' <tracks.json)"
same "...a backslash in a tag is escaped" True \
	"$(json 'any(o["source"] == "Fresh\\Buffers" for o in d)' <tracks.json)"
kv tracks --json --scan >scan.json 2>"$ERR"
report "tracks --json --scan reads every properties file" $?
same "...the same objects and tags as smalldb says" \
	"$(json '[(o["fid"], o["title"], o["artist"], o["source"], o["tracknr"]) for o in d]' <tracks.json)" \
	"$(json '[(o["fid"], o["title"], o["artist"], o["source"], o["tracknr"]) for o in d]' <scan.json)"
same "...and the zero-valued keys smalldb cannot tell from absent" True \
	"$(json 'all(o["offset"] == 0 and o["trailer"] == 0 for o in d)' <scan.json)"
same "plain tracks prints one block per object" 12 "$(kv tracks | grep -c '^fid=')"
check "...with key=value lines" grep -q "^artist=The Beatniks$" <(kv tracks)
same "tracks QUERY filters by artist, ignoring case" 2 \
	"$(kv tracks --json BEATNIKS | json 'sum(o["artist"] == "The Beatniks" for o in d) if len(d) == 2 else -1')"
same "tracks QUERY filters by genre" "Jazz Jazz" \
	"$(kv tracks --json jazz | json '" ".join(o["genre"] for o in d)')"
same "tracks QUERY filters by album (source)" 1 "$(kv tracks --json 'sparse files' | json 'len(d)')"
same "tracks QUERY filters by non-ASCII text, ignoring case" 2 "$(kv tracks --json 'ÉLODIE' | json 'len(d)')"
same "tracks QUERY matching nothing prints an empty array" 0 "$(kv tracks --json zzzz | json 'len(d)')"
same "the music partition read as a bare volume gives the same tracks" \
	"$(cat tracks.json)" "$(km tracks --json 2>"$ERR")"
status 0 "verify of the demo disk exits 0" kv verify
check "fsck of the music partition is clean" km fsck

# ---- verify and repair ----

fid=$(json 'd[1]["fid"]' <tracks.json)
fid2=$(json 'd[2]["fid"]' <tracks.json)
props=$(printf '/fids0/_%05x/%03x' $((fid >> 12)) $(((fid & 0xfff) + 1)))
data2=$(printf '/fids0/_%05x/%03x' $((fid2 >> 12)) $((fid2 & 0xfff)))
cp "$IMG" before.img
check "remove the properties file of fid $fid (OMFS level)" km rm "$props"
kv verify >verify.txt 2>"$ERR"
report "verify finds it: exit 4" $(($? != 4))
check "...and names the problem" grep -q "^missing-properties: .*$fid" verify.txt
status 4 "verify again without repair still finds it" kv verify
kv verify --repair >verify.txt 2>"$ERR"
report "verify --repair: exit 1" $(($? != 1))
check "...says it repaired it" grep -q "^missing-properties: .*(repaired)$" verify.txt
check "...the properties file is back" km ls "$props"
status 0 "verify after repair exits 0" kv verify
same "...and every track is there as before" "$(cat tracks.json)" "$(kv tracks --json)"

check "remove the data file of fid $fid2 (OMFS level)" km rm "$data2"
status 4 "verify finds properties without data: exit 4" kv verify
status 1 "verify --repair removes them: exit 1" kv verify --repair
status 0 "verify then exits 0" kv verify
same "11 tracks are left" 11 "$(kv tracks --json | json 'len(d)')"
same "...without fid $fid2" False "$(kv tracks --json | json "any(o['fid'] == $fid2 for o in d)")"
check "fsck of the music partition after the repairs is clean" km fsck

# ---- rebuild-db ----

IMG=$W/before.img
check "remove var/smalldb (OMFS level)" km rm /var/smalldb
status 4 "verify finds smalldb missing: exit 4" kv verify
check "rebuild-db" kv rebuild-db
status 0 "verify after rebuild-db exits 0" kv verify
same "...with the 12 tracks" "$(cat tracks.json)" "$(kv tracks --json)"
check "rebuild-db of a clean library" kv rebuild-db
fails 2 "rebuild-db with an argument is a usage error" kv rebuild-db extra

tap_done
