#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# karmactl's commands that change a Karma library, end to end: add,
# export, rm-track, tag, playlist, verify --data and dangling playlist
# entries, with real audio made here (lame, oggenc, flac, ffmpeg), and
# against riocp (karma-tools) both ways.  Speaks TAP.
#   bash tests/cli/test-karma-edit-cli.sh PATH/TO/karmactl
set -u

. "$(dirname "${BASH_SOURCE[0]}")/tap.sh" "$@"
export LC_ALL=C.UTF-8

# The music partition as a bare OMFS volume: mkkarma puts it at 16 MiB.
km() { "$KARMACTL" -i "$IMG" --offset 16M "$@"; }
json() { python3 -c 'import json, sys; d = json.load(sys.stdin); print('"$1"')'; }
ntracks() { kv tracks --json | json 'len(d)'; }
# fid_of TITLE: the fid of the object with that title.
fid_of() { kv tracks --json | json "[o['fid'] for o in d if o.get('title') == '$1'][0]"; }
have() { command -v "$1" >/dev/null; }

for tool in ffmpeg lame oggenc flac python3; do
	if ! have $tool; then
		echo "1..0 # SKIP $tool is not installed"
		exit 0
	fi
done

# ---- audio made here: 8 kHz mono, so that riocp takes the MP3 (MPEG-2.5) ----

tone() {	# tone FILE HZ SECONDS [RATE CHANNELS]
	ffmpeg -loglevel error -y -f lavfi -i "sine=frequency=$2:duration=$3" \
		-ar "${4:-8000}" -ac "${5:-1}" "$1"
}
mkdir audio more
tone tone.wav 440 2
tone tone2.wav 660 2
tone tone3.wav 880 1
lame --quiet -b 16 --tt "Mp3 Song" --ta "The Band" --tl "First Album" --tn 3 --ty 1999 \
	--tg Rock tone.wav audio/a.mp3
oggenc -Q -t "Ogg Song" -a "Ogg Band" -l "Second Album" -N 2 -G Jazz -d 2004 tone2.wav \
	-o audio/b.ogg 2>/dev/null
flac -s -f -T "TITLE=Flac Song" -T "ARTIST=Émile" -T "ALBUM=Third" -T TRACKNUMBER=7 \
	tone3.wav -o audio/c.flac 2>/dev/null
ffmpeg -loglevel error -y -i tone.wav -c:a mp2 unsupported.mp2
# the same bytes on every run: random ones could, rarely, hold MP3 frames
python3 -c "import random, sys; random.seed(7); sys.stdout.buffer.write(random.randbytes(5000))" >noise.bin
echo "not music" >notes.txt
lame --quiet -b 16 --tt "Folder One" --ta "Dir Band" tone2.wav more/one.mp3 2>/dev/null
oggenc -Q -t "Folder Two" -a "Dir Band" tone3.wav -o more/two.ogg 2>/dev/null
cp notes.txt more/readme.txt

# ---- add ----

IMG=$W/lib.img
k mkkarma "$IMG" --size 64M >/dev/null
KARMACTL_STATS=1 kv add audio/a.mp3 audio/b.ogg audio/c.flac >add.out 2>"$ERR"
report "add three files (mp3, ogg, flac)" $?
same "...says each was added" 3 "$(grep -c '^added fid ' add.out)"
same "...rewrites smalldb once" 1 "$(grep -o 'smalldb_writes=[0-9]*' "$ERR" | cut -d= -f2)"
kv tracks --json >tracks.json
same "tracks lists the three" 3 "$(json 'len(d)' <tracks.json)"
same "...with their codecs" "flac mp3 vorbis" "$(json '" ".join(sorted(o["codec"] for o in d))' <tracks.json)"
same "...their tags" "The Band/First Album/Mp3 Song/3/1999/Rock" \
	"$(json '["/".join(str(o[k]) for k in ("artist", "source", "title", "tracknr", "year", "genre")) for o in d if o["codec"] == "mp3"][0]' <tracks.json)"
same "...non-ASCII tags" "Émile" "$(json '[o["artist"] for o in d if o["codec"] == "flac"][0]' <tracks.json)"
same "...lengths of the files" "$(stat -c %s audio/a.mp3)" \
	"$(json '[o["length"] for o in d if o["codec"] == "mp3"][0]' <tracks.json)"
status 0 "verify --data after add exits 0" kv verify --data

