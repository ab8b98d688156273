#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# karmactl sync and playlist import, end to end with real MP3s (lame): a
# sync adds what the player lacks, a second does nothing, --dry-run changes
# no byte, --delete removes what the folders lack (and its playlist
# entries), an edited tag does not make a track new; an M3U8 list, and an
# XSPF one, becomes a playlist in its order, reusing what is there and
# listing what is missing;
# the cable pulled mid-sync or mid-import, or karmactl killed (kill -9) while
# it copies, loses nothing committed; riocp reads the result.  Speaks TAP.
#   bash tests/cli/test-sync-cli.sh PATH/TO/karmactl
set -u

. "$(dirname "${BASH_SOURCE[0]}")/tap.sh" "$@"
export LC_ALL=C.UTF-8

for tool in ffmpeg lame python3; do
	if ! command -v $tool >/dev/null; then
		echo "1..0 # SKIP $tool is not installed"
		exit 0
	fi
done

km() { "$KARMACTL" -i "$IMG" --offset 16M "$@"; }
json() { python3 -c 'import json, sys; d = json.load(sys.stdin); print('"$1"')'; }
titles() { kv tracks --json | json '"|".join(sorted(o["title"] for o in d if o.get("type") == "tune"))'; }
fid_of() { kv tracks --json | json "[o['fid'] for o in d if o.get('title') == '$1'][0]"; }
hash() { sha256sum "$IMG" | cut -d' ' -f1; }

# song FILE TITLE HZ: a one-second MP3 (8 kHz mono: riocp takes it).
song() {
	ffmpeg -loglevel error -y -f lavfi -i "sine=frequency=$3:duration=1" -ar 8000 -ac 1 tone.wav &&
	lame --quiet -b 16 --tt "$2" --ta "Sync Band" --tl "Sync Album" tone.wav "$1"
}
mkdir -p music/a music/b other
song music/a/one.mp3 One 300
song music/a/two.mp3 Two 400
song music/b/three.mp3 Three 500
song other/four.mp3 Four 600
cp music/a/one.mp3 music/b/one-again.mp3	# the same audio twice in the folders
echo "cover" >music/a/cover.txt

IMG=$W/sync.img
k mkkarma "$IMG" --size 64M >/dev/null
check "a track from elsewhere" kv add other/four.mp3

before=$(hash)
kv sync --dry-run music >plan.txt 2>"$ERR"
report "sync --dry-run exits 0" $?
same "...changes no byte of the disk" "$before" "$(hash)"
same "...lists each track to add once" "add: Sync Band - One
add: Sync Band - Three
add: Sync Band - Two" "$(grep '^add:' plan.txt | sed 's/ (.*//' | sort)"
check "...with the totals and the space after" \
	grep -Eq '^3 to add \(.*\), 0 to delete \(0 bytes\), 0 there already; about .* free after$' plan.txt
check "...counts the file that is no music" grep -q '^1 file is no music the player plays$' plan.txt
check "...and says what --delete would delete" \
	grep -q '^1 tracks on the player are under none of the folders' plan.txt

kv sync music >sync1.txt 2>"$ERR"
report "sync exits 0" $?
same "...adds the three tracks" "Four|One|Three|Two" "$(titles)"
check "verify is clean" kv verify

after_first=$(kv tracks --json)
kv sync music >sync2.txt 2>"$ERR"
report "a second sync of the unchanged folder exits 0" $?
same "...adds nothing" "nothing to add" "$(tail -n 1 sync2.txt)"
same "...and changes no track" "$after_first" "$(kv tracks --json)"

check "a title edited on the player" kv tag "$(fid_of Two)" title="Two (edited)"
kv sync --dry-run --delete music >plan2.txt 2>"$ERR"
report "sync --dry-run --delete exits 0" $?
same "...does not take the edited track for a new one" "" "$(grep '^add:' plan2.txt)"
same "...would delete only the track from elsewhere" "delete: Sync Band - Four" \
	"$(grep '^delete:' plan2.txt | sed 's/ (fid .*//')"

