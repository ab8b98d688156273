#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# karmactl add, sync and playlist import converting what the player cannot
# play (docs/KARMA.md §10.1), end to end with files ffmpeg makes here: AAC,
# ALAC, Opus, AIFF and WavPack become Ogg Vorbis or FLAC with their tags and
# durations, --convert-to and --quality choose, --no-convert refuses; the
# same source added again (alone, in a folder, by a sync) is a duplicate
# through var/km-sources (§11.1), which sync --delete respects; a broken
# file is listed and leaves nothing; a cut cable loses nothing committed;
# no temporary file is left; riocp reads the result.  Speaks TAP.
#   bash tests/cli/test-convert-cli.sh PATH/TO/karmactl
set -u

. "$(dirname "${BASH_SOURCE[0]}")/tap.sh" "$@"
export LC_ALL=C.UTF-8
export TMPDIR=$W/tmp
mkdir -p "$TMPDIR"

for tool in ffmpeg python3; do
	if ! command -v $tool >/dev/null; then
		echo "1..0 # SKIP $tool is not installed"
		exit 0
	fi
done

km() { "$KARMACTL" -i "$IMG" --offset 16M "$@"; }
json() { python3 -c 'import json, sys; d = json.load(sys.stdin); print('"$1"')'; }
tunes() { kv tracks --json | json 'sum(1 for o in d if o.get("type") == "tune")'; }
# prop TITLE KEY: a property of the track with that title
prop() { kv tracks --json | json "[o.get('$2', '') for o in d if o.get('title') == '$1'][0]"; }
temp_left() { find "$TMPDIR" -mindepth 1 | wc -l; }

# source FILE TITLE SEED CODEC-OPTIONS...: 3 s of pink noise (it compresses
# about as music does, so the size estimates meet real sizes), tagged.
source_file() {
	local file=$1 title=$2 seed=$3
	shift 3
	ffmpeg -loglevel error -y -f lavfi -i "anoisesrc=d=3:c=pink:a=0.3:seed=$seed" -ac 2 \
		-metadata title="$title" -metadata artist="Convert Band" \
		-metadata album="Convert Album" -metadata genre="Jazz" -metadata date=2001 \
		-metadata track=3 "$@" "$file"
}
mkdir -p music lossy extra
source_file music/aac.m4a "The AAC" 300 -c:a aac -b:a 96k
source_file music/alac.m4a "The ALAC" 350 -c:a alac
source_file music/opus.opus "The Opus" 400 -c:a libopus -b:a 64k
source_file music/aiff.aiff "The AIFF" 450 -c:a pcm_s16be -write_id3v2 1
# APE tags name the date Year (ffmpeg writes its own name, date, too)
source_file music/wavpack.wv "The WavPack" 500 -c:a wavpack -metadata year=2001
source_file lossy/mp3me.opus "Made MP3" 550 -c:a libopus -b:a 64k
source_file lossy/flacme.m4a "Made FLAC" 600 -c:a aac
source_file extra/again.m4a "Again" 650 -c:a aac
head -c 20000 /dev/urandom >broken.m4a
head -c 8000 music/aac.m4a >truncated.m4a

IMG=$W/disk.img
check "mkkarma" k mkkarma "$IMG" --size 64M

# ---- every format, with its tags ----
kv add -r music >add.txt 2>"$ERR"
report "add -r of the five formats exits 0" $?
same "...each converted: lossy to Ogg Vorbis, lossless to FLAC" \
"music/aac.m4a (converted to vorbis)
music/aiff.aiff (converted to flac)
music/alac.m4a (converted to flac)
music/opus.opus (converted to vorbis)
music/wavpack.wv (converted to flac)" "$(sed -n 's/^added fid [0-9]*: //p' add.txt | sort)"
for t in "The AAC:vorbis" "The ALAC:flac" "The Opus:vorbis" "The AIFF:flac" "The WavPack:flac"; do
	title=${t%%:*}
	same "$title: codec ${t#*:}" "${t#*:}" "$(prop "$title" codec)"
	same "...its tags carried over" "Convert Band|Convert Album|Jazz|2001|3" \
		"$(prop "$title" artist)|$(prop "$title" source)|$(prop "$title" genre)|$(prop "$title" year)|$(prop "$title" tracknr)"
	d=$(prop "$title" duration)
	report "...its duration is 3 s within 1 s ($d ms)" $((d < 2000 || d > 4000))
	rate=$(prop "$title" samplerate)
	report "...at a rate the player plays ($rate Hz)" $((rate > 48000 || rate < 8000))
done
same "no temporary file is left" 0 "$(temp_left)"

