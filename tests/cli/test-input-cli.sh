#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Bad input refused before it is written, and what karmactl prints kept safe
# (issue 16): huge tags capped on add, folder loops walked once, tag keys
# and numbers checked, control characters escaped on output, playlists
# named once, a malformed playlist and unreadable objects reported, a full
# player's summary complete, and the simulated player's fault switches
# (KM_SIM_FAULTS).  Speaks TAP.
#   bash tests/cli/test-input-cli.sh PATH/TO/karmactl
set -u

. "$(dirname "${BASH_SOURCE[0]}")/tap.sh" "$@"
export LC_ALL=C.UTF-8

json() { python3 -c 'import json, sys; d = json.load(sys.stdin); print('"$1"')'; }
km() { "$KARMACTL" -i "$IMG" --offset 16M "$@"; }
ntracks() { kv tracks --json | json 'len(d)'; }

for tool in ffmpeg lame python3 timeout; do
	if ! command -v $tool >/dev/null; then
		echo "1..0 # SKIP $tool is not installed"
		exit 0
	fi
done

tone() {	# tone FILE HZ SECONDS
	ffmpeg -loglevel error -y -f lavfi -i "sine=frequency=$2:duration=$3" -ar 8000 -ac 1 "$1"
}
tone t1.wav 440 2
tone t2.wav 550 2
lame --quiet -b 16 t1.wav plain.mp3
# An MP3 whose ID3v2.3 title is 10 MB long (no tool writes one: made here).
python3 - plain.mp3 huge.mp3 <<'PY'
import struct, sys
audio = open(sys.argv[1], 'rb').read()
title = b'\x00' + b'T' * (10 * 1024 * 1024)
frame = b'TIT2' + struct.pack('>I', len(title)) + b'\x00\x00' + title
n = len(frame)
size = bytes([(n >> 21) & 0x7f, (n >> 14) & 0x7f, (n >> 7) & 0x7f, n & 0x7f])
open(sys.argv[2], 'wb').write(b'ID3\x03\x00\x00' + size + frame + audio)
PY

IMG=$W/e.img
k mkkarma "$IMG" --size 256M --demo 20 >/dev/null

# ---- item 3: a 10 MB tag ----
kv add huge.mp3 >huge.out 2>"$ERR"
report "add of an MP3 with a 10 MB title exits 0" $?
fid=$(sed -n 's/^added fid \([0-9]*\):.*/\1/p' huge.out)
title_len=$(kv tracks --json | json "len([o for o in d if o['fid'] == ${fid:-0}][0]['title'].encode())")
same "...its title is capped at 255 bytes" 255 "$title_len"
status 0 "...and verify calls the library clean" kv verify

# ---- item 6: tag refuses bad keys and numbers, exit 2, nothing written ----
title272=$(kv tracks --json | json "[o['title'] for o in d if o['fid'] == 272][0]")
kv tag 272 "bad key=x" title=GOOD >/dev/null 2>"$ERR"
same "tag with a key with a space exits 2" 2 $?
cp "$ERR" last.err
check "...says the key is no property name" grep -q "'bad key' is no property name" last.err
check "...no GLib CRITICAL" bash -c "! grep -q CRITICAL last.err"
same "...and the title is unchanged" "$title272" "$(kv tracks --json | json "[o['title'] for o in d if o['fid'] == 272][0]")"
for bad in length=abc duration=-1 tracknr=0 tracknr=256 year=99 year=abcd play_count=65536 \
	   length=4294967296 "marked=+1" "=x" "k=$(head -c 300 /dev/zero | tr '\0' x)"; do
	fails 2 "tag 272 ${bad:0:24} is refused with exit 2" kv tag 272 "$bad"
done
same "...the length is unchanged" 32158 "$(kv tracks --json | json "[o['length'] for o in d if o['fid'] == 272][0]")"
check "tag of good numbers is taken" kv tag 272 length=32158 tracknr=255 year=2001 play_count=65535
status 0 "...verify is clean" kv verify

# ---- item 9: control characters escaped on output, exact in --json ----
esc=$'\033]0;PWNED\007'
check "tag a title with a terminal escape" kv tag 288 "title=A${esc}B"
kv tracks >tracks.out 2>"$ERR"
check "tracks prints no ESC or BEL byte" bash -c "! grep -q \$'[\\033\\007]' tracks.out"
check "...but the escaped title" grep -qF 'title=A\x1B]0;PWNED\x07B' tracks.out
same "tracks --json keeps it exact" "A${esc}B" "$(kv tracks --json | json "[o['title'] for o in d if o['fid'] == 288][0]")"
check "playlist create with an escape in its name" kv playlist create "P${esc}Q"
check "...playlist add a track with an escape" kv playlist add "P${esc}Q" 288
kv playlist list >list.out 2>&1
check "playlist list prints no ESC byte" bash -c "! grep -q \$'\\033' list.out"
kv playlist show "P${esc}Q" >show.out 2>&1
check "playlist show prints no ESC byte" bash -c "! grep -q \$'\\033' show.out"
check "...but the escaped title" grep -qF 'A\x1B]0;PWNED\x07B' show.out
kv tag 288 "artist=${esc}" >tag.out 2>&1
check "tag's own output prints no ESC byte" bash -c "! grep -q \$'\\033' tag.out"

