#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# One writer at a time: two karmactl writers at once lose nothing (one is
# refused with exit status 3 and who holds the image, or waits with --wait),
# a reader is refused during a write and readers run side by side, kill -9
# of the holder releases the image, and a disk node held by another program
# (O_EXCL, on a loop device when we may make one) is refused.  Speaks TAP.
#   bash tests/cli/test-lock-cli.sh PATH/TO/karmactl
set -u

. "$(dirname "${BASH_SOURCE[0]}")/tap.sh" "$@"
export LC_ALL=C.UTF-8

# wavs DIR N SEED: N distinct 0.2 s WAV files
wavs() {
	python3 - "$@" <<'EOF'
import os, random, struct, sys, wave
d, n, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
os.makedirs(d, exist_ok=True)
rnd = random.Random(seed)
for i in range(n):
    with wave.open(os.path.join(d, "t%03d.wav" % i), "wb") as w:
        w.setnchannels(1); w.setsampwidth(2); w.setframerate(8000)
        w.writeframes(bytes(rnd.getrandbits(8) for _ in range(3200)))
EOF
}

# until_held IMAGE: waits (5 s at most) until a reader of IMAGE is refused
until_held() {
	for _ in $(seq 50); do
		"$KARMACTL" -i "$1" ls / >/dev/null 2>&1
		[ $? = 3 ] && return 0
		sleep 0.1
	done
	return 1
}

ntracks() { kv tracks --json | python3 -c 'import json, sys; print(len(json.load(sys.stdin)))'; }

IMG=$W/disk.img
check "mkkarma" k mkkarma "$IMG" --size 64M
wavs "$W/a" 40 1
wavs "$W/b" 40 2

# ---- two writers started at the same moment ----
kv --wait add -r "$W/a" >"$W/add-a.out" 2>&1 &
pa=$!
kv --wait add -r "$W/b" >"$W/add-b.out" 2>&1 &
pb=$!
wait $pa
ra=$?
wait $pb
rb=$?
same "two add -r --wait at once both succeed" "0 0" "$ra $rb"
same "...and the player holds all 80 tracks" 80 "$(ntracks)"
status 0 "...verify calls it clean" kv verify
check "...fsck calls it clean" kv fsck

# without --wait: one may be refused, but nothing is lost
IMG=$W/race.img
check "mkkarma a second disk" k mkkarma "$IMG" --size 64M
"$KARMACTL" -i "$IMG" add -r "$W/a" >/dev/null 2>"$W/race-a.err" &
pa=$!
"$KARMACTL" -i "$IMG" add -r "$W/b" >/dev/null 2>"$W/race-b.err" &
pb=$!
wait $pa
ra=$?
wait $pb
rb=$?
echo "# exit statuses: $ra $rb"
expected=$(( (ra == 0 ? 40 : 0) + (rb == 0 ? 40 : 0) ))
check "each writer succeeds or is refused with 3" \
	bash -c "[[ $ra =~ ^(0|3)\$ && $rb =~ ^(0|3)\$ ]]"
same "the tracks of every writer that succeeded are there" "$expected" "$(ntracks)"
check "a refused writer says who holds the image" \
	bash -c "{ [ $ra = 0 ] || grep -q 'is in use by karmactl, pid $pb' '$W/race-a.err'; } &&
		{ [ $rb = 0 ] || grep -q 'is in use by karmactl, pid $pa' '$W/race-b.err'; }"
check "fsck is clean after the race" kv fsck

# ---- a holder that writes for a while: the simulated player in real time ----
IMG=$W/vol.img
check "mkfs" k mkfs "$IMG" --size 96M
head -c 60000000 /dev/urandom >"$W/big.bin"
KARMACTL_SIM_REAL_TIME=1 "$KARMACTL" --simulate -i "$IMG" put "$W/big.bin" /big.bin 2>"$W/holder.err" &
holder=$!
check "the writer holds the image" until_held "$IMG"
kv put "$W/a/t000.wav" /second.wav 2>"$W/second.err"
rc=$?
same "a second writer is refused at once with exit status 3" 3 "$rc"
check "...saying who holds it" grep -q "is in use by karmactl, pid $holder" "$W/second.err"
fails 3 "a reader is refused during the write" kv ls /
fails 8 "fsck during the write exits 8, as e2fsck" kv fsck
kv --wait put "$W/a/t001.wav" /waited.wav 2>"$W/wait.err"
rc=$?
wait $holder
same "--wait waits for the writer, then writes" "0" "$rc"
check "...and said it was waiting" grep -q "waiting: .* is in use by karmactl" "$W/wait.err"
same "both writers' files are there" "$(printf 'big.bin\nwaited.wav')" "$(kv ls /)"
check "the big file is whole" bash -c "'$KARMACTL' -i '$IMG' cat /big.bin | cmp - '$W/big.bin'"

# ---- readers side by side ----
kv cat /big.bin | { sleep 2; cat >/dev/null; } &
reader=$!
sleep 0.5
same "a reader runs beside another reader" "$(printf 'big.bin\nwaited.wav')" "$(kv ls /)"
fails 3 "a writer is refused while a reader reads" kv rm /waited.wav
wait $reader

# ---- kill -9 of the holder releases the image ----
KARMACTL_SIM_REAL_TIME=1 "$KARMACTL" --simulate -i "$IMG" put "$W/big.bin" /big2.bin 2>/dev/null &
holder=$!
check "a new writer holds the image" until_held "$IMG"
kill -9 $holder
wait $holder 2>/dev/null
check "after kill -9 of the holder, a writer gets in at once" kv rm /waited.wav
check "fsck --repair tidies what the killed writer left" \
	bash -c "'$KARMACTL' -i '$IMG' fsck --repair >/dev/null; [ \$? -le 1 ]"
check "...then fsck is clean" kv fsck

# ---- a disk node another program holds with O_EXCL (a loop device) ----
if [ "$(id -u)" = 0 ] && LOOP=$(losetup -f --show "$IMG" 2>/dev/null); then
	python3 -c "import os, sys, time; fd = os.open('$LOOP', os.O_RDWR | os.O_EXCL); print('held', flush=True); time.sleep(30)" >"$W/excl.out" &
	excl=$!
	for _ in $(seq 50); do grep -q held "$W/excl.out" && break; sleep 0.1; done
	fails 3 "--device: a writer is refused while another program holds the disk" \
		k --device "$LOOP" put "$W/a/t002.wav" /x.wav
	check "...a reader still reads" k --device "$LOOP" ls /
	kill $excl
	wait $excl 2>/dev/null
	check "--device: the writer gets in once it is free" k --device "$LOOP" put "$W/a/t002.wav" /x.wav
	check "--device: fsck of a loop device" k --device "$LOOP" fsck
	losetup -d "$LOOP"
else
	echo "# no loop device (not root, or losetup failed): O_EXCL checks skipped"
fi

tap_done