mkdir -p out
check "export the converted AAC" kv export --to out "$(prop "The AAC" fid)"
exported=$(find out -type f | head -n1)
check "...the exported track decodes" ffmpeg -v error -i "$exported" -f null -

# ---- duplicates: the source's identity, kept in var/km-sources ----
before=$(tunes)
kv add music/aac.m4a >dup.txt 2>"$ERR"
report "adding the AAC again exits 0" $?
check "...says it is a duplicate" grep -q "^skipped music/aac.m4a: the same track as fid" dup.txt
kv add -r music >dup2.txt 2>"$ERR"
report "adding the folder again exits 0" $?
same "...all five are duplicates" "0 added, 5 duplicates skipped, 0 not added" "$(tail -n1 dup2.txt)"
same "...and the player holds the same tracks" "$before" "$(tunes)"
km cat /var/km-sources >sources.txt 2>"$ERR"
report "var/km-sources can be read" $?
same "...it starts with its header" "KMSRC1" "$(head -n1 sources.txt)"
same "...and has a line per converted source" 5 "$(grep -cE '^[0-9a-f]+-[0-9a-f]{32} [0-9]+ [0-9a-f]{32}$' sources.txt)"

# ---- the choices ----
kv add --convert-to mp3 lossy/mp3me.opus >mp3.txt 2>"$ERR"
report "--convert-to mp3 exits 0" $?
same "...makes an MP3" "mp3" "$(prop "Made MP3" codec)"
same "...with its title and artist" "Convert Band" "$(prop "Made MP3" artist)"
kv add --convert-to flac lossy/flacme.m4a >/dev/null 2>"$ERR"
report "--convert-to flac exits 0" $?
same "...makes a FLAC" "flac" "$(prop "Made FLAC" codec)"
kv add --force-duplicates --quality 0 extra/again.m4a >/dev/null 2>"$ERR"
kv add --force-duplicates --quality 10 extra/again.m4a >/dev/null 2>"$ERR"
sizes=$(kv tracks --json | json '" ".join(str(o["length"]) for o in d if o.get("title") == "Again")')
report "--quality 10 makes a larger file than --quality 0 ($sizes bytes)" \
	"$(python3 -c "import sys; a, b = map(int, sys.argv[1:]); print(0 if b > a else 1)" $sizes)"
fails 2 "--convert-to takes only vorbis, mp3 or flac" kv add --convert-to wav music/aac.m4a
fails 2 "--quality takes 0 to 10" kv add --quality 11 music/aac.m4a
fails 2 "--no-convert with --convert-to is a contradiction" \
	kv add --no-convert --convert-to mp3 music/aac.m4a
before=$(tunes)
kv add --no-convert --force-duplicates music/aac.m4a >/dev/null 2>no-convert.err
report "--no-convert refuses the AAC (exit 1)" $(($? != 1))
check "...saying why" grep -q "not added: .*aac.m4a" no-convert.err
same "...and adds nothing" "$before" "$(tunes)"

# ---- bad input: listed, nothing left of it, the rest goes on ----
mkdir -p mixed
cp broken.m4a truncated.m4a mixed/
source_file mixed/good.m4a "Good One" 700 -c:a aac
kv add -r mixed >mixed.txt 2>mixed.err
report "a folder with a broken and a cut file exits 0 (only named files count)" $?
check "...the good file is added" grep -q "^added fid [0-9]*: mixed/good.m4a (converted to vorbis)" mixed.txt
same "...the broken one is listed" 1 "$(grep -c 'broken.m4a' mixed.err)"
same "...and nothing of it is on the player" "" \
	"$(kv tracks --json | json '" ".join(o["title"] for o in d if o.get("title") == "broken")')"
same "no temporary file is left" 0 "$(temp_left)"
check "verify is clean" kv verify

# ---- sync: the plan counts converted sizes, a second sync does nothing ----
IMG=$W/sync.img
check "mkkarma for the sync" k mkkarma "$IMG" --size 64M
kv sync --dry-run music >plan.txt 2>"$ERR"
report "sync --dry-run exits 0" $?
same "...lists the five to convert" 5 "$(grep -c '^add: music/.* (converted to [a-z]*)$' plan.txt)"
planned=$(sed -n 's/^5 to add (\([^)]*\)).*/\1/p' plan.txt)
check "sync" kv sync music
added=$(kv tracks --json | json 'sum(o["length"] for o in d if o.get("type") == "tune")')
echo "# planned $planned, added $added bytes"
report "...the plan's size is the converted size within 2x ($planned for $added bytes)" \
	"$(python3 -c "