kv add audio/a.mp3 audio/b.ogg >dup.out 2>"$ERR"
report "add of duplicates exits 0" $?
same "...skips both, saying so" 2 "$(grep -c '^skipped .*the same track as fid' dup.out)"
same "...adds nothing" 3 "$(ntracks)"
check "add --force-duplicates adds it anyway" kv add --force-duplicates audio/a.mp3
same "...a fourth track" 4 "$(ntracks)"
fails 1 "add --no-convert of a format the player cannot play (MP2) fails, saying why" \
	kv add --no-convert unsupported.mp2
cp "$ERR" last.err
check "...the message names the file" grep -q "unsupported.mp2" last.err
fails 1 "add of a file that is no audio fails" kv add noise.bin
fails 1 "add of a missing file fails" kv add nothing.mp3
fails 1 "add of a folder without -r fails" kv add more
same "...nothing was added" 4 "$(ntracks)"
kv add -r more >dir.out 2>"$ERR"
report "add -r of a folder with a text file in it exits 0" $?
cp "$ERR" last.err
same "...adds its two tunes" 2 "$(grep -c '^added fid ' dir.out)"
check "...and says why the text file is not added" grep -q "readme.txt" last.err
check "add --taxi keeps a file that is no audio as data" kv add --taxi noise.bin
same "...as a taxi object" "taxi" "$(kv tracks --json | json '[o["type"] for o in d if o.get("title") == "noise.bin"][0]')"
kv add --progress --force-duplicates audio/c.flac >/dev/null 2>progress.err
report "add --progress" $?
check "...prints the progress line" grep -q '^\[1/1\] audio/c.flac: .* of .*/s' progress.err
# A duplicate skipped is a file done too: the count and the bytes reach the end.
kv add --progress audio/a.mp3 audio/c.flac >/dev/null 2>progress.err
report "add --progress of duplicates" $?
check "...counts the skipped files" grep -q '^\[2/2\] audio/c.flac: ' progress.err
check "...and their bytes: all done at the last line" \
	grep -Eq '^\[2/2\] audio/c.flac: ([0-9.]+ [KM]iB) of \1, ' progress.err
status 0 "verify after the adds exits 0" kv verify

# Ctrl-C after the first file (the test hook raises SIGINT there).
before=$(ntracks)
cp audio/a.mp3 x1.mp3; cp audio/b.ogg x2.ogg
KARMACTL_TEST_SIGINT_AFTER=1 kv add --force-duplicates x1.mp3 x2.ogg >int.out 2>"$ERR"
same "add interrupted by SIGINT exits 130" 130 $?
check "...says the tracks added so far are committed" grep -q "interrupted" int.out
same "...one track more" $((before + 1)) "$(ntracks)"
status 0 "...and the library verifies clean" kv verify
check "...fsck of the music partition is clean" km fsck

# A full player: the second file cannot fit; the first is committed.
IMG=$W/tiny.img
k mkkarma "$IMG" --size 32M >/dev/null
tone big.wav 440 150 44100 2
kv add audio/b.ogg big.wav >full.out 2>full.err
same "add to a full player exits 1" 1 $?
check "...says the player is full" grep -q "big.wav: the player is full" full.err
same "...the file that fitted is added" "Ogg Song" "$(kv tracks --json | json '" ".join(o["title"] for o in d)')"
status 0 "...the library verifies clean" kv verify
check "...fsck of the music partition is clean" km fsck

# The room check is the library's, as the app's add job's (tests/session/
# test-session.c, add-room-as-cli): on a nearly full player a file half a MiB
# smaller than the free space is refused, one 3 MiB smaller goes in.
IMG=$W/room.img
k mkkarma "$IMG" --size 32M >/dev/null
free=$(km df | awk '/^free bytes:/ { print $3 }')
wav() {	# wav FILE SIZE: a PCM WAV of about SIZE bytes (as the session test's)
	python3 -c 'import struct, sys
n = (int(sys.argv[2]) - 44) & ~3
open(sys.argv[1], "wb").write(b"RIFF" + struct.pack("<I", 36 + n) + b"WAVEfmt " +
    struct.pack("<IHHIIHH", 16, 1, 2, 44100, 44100 * 4, 4, 16) + b"data" +
    struct.pack("<I", n) + bytes(n))' "$1" "$2"
}
wav too-big.wav $((free - 512 * 1024))
wav fits.wav $((free - 3 * 1024 * 1024))
kv add too-big.wav >room.out 2>room.err
same "add of a file half a MiB under the free space exits 1" 1 $?
check "...says the player is full" grep -q "too-big.wav: the player is full" room.err
same "...nothing was written" "$free" "$(km df | awk '/^free bytes:/ { print $3 }')"
check "add of a file 3 MiB under the free space" kv add fits.wav
same "...adds it" 1 "$(ntracks)"
status 0 "...the library verifies clean" kv verify

