#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# karmactl --device NODE (the player's disk as the kernel exposes it), the
# refusal to write to a mounted disk (with a made-up mountinfo:
# KARMACTL_TEST_MOUNTINFO) and eject over --simulate and --device.
# `devices` and `--usb eject` need an emulated player: tests/hotplug and
# tests/device run them under umockdev.  Speaks TAP.
#   bash tests/cli/test-player-cli.sh PATH/TO/karmactl
set -u

. "$(dirname "${BASH_SOURCE[0]}")/tap.sh" "$@"
export LC_ALL=C.UTF-8

kd() { "$KARMACTL" --device "$IMG" "$@"; }
ks() { "$KARMACTL" --simulate -i "$IMG" "$@"; }
usb_stat() { sed -n "s/.*usb stats:.* $1=\([a-z0-9]*\).*/\1/p" "$2"; }

IMG="$W/karma disk.img"	# a space: mountinfo writes it as \040
check "mkkarma --demo 3" k mkkarma "$IMG" --demo 3

# ---- --device works wherever -i does ----

same "tracks with --device = with -i" "$(kv tracks --json)" "$(kd tracks --json)"
same "--device after the command" "$(kv tracks --json)" "$(k tracks --device "$IMG" --json)"
same "--device with --offset" "$(kv --offset 16M ls -R /)" "$(kd --offset 16M ls -R /)"
status 0 "verify with --device" kd verify
check "tag with --device" kd tag 272 title=Renamed
check "...and -i sees the change" grep -q '^title=Renamed$' <(kv tracks)
fails 2 "--device with -i is a usage error" kd -i "$IMG" ls
fails 2 "--device with --simulate is a usage error" kd --simulate ls
fails 2 "--device with --usb is a usage error" kd --usb ls
fails 2 "mkkarma with --device is a usage error" kd mkkarma "$W/other.img"
fails 1 "a missing node is one clean error" k --device "$W/none" tracks

# ---- a mounted disk: writing refused, reading warned about ----

# mountinfo lines: a tmpfs (its source "tmpfs" must not be taken for a path),
# then the image as the source of a mount.
printf '%s\n' "22 1 0:21 / /dev/shm rw,nosuid - tmpfs tmpfs rw" \
	"36 22 7:0 / /mnt/karma rw,relatime shared:1 - omfs ${IMG// /\\040} rw" >"$W/mountinfo"
printf '%s\n' "22 1 0:21 / /dev/shm rw,nosuid - tmpfs tmpfs rw" >"$W/mountinfo-other"
touch "$W/tmpfs"	# a file of that name in the cwd: still not the tmpfs
before=$(sha256sum <"$IMG")
export KARMACTL_TEST_MOUNTINFO=$W/mountinfo
fails 1 "tag on a mounted disk is refused" kd tag 272 title=Again
cp "$ERR" refused.err
check "...saying where it is mounted" grep -q "is mounted on /mnt/karma" refused.err
fails 1 "...so is put with -i" kv --offset 16M put "$W/mountinfo" /x
fails 1 "...and mkfs" k mkfs "$IMG" --size 32M
fails 1 "...and eject" kd eject
same "...and the disk is untouched" "$before" "$(sha256sum <"$IMG")"
kd tracks >tracks.out 2>warned.err
report "tracks on a mounted disk works" $?
check "...with a warning" grep -q "warning: .* is mounted on /mnt/karma: what is read may be out of date" warned.err
same "...and the same tracks" "$(KARMACTL_TEST_MOUNTINFO=$W/mountinfo-other kv tracks)" \
	"$(cat tracks.out)"
KARMACTL_TEST_MOUNTINFO=$W/mountinfo-other kd tag 272 title=Again >/dev/null 2>tag.err
report "with other mounts only, tag works" $?
check "...and warns about nothing" test ! -s tag.err
unset KARMACTL_TEST_MOUNTINFO

# ---- eject ----

KARMACTL_STATS=1 ks eject >eject.out 2>"$ERR"
report "eject over --simulate" $?
same "...leaves the player in normal mode" normal "$(usb_stat mode "$ERR")"
same "...after enter, device info, leave, return to normal" 4 "$(usb_stat riop_commands "$ERR")"
check "...and says so" grep -q "left storage mode" eject.out
kd eject >eject.out 2>"$ERR"
report "eject with --device (a file)" $?
check "...says there is nothing to eject" grep -q "flushed (an image file: nothing to eject)" eject.out
fails 2 "eject without a player is a usage error" k eject
fails 2 "eject takes no argument" kd eject extra
status 0 "the disk verifies after it all" kv verify

tap_done
