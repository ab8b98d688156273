#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# karmactl backup and restore end to end, on demo Karma disks; the checksum
# checked with coreutils' sha256sum, the result with fsck, verify and cmp.
#   bash tests/cli/test-backup-cli.sh PATH/TO/karmactl
set -u

. "$(dirname "${BASH_SOURCE[0]}")/tap.sh" "$@"
export LC_ALL=C.UTF-8

DISK=$W/disk.img
check "a demo disk with 30 tracks" k mkkarma "$DISK" --size 96M --demo 30
check "backup --to" k -i "$DISK" backup --to "$W/b.img"
same "the backup has the disk's size" "$(stat -c %s "$DISK")" "$(stat -c %s "$W/b.img")"
check "the backup is sparse (under a quarter allocated)" \
	test $(($(stat -c %b "$W/b.img") * 512)) -lt $(($(stat -c %s "$W/b.img") / 4))
check "sha256sum -c agrees with b.img.sha256" sh -c "cd '$W' && sha256sum -c b.img.sha256"
check "backup --verify" k backup --verify "$W/b.img"
check "the backup's music partition verifies" k -i "$W/b.img" verify
same "the backup lists the same tracks" "$(k -i "$DISK" tracks --json)" "$(k -i "$W/b.img" tracks --json)"
fails 1 "a second backup to the same file is refused" k -i "$DISK" backup --to "$W/b.img"
fails 2 "backup needs --to or --verify" k -i "$DISK" backup

# through the simulated Karma: the whole USB protocol stack, the same bytes
check "backup --simulate (over the simulated player)" k --simulate -i "$DISK" backup --to "$W/sim.img"
same "...has the same checksum" "$(cut -d' ' -f1 "$W/b.img.sha256")" "$(cut -d' ' -f1 "$W/sim.img.sha256")"
check "backup --all reads every block" k -i "$DISK" backup --all --to "$W/all.img"
check "...and is a good backup too" k backup --verify "$W/all.img"

# restore onto a disk that changed since: it comes back as it was
check "a disk with other content" k mkkarma "$W/other.img" --size 96M --demo 5
check "restore --from onto it" k -i "$W/other.img" restore --from "$W/b.img"
same "it lists the backed-up tracks" "$(k -i "$DISK" tracks --json)" "$(k -i "$W/other.img" tracks --json)"
check "and verifies clean" k -i "$W/other.img" verify
check "and fscks clean" k -i "$W/other.img" --offset 16M fsck
same "the label and system partition are the same bytes" \
	"$(head -c 16M "$DISK" | sha256sum)" "$(head -c 16M "$W/other.img" | sha256sum)"
check "restore --simulate onto a changed disk" k mkkarma "$W/other2.img" --size 96M --demo 2
check "...through the simulated player" k --simulate -i "$W/other2.img" restore --from "$W/sim.img"
same "...lists the backed-up tracks" "$(k -i "$DISK" tracks --json)" "$(k -i "$W/other2.img" tracks --json)"
check "restoring again writes nothing" sh -c \
	"'$KARMACTL' -i '$W/other.img' restore --from '$W/b.img' | grep -q ' 0 written'"

# refusals
check "a disk of another size" k mkkarma "$W/big.img" --size 128M
fails 1 "restore of a backup of another size is refused" k -i "$W/big.img" restore --from "$W/b.img"
cp --sparse=always "$W/b.img" "$W/bad.img"
sed "s/b.img/bad.img/" "$W/b.img.sha256" >"$W/bad.img.sha256"
printf '\xff' | dd of="$W/bad.img" bs=1 seek=$((16 * 1048576 + 300000)) conv=notrunc 2>/dev/null
fails 1 "backup --verify finds a damaged backup" k backup --verify "$W/bad.img"
fails 1 "restore of a damaged backup is refused" k -i "$W/other.img" restore --from "$W/bad.img"
check "...and the target still verifies" k -i "$W/other.img" verify

tap_done
