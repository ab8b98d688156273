#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The whole stack on the simulated player (issue 4): a Karma disk made by
# mkkarma; over --simulate (RIOP, Bulk-Only Transport, SCSI, the library and
# OMFS on top) add real audio made here, list the tracks, eject; then, over
# the plain image backend, the library verifies with all its data read, the
# tracks are the same and the exported audio is byte for byte the sources.
# Speaks TAP.
#   bash tests/cli/test-stack-cli.sh PATH/TO/karmactl
set -u

. "$(dirname "${BASH_SOURCE[0]}")/tap.sh" "$@"
export LC_ALL=C.UTF-8

ks() { "$KARMACTL" --simulate -i "$IMG" "$@"; }
json() { python3 -c 'import json, sys; d = json.load(sys.stdin); print('"$1"')'; }
usb_stat() { sed -n "s/.*usb stats:.* $1=\([a-z0-9]*\).*/\1/p" "$2"; }
# the SHA-256 sums of the files given, sorted: the same bytes, whatever their names
sums() { sha256sum "$@" | cut -d' ' -f1 | sort; }

for tool in ffmpeg lame oggenc flac python3; do
	if ! command -v $tool >/dev/null; then
		echo "1..0 # SKIP $tool is not installed"
		exit 0
	fi
done

# ---- audio made here; the MP3 is long enough to take several 1 MiB requests ----

tone() {	# tone FILE HZ SECONDS RATE CHANNELS
	ffmpeg -loglevel error -y -f lavfi -i "sine=frequency=$2:duration=$3" -ar "$4" \
		-ac "$5" "$1"
}
mkdir audio
tone long.wav 440 150 44100 2
tone short.wav 660 2 8000 1
lame --quiet -b 128 --tt "Long Song" --ta "Stack Band" --tl "Over USB" long.wav audio/a.mp3
oggenc -Q -t "Ogg Song" -a "Stack Band" short.wav -o audio/b.ogg 2>/dev/null
flac -s -f -T "TITLE=Flac Song" -T "ARTIST=Émile" short.wav -o audio/c.flac 2>/dev/null
check "the MP3 is over 2 MiB" test "$(stat -c %s audio/a.mp3)" -gt 2097152

# ---- over the simulated player ----

IMG=$W/karma.img
check "mkkarma" k mkkarma "$IMG" --size 64M
KARMACTL_STATS=1 ks add audio/a.mp3 audio/b.ogg audio/c.flac >add.out 2>add.err
report "add three files over --simulate" $?
same "...says each was added" 3 "$(grep -c '^added fid ' add.out)"
check "...writing the data through WRITE(10)" test "$(usb_stat bytes_written add.err)" -gt \
	"$(stat -c %s audio/a.mp3)"
same "...and leaving the player in normal mode" normal "$(usb_stat mode add.err)"
ks tracks --json >usb-tracks.json 2>"$ERR"
report "tracks over --simulate" $?
same "...lists the three" "Flac Song Long Song Ogg Song" \
	"$(json '" ".join(sorted(o["title"] for o in d))' <usb-tracks.json)"
KARMACTL_STATS=1 ks eject >/dev/null 2>eject.err
report "eject over --simulate" $?
same "...leaves the player in normal mode" normal "$(usb_stat mode eject.err)"

# ---- the same disk over the image backend ----

status 0 "verify --data over the image: clean" kv verify --data
status 0 "fsck of the music partition: clean" kv --offset 16M fsck
same "tracks over the image = over USB" "$(cat usb-tracks.json)" "$(kv tracks --json)"
check "export every track over the image" kv export --to out
same "...three files" 3 "$(find out -type f | wc -l)"
same "...the sources' very bytes" "$(sums audio/*)" "$(find out -type f -exec sha256sum {} + |
	cut -d' ' -f1 | sort)"
ks export --to out-usb >/dev/null 2>"$ERR"
report "export over --simulate too" $?
same "...the same bytes" "$(sums audio/*)" "$(find out-usb -type f -exec sha256sum {} + |
	cut -d' ' -f1 | sort)"

tap_done
