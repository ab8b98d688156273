#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The partitions of a whole Karma disk: the file system commands work on
# the music partition by default and on the one -p names; fsck checks the
# label and both partitions and exits with the worst code; info shows the
# label and both partitions. Through the image, --simulate and --device on
# a loop device (when we may make one).  Speaks TAP.
#   bash tests/cli/test-partition-cli.sh PATH/TO/karmactl
set -u

. "$(dirname "${BASH_SOURCE[0]}")/tap.sh" "$@"
export LC_ALL=C.UTF-8

IMG=$W/disk.img
check "mkkarma --demo 3" k mkkarma "$IMG" --size 64M --demo 3
printf 'hello\n' >"$W/hello.txt"

# whole_disk NAME KARMACTL-OPTIONS...: the same checks through one way in
whole_disk() {
	local how=$1
	shift
	kd() { "$KARMACTL" "$@"; }
	same "$how: ls / is the music partition" "$(printf 'fids0/\nvar/')" "$(kd "$@" ls /)"
	same "$how: -p 2 is the same" "$(printf 'fids0/\nvar/')" "$(kd "$@" -p 2 ls /)"
	same "$how: --partition 1 is the system partition" "" "$(kd "$@" --partition 1 ls /)"
	check "$how: put on the whole disk" kd "$@" put "$W/hello.txt" /hello.txt
	same "$how: ...lands on the music partition" hello "$(k -i "$IMG" --offset 16M cat /hello.txt)"
	check "$how: rm it" kd "$@" rm /hello.txt
	check "$how: mkdir -p keeps -p for --parents" kd "$@" mkdir -p /d1/d2
	check "$how: rm -r" kd "$@" rm -r /d1
	check "$how: df" kd "$@" df
	kd "$@" fsck >"$W/fsck.out" 2>"$ERR"
	report "$how: fsck of the whole disk exits 0" $?
	same "$how: ...checks the label and both partitions" \
		"$(printf 'label: Karma partition label, 2 partitions\npartition 1: clean\npartition 2: clean')" \
		"$(sed 's/: [0-9]* files.*//' "$W/fsck.out")"
	same "$how: fsck -p 2 checks the music partition alone" clean \
		"$(kd "$@" -p 2 fsck | sed 's/: [0-9]* files.*//')"
	kd "$@" info >"$W/info.out" 2>"$ERR"
	report "$how: info of the whole disk" $?
	check "$how: ...shows the label" grep -q '^label  *Karma partition label, 2 partitions' "$W/info.out"
	check "$how: ...and both partitions" grep -q '^partition 2  *music: sectors 32768 to' "$W/info.out"
	same "$how: ...with each one's fields" "system music" \
		"$(grep '^r_name' "$W/info.out" | awk '{ print $2 }' | xargs)"
	same "$how: info -p 1 is the system partition's" system \
		"$(kd "$@" -p 1 info | awk '$1 == "r_name" { print $2 }')"
}

whole_disk "image" -i "$IMG"
whole_disk "simulate" --simulate -i "$IMG"
if [ "$(id -u)" = 0 ] && LOOP=$(losetup -f --show "$IMG" 2>/dev/null); then
	whole_disk "device" --device "$LOOP"
	losetup -d "$LOOP"
else
	echo "# no loop device (not root, or losetup failed): --device checks skipped"
fi

# ---- worst code; -p errors; a bare volume ----
cp "$IMG" "$W/broken.img"
# the system partition's superblock (sector 1) zeroed
dd if=/dev/zero of="$W/broken.img" bs=512 seek=1 count=1 conv=notrunc status=none
k -i "$W/broken.img" fsck >"$W/broken.out" 2>/dev/null
same "fsck of a disk with a broken partition exits with the worst code (4)" 4 $?
check "...reports the broken one" grep -q '^partition 1: error: block 0' "$W/broken.out"
check "...and still checks the other" grep -q '^partition 2: clean' "$W/broken.out"
status 0 "fsck -p 2 of that disk is clean" k -i "$W/broken.img" -p 2 fsck
check "ls still finds the music partition" k -i "$W/broken.img" ls /var
fails 2 "-p 3 is a usage error" k -i "$IMG" -p 3 ls /
k mkfs "$W/bare.img" --size 16M >/dev/null 2>&1
fails 1 "-p on a bare volume is refused" k -i "$W/bare.img" -p 2 ls /
status 0 "a bare volume works as before" k -i "$W/bare.img" fsck
same "...fsck reports it alone, no label" clean "$(k -i "$W/bare.img" fsck | sed 's/: [0-9]* files.*//')"
check "...info shows its fields" bash -c "'$KARMACTL' -i '$W/bare.img' info | grep -q '^s_name  *omfs'"
ntracks() { python3 -c 'import json, sys; print(len(json.load(sys.stdin)))'; }
same "tracks -p 2 (now a global option)" 3 "$(k -i "$IMG" tracks --json -p 2 | ntracks)"
same "tracks --partition 2 before the command" 3 "$(k --partition 2 -i "$IMG" tracks --json | ntracks)"
fails 1 "tracks -p 1 finds no library on the system partition" k -i "$IMG" -p 1 tracks

tap_done