# ---- item 10: playlists named once, malformed ones said, scan's left-outs counted ----
check "playlist create Mix" kv playlist create Mix
fails 1 "a second playlist create Mix is refused" kv playlist create Mix
cp "$ERR" last.err
check "...saying which playlist has the name" grep -q "playlist fid [0-9]* is named so already" last.err
check "playlist create Other" kv playlist create Other
fails 1 "rename Other to Mix is refused" kv playlist rename Other Mix
same "...one playlist named Mix" 1 "$(kv playlist list | grep -c ': Mix (')"

# Two playlists named the same, as an older tool may leave them: the fid is the way out.
mix=$(kv playlist list | sed -n 's/^fid \([0-9]*\): Mix (.*/\1/p')
other=$(kv playlist list | sed -n 's/^fid \([0-9]*\): Other (.*/\1/p')
printf 'type=playlist\ntitle=Mix\nplaylist=\n' >dup.props
printf -v props_path '/fids0/_%05x/%03x' $((other >> 12)) $((other & 0xfff | 1))
check "(a properties file renamed to Mix behind the library's back)" km put dup.props "$props_path"
check "(rebuild-db takes it)" kv rebuild-db
fails 1 "a name two playlists share is refused" kv playlist show Mix
cp "$ERR" last.err
check "...naming both fids" grep -q "fids .*$mix.*$other\|fids .*$other.*$mix" last.err
check "rename by fid is the way out" kv playlist rename "$other" Mix2
check "...then the name works again" kv playlist show Mix

# A malformed playlist: not "(0 entries)".
printf 'type=playlist\ntitle=Broken\nplaylist=\\x01\\x02\\x03\n' >bad.props
printf -v props_path '/fids0/_%05x/%03x' $((other >> 12)) $((other & 0xfff | 1))
check "(a playlist whose list is malformed)" km put bad.props "$props_path"
check "(rebuild-db)" kv rebuild-db
kv playlist list >list.out 2>"$ERR"
same "playlist list exits 1 with a malformed playlist" 1 $?
cp "$ERR" last.err
check "...says it is malformed" grep -q "Broken (malformed: " list.out
same "...and on one line of stderr" "karmactl: playlist: 1 playlist is malformed (verify says more)" "$(cat last.err)"
check "...not 0 entries" bash -c "! grep -q 'Broken (0 entries)' list.out"

# An object whose properties file cannot be parsed is left out by tracks --scan: say so.
printf 'no equals sign here\n' >garbage.props
check "(fid 304's properties file made unparsable)" km put garbage.props /fids0/_00000/131
kv tracks --scan >/dev/null 2>"$ERR"
cp "$ERR" last.err
check "tracks --scan says 1 object was left out" grep -q "1 object left out" last.err

# ---- item 4: a folder with two links up: walked once, no hang ----
mkdir -p loop/sub
cp plain.mp3 loop/sub/a.mp3
ln -s .. loop/sub/up
ln -s .. loop/sub/up2
timeout 60 "$KARMACTL" -i "$IMG" add -r --force-duplicates loop >loop.out 2>"$ERR"
rc=$?
same "add -r of a folder with symlink loops ends (no timeout)" 1 $((rc != 124))
same "...the file in it is read and added once" 1 "$(grep -c '^added fid ' loop.out)"
cp "$ERR" last.err
check "...no 'nested too deep'" bash -c "! grep -q 'nested too deep' last.err"

# ---- item 10: a full player's summary counts the files never tried ----
IMG=$W/tiny.img
k mkkarma "$IMG" --size 32M >/dev/null
ffmpeg -loglevel error -y -f lavfi -i "sine=frequency=300:duration=150" -ar 44100 -ac 2 big.wav
cp t1.wav s1.wav; cp t2.wav s2.wav; tone s3.wav 660 1; tone s4.wav 770 1
kv add s1.wav big.wav s2.wav s3.wav s4.wav >full.out 2>"$ERR"
same "add to a full player exits 1" 1 $?
check "...its summary counts the 3 files never tried" grep -q "^1 added, 0 duplicates skipped, 1 not added, 3 not tried" full.out

# ---- item 11: the simulated player's faults from karmactl ----
IMG=$W/e.img
KM_SIM_FAULTS=nonsense k --simulate -i "$IMG" tracks >/dev/null 2>"$ERR"
same "KM_SIM_FAULTS with an unknown switch exits 1" 1 $?
cp "$ERR" last.err
check "...saying which" grep -q "no fault switch 'nonsense'" last.err
KM_SIM_FAULTS=timeouts=1,stall-transfers=1 k --simulate -i "$IMG" tag 272 title=Survived >/dev/null 2>"$ERR"
report "a timeout and a stall are recovered from" $?
same "...the tag is written" Survived "$(kv tracks --json | json "[o['title'] for o in d if o['fid'] == 272][0]")"
KM_SIM_FAULTS=unplug-after-writes=1 k --simulate -i "$IMG" tag 272 title=Never >/dev/null 2>"$ERR"
same "a cable pulled during the write fails the command" 1 $?
cp "$ERR" last.err
check "...saying the device is gone" grep -q "No such device" last.err
KM_SIM_FAULTS=stall-data-phases=100000 k --simulate -i "$IMG" tracks >/dev/null 2>"$ERR"
same "a player whose transfers keep failing fails the command" 1 $?
same "...the image still has the last title" Survived "$(kv tracks --json | json "[o['title'] for o in d if o['fid'] == 272][0]")"

tap_done