# ---- tag ----

IMG=$W/lib.img
mp3=$(fid_of "Mp3 Song")
check "tag sets properties" kv tag "$mp3" "title=Renamed" "genre=Pop"
same "...tracks shows them" "Renamed Pop" "$(kv tracks --json | json "[o['title'] + ' ' + o['genre'] for o in d if o['fid'] == $mp3][0]")"
check "tag KEY= removes a property" kv tag "$mp3" year=
same "...it is gone" False "$(kv tracks --json --scan | json "'year' in [o for o in d if o['fid'] == $mp3][0]")"
fails 1 "tag fid= is refused" kv tag "$mp3" fid=5
cp "$ERR" last.err
check "...saying why" grep -q "the fid is the file's name" last.err
fails 1 "tag type= is refused" kv tag "$mp3" type=taxi
fails 1 "tag of a binary property is refused" kv tag "$mp3" profile=x
fails 2 "tag without = is a usage error" kv tag "$mp3" title
fails 1 "tag of an unknown fid fails" kv tag 99999 title=x
fails 1 "a refused key changes nothing of the command" kv tag "$mp3" title=Never type=x
same "...the title is as before" "Renamed" "$(kv tracks --json | json "[o['title'] for o in d if o['fid'] == $mp3][0]")"
status 0 "verify after the edits exits 0" kv verify

# ---- playlist ----

ogg=$(fid_of "Ogg Song")
flac=$(fid_of "Flac Song")
check "playlist create" kv playlist create "Road Trip"
check "playlist add" kv playlist add "Road Trip" "$mp3" "$ogg" "$flac"
same "playlist list" "Road Trip (3 entries)" "$(kv playlist list | sed 's/^fid [0-9]*: //')"
same "playlist show resolves the entries" "0: fid $mp3: The Band - Renamed|1: fid $ogg: Ogg Band - Ogg Song|2: fid $flac: Émile - Flac Song" \
	"$(kv playlist show "Road Trip" | paste -sd'|')"
check "playlist move 0 2" kv playlist move "Road Trip" 0 2
same "...reorders" "$ogg $flac $mp3" "$(kv playlist show "Road Trip" | awk '{ print $3 }' | tr -d : | paste -sd' ')"
check "playlist remove 1" kv playlist remove "Road Trip" 1
same "...drops that entry" "$ogg $mp3" "$(kv playlist show "Road Trip" | awk '{ print $3 }' | tr -d : | paste -sd' ')"
check "playlist rename" kv playlist rename "Road Trip" "Trip"
pl=$(kv playlist list | awk -F'[ :]' '{ print $2 }')
check "playlist show by fid" kv playlist show "$pl"
fails 1 "playlist add of an unknown fid fails" kv playlist add Trip 99999
fails 1 "playlist show of an unknown name fails" kv playlist show Nowhere
fails 2 "playlist with an unknown subcommand is a usage error" kv playlist frob
same "playlist --help lists the subcommands" 8 \
	"$(k playlist --help | grep -cE '^  (list|show|create|rename|delete|add|remove|move)( |$)')"
fails 2 "playlist move without TO is a usage error" kv playlist move Trip 0
fails 1 "playlist remove of an index past the end fails" kv playlist remove Trip 5

# ---- rm-track ----

kv rm-track "$mp3" >rm.out 2>"$ERR"
report "rm-track" $?
same "...the track is gone" False "$(kv tracks --json | json "any(o['fid'] == $mp3 for o in d)")"
same "...and left the playlist" "$ogg" "$(kv playlist show Trip | awk '{ print $3 }' | tr -d : | paste -sd' ')"
check "...its files are gone" test -z "$(km ls /fids0/_00000 | grep -ix "$(printf '%03x' $((mp3 & 0xfff)))")"
fails 1 "rm-track of an unknown fid fails" kv rm-track 99999
fails 2 "rm-track of something that is no fid is a usage error" kv rm-track abc
status 0 "verify after rm-track exits 0" kv verify

# ---- dangling playlist entries (a track removed at the OMFS level) ----