import sys
units = {'bytes': 1, 'kB': 1e3, 'MB': 1e6, 'GB': 1e9}
value, unit = sys.argv[1].split()
planned = float(value) * units[unit]
print(0 if 0.5 <= planned / int(sys.argv[2]) <= 2 else 1)" "$planned" "$added")"
kv sync --dry-run --delete music >plan2.txt 2>"$ERR"
check "a second sync adds and deletes nothing" grep -q '^0 to add (0 bytes), 0 to delete (0 bytes), 5 there already' plan2.txt
kv sync music >sync2.txt 2>"$ERR"
check "...and says so" grep -q "^nothing to add" sync2.txt
same "...the player has five tracks" 5 "$(tunes)"

# ---- Ctrl-C and a pulled cable: nothing committed is lost ----
IMG=$W/int.img
check "mkkarma for the interruption" k mkkarma "$IMG" --size 64M
KARMACTL_TEST_SIGINT_AFTER=1 kv add -r music >int.txt 2>"$ERR"
report "Ctrl-C after one file exits 130" $(($? != 130))
same "...the one said added is there" "$(grep -c '^added' int.txt)" "$(tunes)"
same "...no temporary file is left" 0 "$(temp_left)"
FRESH=$W/fresh.img
k mkkarma "$FRESH" --size 64M >/dev/null
for cut in 20 60; do
	IMG=$W/cut-$cut.img
	cp "$FRESH" "$IMG"
	KM_SIM_FAULTS=unplug-after-writes=$cut k --simulate -i "$IMG" add -r music >/dev/null 2>&1
	kv add -r music >/dev/null 2>"$ERR"
	report "an add cut after $cut writes, then again: exits 0" $?
	same "...the player has each source once" 5 "$(tunes)"
	kv verify --repair >/dev/null 2>"$ERR"
	report "...verify --repair leaves nothing to repair" $(($? > 1))
	check "...and verify is clean" kv verify
done
IMG=$W/disk.img

# ---- riocp reads the converted tracks ----
. "$TAP_DIR/riocp-lib.sh"
riocp_reads "riocp reads the library of converted tracks"

# ---- kill -9 while converting: nothing committed lost, the leftovers swept ----
IMG=$W/kill.img
k mkkarma "$IMG" --size 64M >/dev/null
kv add -r music >/dev/null 2>"$ERR"
report "an add before the kill exits 0" $?
ffmpeg -loglevel error -y -f lavfi -i "anoisesrc=d=120:c=pink:a=0.3:seed=800" -ac 2 \
	-c:a aac -b:a 96k kill.m4a
"$KARMACTL" -i "$IMG" add kill.m4a >/dev/null 2>&1 &	# karmactl itself: $! is its pid
adding=$!
for _ in $(seq 400); do	# until its converted file is being written (20 s at most)
	[ -n "$(find "$TMPDIR" -name kill.ogg)" ] && break
	sleep 0.05
done
kill -9 $adding
wait $adding
report "kill -9 of an add while it converts" $(($? != 137))
check "...leaves its temporary folder behind" test "$(temp_left)" -gt 0
same "...the tracks added before are there" 5 "$(tunes)"
kv add kill.m4a >/dev/null 2>"$ERR"
report "...the next add of the file exits 0" $?
same "...and removes what the killed add left" 0 "$(temp_left)"
same "...the player has the five and the new one" 6 "$(tunes)"
kv verify --repair >/dev/null 2>"$ERR"
report "...verify --repair leaves nothing to repair" $(($? > 1))
check "...and verify is clean" kv verify
IMG=$W/disk.img

# ---- on a terminal, the progress line says what is converting ----
# (script(1) gives the command a terminal; two minutes of audio take long
# enough to convert for the line, redrawn every 200 ms, to show it)
if command -v script >/dev/null; then
	IMG=$W/tty.img
	k mkkarma "$IMG" --size 64M >/dev/null
	ffmpeg -loglevel error -y -f lavfi -i "anoisesrc=d=120:c=pink:a=0.3:seed=700" -ac 2 \
		-c:a aac -b:a 96k long.m4a
	script -qec "$(printf '%q ' "$KARMACTL" -i "$IMG" add long.m4a)" /dev/null >tty.txt
	report "add on a terminal exits 0" $?
	check "...its line shows the conversion's progress" \
		grep -Eq 'long.m4a: converting to Ogg Vorbis, [0-9]+:[0-9]{2} of 2:00' tty.txt
	check "...then says it was added, converted" grep -q 'long.m4a (converted to vorbis)' tty.txt
fi

tap_done