check "a playlist of Four and Three" kv playlist create Mix
check "..." kv playlist add Mix "$(fid_of Four)" "$(fid_of Three)"
kv sync --delete music >sync3.txt 2>"$ERR"
report "sync --delete exits 0" $?
same "...deletes the track the folders lack" "One|Three|Two (edited)" "$(titles)"
same "...and its playlist entry, as rm-track does" "0: fid $(fid_of Three): Sync Band - Three" \
	"$(kv playlist show Mix)"
check "verify is clean" kv verify

# ---- playlist import ----

mkdir -p lists
printf '#EXTM3U\n#EXTINF:1,Sync Band - Three\n../music/b/three.mp3\n../other/four.mp3\n' >lists/trip.m3u8
printf '../music/a/missing.mp3\nhttp://radio.example/stream\n../music/b/three.mp3\n' >>lists/trip.m3u8
kv playlist import lists/trip.m3u8 >import.txt 2>"$ERR"
status=$?
same "playlist import with missing entries exits 1" 1 "$status"
same "...lists what it skipped, by line" "skipped line 5: no such file: ../music/a/missing.mp3
skipped line 6: not a local file: http://radio.example/stream" "$(grep '^skipped line' import.txt)"
same "...adds the file the player lacked" 1 "$(grep -c '^added fid ' import.txt)"
same "...reuses the one there" 2 "$(grep -c '^on the player already as fid ' import.txt)"
same "...makes the playlist in the list's order, named after the file" \
	"0: fid $(fid_of Three): Sync Band - Three
1: fid $(fid_of Four): Sync Band - Four
2: fid $(fid_of Three): Sync Band - Three" "$(kv playlist show trip)"
fails 1 "a second import under the same name is refused" kv playlist import lists/trip.m3u8
status 1 "--name gives another (exit 1: entries were skipped)" \
	kv playlist import lists/trip.m3u8 --name "Trip 2"
same "...which reuses every track" "Four|One|Three|Two (edited)" "$(titles)"
fails 1 "an import of a file that is no list is refused" kv playlist import music/a/one.mp3

# an XSPF list: locations are URIs (percent-encoded, relative to the list's folder or file://)
song other/five.mp3 Five 700
five_uri=$(python3 -c 'import pathlib; print(pathlib.Path("other/five.mp3").resolve().as_uri())')
cat >lists/road.xspf <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<playlist version="1" xmlns="http://xspf.org/ns/0/">
  <title>Not the name</title><trackList>
    <track><location>$five_uri</location></track>
    <track><title>Three</title><location>../music/b/thr%65e.mp3</location></track>
    <track><location>../music/a/missing.mp3</location></track>
    <track><location>http://radio.example/stream</location></track>
    <track>
      <location>../other/four.mp3</location>
    </track>
  </trackList>
</playlist>
EOF
kv playlist import lists/road.xspf >import.txt 2>"$ERR"
same "XSPF import with missing entries exits 1" 1 "$?"
same "...lists what it skipped, by the line of its <track>" \
	"skipped line 6: no such file: ../music/a/missing.mp3
skipped line 7: not a local file: http://radio.example/stream" "$(grep '^skipped line' import.txt)"
same "...adds the file the player lacked" 1 "$(grep -c '^added fid ' import.txt)"
same "...reuses the ones there" 2 "$(grep -c '^on the player already as fid ' import.txt)"
same "...makes the playlist in the list's order, named after the file" \
	"0: fid $(fid_of Five): Sync Band - Five
1: fid $(fid_of Three): Sync Band - Three
2: fid $(fid_of Four): Sync Band - Four" "$(kv playlist show road)"
printf '<playlist xmlns="http://xspf.org/ns/0/">\n<trackList>\n<track></location>\n' >lists/bad.xspf
fails 1 "a malformed XSPF list is refused" kv playlist import lists/bad.xspf
cp "$ERR" bad.txt
check "...saying the line of the error" grep -q 'lists/bad.xspf: Error on line 3 char ' bad.txt
check "verify is clean" kv verify

# ---- the cable pulled during a sync and an import: nothing committed is lost ----

