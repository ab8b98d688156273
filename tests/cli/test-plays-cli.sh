#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# karmactl plays: the plays the player counted, out as an Audioscrobbler log,
# with a ledger per player so that no play is written twice (docs/KARMA.md
# §12).  The player's counts are set with `tag`, as the player would leave
# them in play_count and play_last.  Speaks TAP.
#   bash tests/cli/test-plays-cli.sh PATH/TO/karmactl
set -u

. "$(dirname "${BASH_SOURCE[0]}")/tap.sh" "$@"
export LC_ALL=C.UTF-8
export XDG_STATE_HOME=$W/state

IMG=$W/e.img
LEDGER=$XDG_STATE_HOME/karma-manager/plays/e.img.ledger
k mkkarma "$IMG" --size 64M --demo 3 >/dev/null
json() { python3 -c 'import json, sys; d = json.load(sys.stdin); print('"$1"')'; }
# prop FID KEY: one property of a track.
prop() { kv tracks --json | json "[o.get('$2') for o in d if o['fid'] == $1][0]"; }
plays() { grep -v '^#' "$1"; }
# times FILE TITLE: the times of TITLE's plays in a log, one line.
times() { awk -F'\t' -v t="$2" '$3 == t { printf "%s ", $7 }' "$1"; }

A=272 B=288 C=304
TA=$(prop $A title) TB=$(prop $B title)
DA=$(($(prop $A duration) / 1000))

kv plays >empty.out 2>"$ERR"
report "plays with nothing played exits 0" $?
same "...prints the log's header alone" "#AUDIOSCROBBLER/1.1
#TZ/UTC
#CLIENT/Karma Manager (karmactl)" "$(cat empty.out)"

check "the player counts 3 plays of one track, 2 of another" \
	kv tag $A play_count=3 play_last=1700000000
check "..." kv tag $B play_count=2 play_last=1700000500
kv plays >preview.out 2>"$ERR"
report "plays without a log prints the new plays" $?
same "...five of them" 5 "$(plays preview.out | wc -l)"
check "...and remembers nothing (no ledger yet)" test ! -e "$LEDGER"

kv plays --scrobbler-log log1 >out 2>"$ERR"
report "plays --scrobbler-log exits 0" $?
same "...says what it wrote" "5 plays of 2 tracks written to log1" "$(head -n 1 out)"
same "...the log is what the preview showed" "$(cat preview.out)" "$(cat log1)"
same "...one header" 1 "$(grep -c '^#AUDIOSCROBBLER/1.1$' log1)"
same "...a line has artist, album, title, track, seconds, L, time, no mbid" \
	"$(prop $A artist)|$(prop $A source)|$TA|$(prop $A tracknr)|$DA|L|1700000000|" \
	"$(awk -F'\t' -v t="$TA" '$3 == t { l = $1 "|" $2 "|" $3 "|" $4 "|" $5 "|" $6 "|" $7 "|" $8 } END { print l }' log1)"
same "...every line has 8 fields" 5 "$(plays log1 | awk -F'\t' 'NF == 8' | wc -l)"
same "...the last play at play_last, the earlier a duration apart" \
	"$((1700000000 - 2 * DA)) $((1700000000 - DA)) 1700000000 " "$(times log1 "$TA")"
same "...in time order" "$(plays log1 | cut -f7 | sort -n)" "$(plays log1 | cut -f7)"
check "...the ledger is written" test -s "$LEDGER"

kv plays --scrobbler-log log1 >out 2>"$ERR"
report "a second export with no new plays exits 0" $?
same "...writes no play twice" 5 "$(plays log1 | wc -l)"
same "...and says so" "0 plays of 0 tracks written to log1" "$(head -n 1 out)"

check "two more plays of the first track" kv tag $A play_count=5 play_last=1700001000
kv plays --scrobbler-log log2 >/dev/null 2>"$ERR"
report "the next export exits 0" $?
same "...writes only the two new plays" "$((1700001000 - DA)) 1700001000 " "$(times log2 "$TA")"
same "...and nothing of the other track" "" "$(times log2 "$TB")"

check "many plays in little time: 4 more within 6 seconds" \
	kv tag $A play_count=9 play_last=1700001006
kv plays --scrobbler-log log3 >/dev/null 2>"$ERR"
report "...exported" $?
same "...spread between the last exported play and play_last" \
	"1700001002 1700001003 1700001005 1700001006 " "$(times log3 "$TA")"

check "the player's counts were reset: 1 play since" kv tag $A play_count=1 play_last=1700002000
kv plays --scrobbler-log log4 >/dev/null 2>"$ERR"
report "...exported" $?
same "...that one play is written" "1700002000 " "$(times log4 "$TA")"

check "a track with a count but no time of last play" kv tag $C play_count=2
kv plays --scrobbler-log log5 >out 2>"$ERR"
report "...exported" $?
same "...its plays are left out, and said so" "2 plays left out: their tracks have no time of last play" \
	"$(sed -n 2p out)"

check "the fid now holds another track (another ctime)" kv tag $B ctime=1800000000
kv plays --scrobbler-log log6 >/dev/null 2>"$ERR"
report "...exported" $?
same "...all its plays are written again: they are the new track's" \
	"1700000497 1700000500 " "$(times log6 "$TB")"

kv plays --player-id "other player" --scrobbler-log log7 >/dev/null 2>"$ERR"
report "another player's ledger (--player-id) exits 0" $?
same "...has seen nothing: every dated play is written" 3 "$(plays log7 | wc -l)"
check "...in a file named after it" test -s "$XDG_STATE_HOME/karma-manager/plays/other_player.ledger"

cp "$LEDGER" ledger.good
bad_line=$(($(wc -l <"$LEDGER") + 1))
echo "272 oops" >>"$LEDGER"
check "a fourth play" kv tag $A play_count=2 play_last=1700003000
fails 1 "a malformed ledger is refused" kv plays --scrobbler-log log8
cp "$ERR" bad.err
check "...the message names the file and line" grep -q "e.img.ledger, line $bad_line:" bad.err
check "...and no log is written" test ! -e log8
cp ledger.good "$LEDGER"

mkdir folder
fails 1 "a log that cannot be written fails" kv plays --scrobbler-log folder
same "...and the ledger is left as it was" "$(cat ledger.good)" "$(cat "$LEDGER")"
kv plays --scrobbler-log log9 >/dev/null 2>"$ERR"
report "...so the next export still has the play" $?
same "..." "1700003000 " "$(times log9 "$TA")"

tap_done
