#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# karmactl --simulate: the same commands through the simulated Karma (RIOP,
# Bulk-Only Transport, SCSI over the image) give the same results as on the
# image directly.  Speaks TAP.
#   bash tests/cli/test-simulate-cli.sh PATH/TO/karmactl
set -u

. "$(dirname "${BASH_SOURCE[0]}")/tap.sh" "$@"
export LC_ALL=C.UTF-8

ks() { "$KARMACTL" --simulate -i "$IMG" "$@"; }

# ---- a bare OMFS volume ----

IMG=$W/vol.img
check "mkfs" k mkfs "$IMG" --size 32M
head -c 3000001 /dev/urandom >"$W/big.bin"
printf 'hello\n' >"$W/small.txt"
mkdir -p "$W/tree/a/b" && cp "$W/small.txt" "$W/tree/a/b/x" && cp "$W/big.bin" "$W/tree/y"
check "put through the simulated Karma" ks put "$W/big.bin" /big.bin
check "put -r through the simulated Karma" ks put -r "$W/tree" /tree
check "put --simulate after the command" k put -i "$IMG" --simulate "$W/small.txt" /small.txt
check "get directly what was put over USB" k -i "$IMG" get /big.bin "$W/big.direct"
check "...and it is the same file" cmp "$W/big.bin" "$W/big.direct"
check "get over USB" ks get /tree/y "$W/y.usb"
check "...the same file" cmp "$W/big.bin" "$W/y.usb"
same "cat over USB" hello "$(ks cat /small.txt)"
same "ls -lR over USB = directly" "$(kv ls -lR /)" "$(ks ls -lR /)"
same "manifest over USB = directly" "$(kv manifest)" "$(ks manifest)"
same "df over USB = directly" "$(kv df)" "$(ks df)"
check "fsck over USB" ks fsck
check "rm -r over USB" ks rm -r /tree
same "...and it is gone when read directly" "$(printf 'big.bin\nsmall.txt')" "$(kv ls /)"
check "the volume is clean when checked directly" kv fsck

# USB traffic counters: a read-only command still enters storage mode and
# leaves it (enter, device info, leave, return to normal).
KARMACTL_STATS=1 ks ls / >/dev/null 2>"$W/stats"
same "four RIOP commands per run" 4 \
	"$(sed -n 's/.*usb stats:.* riop_commands=\([0-9]*\).*/\1/p' "$W/stats")"

fails 1 "a missing image is one clean error" k --simulate -i "$W/none.img" ls
head -c 100 /dev/zero >"$W/tiny.img"
fails 1 "an image smaller than a sector is one clean error" k --simulate -i "$W/tiny.img" ls

# ---- a whole Karma disk with its library ----

IMG=$W/karma.img
check "mkkarma --demo 3" k mkkarma "$IMG" --demo 3
same "tracks over USB = directly" "$(kv tracks --json)" "$(ks tracks --json)"
status 0 "verify over USB" ks verify
check "the music partition with --offset over USB" ks --offset 16M fsck
same "ls of the music partition over USB = directly" \
	"$(kv --offset 16M ls -R /)" "$(ks --offset 16M ls -R /)"

tap_done