data=$(printf '/fids0/_%05x/%03x' $((ogg >> 12)) $((ogg & 0xfff)))
props=$(printf '/fids0/_%05x/%03x' $((ogg >> 12)) $(((ogg & 0xfff) + 1)))
km rm "$data" && km rm "$props"
# smalldb forgets the track; rebuilding it leaves playlists as they are
check "rebuild-db after removing a track's files at the OMFS level" kv rebuild-db
check "playlist show marks a dangling entry" grep -q "dangling" <(kv playlist show Trip)
kv verify >verify.out
same "verify finds the dangling entry: exit 4" 4 $?
check "...and names it" grep -q "^dangling-entry: fid $pl: playlist 'Trip', entry 0" verify.out
status 1 "verify --repair: exit 1" kv verify --repair
same "...the entry is gone" 0 "$(kv playlist show Trip | wc -l)"
status 0 "verify then exits 0" kv verify

# ---- export ----

rm -rf out
kv export --to out >export.out 2>"$ERR"
report "export of every track" $?
same "...one file per track (no playlist)" \
	"$(kv tracks --json | json 'sum(o["type"] != "playlist" for o in d)')" "$(find out -type f | wc -l)"
check "...named by the default template" test -f "out/Émile/Third/07 Flac Song.flac"
check "...with the track's bytes" cmp audio/c.flac "out/Émile/Third/07 Flac Song.flac"
check "export again never overwrites" kv export --to out "$flac"
check "...the second copy is numbered" cmp audio/c.flac "out/Émile/Third/07 Flac Song (2).flac"
check "export --template" kv export --to out2 --template '%g/%t.%c' "$flac"
check "...names the file by it" test -f "out2/Unknown Genre/Flac Song.flac"
kv export --to out3 --query "dir band" --progress >/dev/null 2>progress.err
report "export --query --progress" $?
same "...exports the matching tracks" 2 "$(find out3 -type f | wc -l)"
same "...with a progress line per file" 2 "$(grep -c '^\[[12]/2\] .* of .*/s' progress.err)"
# A track that fails does not end the export (the library's pipeline, as the
# app's: tests/session/test-session-edit.c, export-goes-on).
mkdir out5
echo "in the way" >"out5/Émile"
emile=$(kv tracks --json | json 'sum(o.get("artist") == "Émile" for o in d)')
kv export --to out5 >export5.out 2>export5.err
same "export with the folder of Émile's tracks in the way exits 1" 1 $?
check "...says which track failed" grep -q "fid $flac" export5.err
same "...and exports every other track" \
	"$(kv tracks --json | json 'sum(o["type"] != "playlist" for o in d) - '"$emile")" \
	"$(find out5 -type f -not -name Émile | wc -l)"
check "...saying how many failed" grep -q "exported to out5 ($emile failed)" export5.out
fails 1 "export of an unknown fid fails" kv export --to out4 99999
fails 2 "export with a bad template is a usage error" kv export --to out4 --template '%q'
fails 2 "export without --to is a usage error" kv export

# ---- riocp: it reads what we added, and we read what it added ----

if ! have riocp; then
	echo "# riocp (karma-tools) is not installed: interop skipped"
	tap_done
	exit $?
fi

. "$TAP_DIR/riocp-lib.sh"

IMG=$W/interop.img
k mkkarma "$IMG" --size 64M >/dev/null
check "add for riocp" kv add audio/a.mp3 audio/b.ogg audio/c.flac
mkdir -p ours/music
check "copy fids0/ out with get -r" km get -r /fids0 ours/music/fids0
check "copy var/ out with get -r" km get -r /var ours/music/var
mkdir home1
kv tracks --json >ours.json
riocp_view "$W/ours/music" "$W/home1" >theirs.json 2>"$ERR"
report "riocp reads the library we wrote" $?
same "...the same tracks with the same properties" 3 "$(agree ours.json theirs.json 2>&1)"

mkdir -p rio/music/fids0 rio/music/var home2 home3
(cd audio && HOME=$W/home2 riocp -a "$W/rio/music" a.mp3 b.ogg c.flac >/dev/null 2>&1)
report "riocp adds three files to a directory" $?
IMG=$W/rio.img
k mkkarma "$IMG" --size 64M >/dev/null
check "put -r riocp's fids0/ into an image" km put -r rio/music/fids0/_00000 /fids0
check "put riocp's var/smalldb" km put rio/music/var/smalldb /var/smalldb
status 0 "verify of riocp's library exits 0" kv verify --data
kv tracks --json >ours2.json
riocp_view "$W/rio/music" "$W/home3" >theirs2.json
same "tracks and riocp agree on riocp's library (its 3 tunes and its fdb file)" 4 \
	"$(agree ours2.json theirs2.json 2>&1)"
check "our add to riocp's library" kv add tone.wav
status 0 "...verifies clean" kv verify

tap_done