FRESH=$W/fresh.img
k mkkarma "$FRESH" --size 64M >/dev/null
for cut in 10 30 60; do
	IMG=$W/cut-$cut.img
	cp "$FRESH" "$IMG"
	KM_SIM_FAULTS=unplug-after-writes=$cut k --simulate -i "$IMG" sync music >/dev/null 2>&1
	kv sync music >/dev/null 2>"$ERR"
	report "sync cut after $cut writes, then run again: exits 0" $?
	same "...the player has every track once" "One|Three|Two" "$(titles)"
	check "...verify is clean" kv verify
	KM_SIM_FAULTS=unplug-after-writes=$cut k --simulate -i "$IMG" playlist import lists/trip.m3u8 \
		--name Cut >/dev/null 2>&1
	kv sync music >/dev/null 2>"$ERR"
	report "...after an import cut after $cut writes, a writable open works" $?
	# Four is there too when the import committed it before the cut
	same "...and every committed track is there" "One|Three|Two" \
		"$(titles | tr '|' '\n' | grep -vx Four | paste -sd '|')"
	# a file cut half-way was never committed: repair sets its data aside (lost+found)
	kv verify --repair >/dev/null 2>"$ERR"
	report "...verify --repair leaves nothing to repair" $(($? > 1))
	check "...and verify is clean" kv verify
done

# ---- kill -9 of karmactl during a sync and an import: nothing committed is lost ----

# kill_mid_copy DESCRIPTION ARGS...: karmactl ARGS on the simulated player at
# USB 2.0 pace, killed with SIGKILL once its progress shows the third file begun.
kill_mid_copy() {
	local desc=$1 pid
	shift
	KARMACTL_SIM_REAL_TIME=1 "$KARMACTL" --simulate -i "$IMG" "$@" >/dev/null 2>progress.txt &
	pid=$!
	for _ in $(seq 400); do	# 20 s at most
		grep -q '\[3/' progress.txt && break
		sleep 0.05
	done
	kill -9 $pid
	wait $pid
	report "$desc" $(($? != 137))
}
big_titles() { titles | tr '|' '\n' | grep -c '^Big '; }
mkdir -p big
for i in 1 2 3 4 5 6 7 8; do	# 5 MiB each: 0.2 s apiece over the simulated USB 2.0
	ffmpeg -loglevel error -y -f lavfi -i "sine=frequency=$((200 + 50 * i)):duration=30" \
		-ac 2 -metadata title="Big $i" -metadata artist="Sync Band" "big/$i.wav"
done
printf '%s\n' ../big/8.wav ../other/four.mp3 ../big/1.wav ../big/2.wav ../big/3.wav \
	../big/4.wav ../big/5.wav ../big/6.wav ../big/7.wav >lists/big.m3u8
for what in sync import; do
	IMG=$W/kill-$what.img
	k mkkarma "$IMG" --size 128M >/dev/null
	kv add other/four.mp3 >/dev/null 2>"$ERR"
	report "$what: a track committed before" $?
	if [ $what = sync ]; then
		kill_mid_copy "kill -9 of a sync while it copies" sync --progress big
	else
		kill_mid_copy "kill -9 of a playlist import while it copies" \
			playlist import --progress lists/big.m3u8
	fi
	same "...keeps the track committed before" "Four" "$(titles | tr '|' '\n' | grep -x Four)"
	same "...and commits none of its own" 0 "$(big_titles)"
	kv verify --repair >/dev/null 2>"$ERR"
	report "...verify --repair leaves nothing to repair" $(($? > 1))
	check "...and verify is clean" kv verify
	if [ $what = sync ]; then
		check "...the sync run again" kv sync big
	else
		check "...the import run again" kv playlist import lists/big.m3u8
		same "...makes the playlist in the list's order" \
			"8.wav four.mp3 1.wav 2.wav 3.wav 4.wav 5.wav 6.wav 7.wav" \
			"$(kv playlist show big | sed 's/.*Sync Band - //; s/^Big \(.\)$/\1.wav/; s/^Four$/four.mp3/' | paste -sd ' ')"
	fi
	same "...has every track once" 8 "$(big_titles)"
	check "...and verify is clean" kv verify
done
IMG=$W/sync.img

# ---- riocp reads the result ----

. "$TAP_DIR/riocp-lib.sh"
riocp_reads "riocp reads the library after sync and import"

tap_done
