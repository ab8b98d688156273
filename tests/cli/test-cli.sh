#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# karmactl end to end, on fresh image files.  Speaks TAP.
#   bash tests/cli/test-cli.sh PATH/TO/karmactl
set -u

. "$(dirname "${BASH_SOURCE[0]}")/tap.sh" "$@"
export LC_ALL=C

field() { kv info | awk -v f="$1" '$1 == f { print $2 }'; }
free_blocks() { kv df | awk '/^free blocks:/ { print $3 }'; }

# The manifest karmactl must print for a host tree copied to PREFIX on the
# volume: the oracle's format (paths from "/", directories sized
# sys_blocksize with "-" as hash), sorted in byte order.
host_manifest() {	# DIR PREFIX SYS_BLOCKSIZE
	local p
	(
		cd "$1" || exit 1
		find . -mindepth 1 | while IFS= read -r p; do
			if [ -d "$p" ]; then
				printf '%s\td\t%s\t-\n' "$2${p#.}" "$3"
			else
				printf '%s\tf\t%s\t%s\n' "$2${p#.}" "$(stat -c %s "$p")" \
					"$(sha256sum <"$p" | cut -d' ' -f1)"
			fi
		done
	) | sort
}

# ---- mkfs ----

IMG=$W/default.img
check "mkfs with the defaults" k mkfs "$IMG" --size 64M
same "info: blocksize 8192" 8192 "$(field s_blocksize)"
same "info: sys_blocksize 2048" 2048 "$(field s_sys_blocksize)"
same "info: 2 mirrors" 2 "$(field s_mirrors)"
same "info: clustersize 8" 8 "$(field r_clustersize)"
same "info: label omfs" omfs "$(field r_name)"
same "info: 8192 blocks" 8192 "$(field s_num_blocks)"
same "info: root checksum ok" yes "$(field root_checksum_ok)"
same "image is 64 MiB" 67108864 "$(stat -c %s "$IMG")"
check "image is sparse" test "$(stat -c %b "$IMG")" -lt 16384
check "fsck of a fresh volume exits 0" kv fsck
check "manifest of a fresh volume is empty" test -z "$(kv manifest)"

IMG4=$W/4k.img
check "mkfs with non-default options" \
	k mkfs "$IMG4" --size 32M --blocksize 4096 --clustersize 4 --label Karma
IMG=$IMG4
same "info: blocksize 4096" 4096 "$(field s_blocksize)"
same "info: clustersize 4" 4 "$(field r_clustersize)"
same "info: label Karma" Karma "$(field r_name)"
same "info: 8192 blocks of 4 KiB" 8192 "$(field s_num_blocks)"
IMG=$W/default.img
check "mkfs resizes an existing image" k mkfs "$IMG4" --size 16M --blocksize 4096
same "resized image is 16 MiB" 16777216 "$(stat -c %s "$IMG4")"
check "fsck of the 4 KiB volume exits 0" k -i "$IMG4" fsck
fails 2 "mkfs of a missing image without --size is a usage error" k mkfs "$W/none.img"
fails 2 "mkfs with a bad size is a usage error" k mkfs "$W/x.img" --size 12Q

# ---- put and get ----

mkdir src
for size in 0 1 2047 8192 100000 1048579 9437187; do
	head -c "$size" /dev/urandom >"src/f$size"
done
free0=$(free_blocks)
for size in 0 1 2047 8192 100000 1048579 9437187; do
	check "put a file of $size bytes" kv put "src/f$size" "/f$size"
done
mkdir out
for size in 0 1 2047 8192 100000 1048579 9437187; do
	check "get returns the $size bytes" kv get "/f$size" "out/f$size"
	check "the $size bytes are intact" cmp "src/f$size" "out/f$size"
done
check "cat returns the same bytes" cmp <(kv cat /f1048579) src/f1048579
check "get into an existing directory keeps the name" kv get /f2047 out
check "...as out/f2047" cmp src/f2047 out/f2047
free1=$(free_blocks)
check "df: free blocks went down by at least the data" \
	test $((free0 - free1)) -ge $(((10665034 + 8191) / 8192))

# the same file, replaced by a smaller and then a bigger one
head -c 5000 /dev/urandom >small
check "put replaces an existing file" kv put small /f9437187
check "...with the new contents" cmp small <(kv cat /f9437187)
check "df: the old blocks came back" test "$(free_blocks)" -gt $((free1 + 1000))
check "put replaces it by a bigger file" kv put src/f1048579 /f9437187
check "...with the new contents" cmp src/f1048579 <(kv cat /f9437187)
check "put into an existing directory keeps the name" kv put small /
check "...as /small" cmp small <(kv cat /small)

# a copy that does not fit fails cleanly and leaves nothing half-written
free_before=$(free_blocks)
head -c 80M /dev/zero >toobig
fails 1 "put of a file larger than the free space fails" kv put toobig /toobig
check "...and leaves no partial file" test -z "$(kv manifest | grep /toobig)"
same "...and gives every block back" "$free_before" "$(free_blocks)"
rm -f toobig

# put onto an existing file that the new contents cannot fit: the old file
# stays as it was (it used to be emptied, then removed with the failed copy)
head -c 300000 /dev/urandom >keep
check "put a file to keep" kv put keep /keep
head -c $(( (free_before + 100) * $(field s_blocksize) )) /dev/zero >toobig
fails 1 "put of a file larger than the free space onto it fails" kv put toobig /keep
check "...and says why, before touching it" eval \
	"kv put toobig /keep 2>&1 | grep -q 'No space left on device.*left as it was'"
check "...and leaves the old file as it was" cmp keep <(kv cat /keep)
check "...and fsck finds the volume clean" kv fsck
rm -f toobig keep

# a tree
mkdir -p tree/artist/album1 tree/artist/album2 tree/empty tree/other
for i in 1 2 3; do
	head -c $((i * 70001)) /dev/urandom >"tree/artist/album1/track$i.mp3"
	head -c $((i * 333)) /dev/urandom >"tree/artist/album2/track$i.ogg"
done
echo "notes" >tree/other/readme.txt
check "put -r copies a tree to a new path" kv put -r tree /music
check "get -r copies it back into an existing directory" kv get -r /music out
check "...identical to the source (diff -r)" diff -r tree out/music
check "put -r into an existing directory lands inside it" kv put -r tree /music
check "...as /music/tree" kv ls /music/tree/artist/album1
check "get -r of /music/tree to a new name" kv get -r /music/tree out/copy2
check "...identical to the source" diff -r tree out/copy2
check "put -r SRC/. merges into an existing directory" kv put -r tree/. /music/tree
check "fsck of a filled volume exits 0" kv fsck

# ---- mkdir, mv, rm, truncate ----

check "mkdir -p makes every level" kv mkdir -p /a/b/c/d
check "mkdir -p of an existing directory succeeds" kv mkdir -p /a/b
check "mkdir of a new directory" kv mkdir /a/new
fails 1 "mkdir of an existing directory fails" kv mkdir /a/b
fails 1 "mkdir with a missing parent fails" kv mkdir /nope/x
fails 1 "mkdir -p through a file fails" kv mkdir -p /small/x

check "mv renames a file" kv mv /small /small2
fails 1 "...the old name is gone" kv cat /small
check "...the new name has the data" cmp small <(kv cat /small2)
check "mv into an existing directory" kv mv /small2 /a/b
check "...lands inside it" cmp small <(kv cat /a/b/small2)
check "mv renames a directory" kv mv /a/b /a/bee
check "...with its contents" cmp small <(kv cat /a/bee/small2)
check "mv replaces an existing file" kv mv /f1 /f2047
check "...which now holds the moved data" cmp src/f1 <(kv cat /f2047)
fails 1 "mv of a missing path fails" kv mv /missing /x

fails 1 "rm of a directory needs -r" kv rm /a
check "rm removes a file" kv rm /f0
fails 1 "...which is gone" kv cat /f0
check "rm -r removes a tree" kv rm -r /a
fails 1 "...which is gone" kv ls /a
fails 1 "rm of a missing path fails" kv rm /missing
fails 1 "rm of the root fails" kv rm -r /

check "truncate shrinks a file" kv truncate /f100000 1000
check "...to its first 1000 bytes" cmp <(head -c 1000 src/f100000) <(kv cat /f100000)
cp src/f100000 expect && truncate -s 1000 expect && truncate -s 300K expect
check "truncate grows a file with zeros" kv truncate /f100000 300K
check "...as truncate(1) does" cmp expect <(kv cat /f100000)
check "truncate creates a missing file" kv truncate /new 10
same "...of the asked size" 10 "$(kv cat /new | wc -c)"
fails 1 "truncate of a directory fails" kv truncate /music 0
fails 2 "truncate with a bad size is a usage error" kv truncate /new 1X

# ---- ls ----

check "ls -R runs" kv ls -R /music/tree
same "ls -R lists each directory, sorted, directories marked" "/music/tree:
artist/
empty/
other/

/music/tree/artist:
album1/
album2/

/music/tree/artist/album1:
track1.mp3
track2.mp3
track3.mp3

/music/tree/artist/album2:
track1.ogg
track2.ogg
track3.ogg

/music/tree/empty:

/music/tree/other:
readme.txt" "$(kv ls -R /music/tree)"
same "ls -l shows type and size" "- 210003 track3.mp3" \
	"$(kv ls -l /music/tree/artist/album1 | awk '$NF == "track3.mp3" { print $1, $2, $NF }')"
same "ls -lR shows directories as d with size sys_blocksize" "d 2048 album2" \
	"$(kv ls -lR /music | awk '$NF == "album2" { print $1, $2, $NF; exit }')"
same "ls of a file shows the file" "/f8192" "$(kv ls /f8192)"
fails 1 "ls of a missing path fails" kv ls /missing
fails 2 "ls with an unknown option is a usage error" kv ls -x

# ---- manifest ----

IMG=$W/manifest.img
check "mkfs for the manifest test" k mkfs "$IMG" --size 64M
check "put -r the tree" kv put -r tree /music
check "put a single file" kv put src/f100000 /top.bin
{ printf '/music\td\t2048\t-\n'; host_manifest tree /music 2048
  printf '/top.bin\tf\t100000\t%s\n' "$(sha256sum <src/f100000 | cut -d' ' -f1)"; } |
	sort >expect.tsv
kv manifest >got.tsv 2>"$ERR"
report "manifest runs" $?
check "manifest matches sha256sum of the sources" diff expect.tsv got.tsv

# ---- df ----

f0=$(free_blocks)
head -c 1M /dev/urandom >onemeg
check "put 1 MiB" kv put onemeg /onemeg
f1=$(free_blocks)
check "df: 1 MiB took at least 128 blocks" test $((f0 - f1)) -ge 128
check "df: ...and not much more (cluster 8, inode 2)" test $((f0 - f1)) -le 144
check "rm it" kv rm /onemeg
same "df: free blocks are back" "$f0" "$(free_blocks)"
same "df: used + free = total" "$(kv df | awk '/^total blocks:/ { print $3 }')" \
	"$(kv df | awk '/^used blocks:/ { u = $3 } /^free blocks:/ { f = $3 } END { print u + f }')"
check "fsck after all that exits 0" kv fsck

# ---- errors ----

fails 1 "a missing image fails" k -i "$W/none.img" ls
head -c 1M /dev/urandom >garbage.img
fails 1 "an image that is not OMFS fails" k -i garbage.img ls
k -i garbage.img fsck >/dev/null 2>&1
rc=$?
check "fsck of garbage reports errors (exit 4 or 8)" test "$rc" = 4 -o "$rc" = 8
fails 1 "cat of a missing path fails" kv cat /missing
fails 1 "cat of a directory fails" kv cat /music
fails 1 "get of a missing path fails" kv get /missing out/x
fails 1 "get of a directory needs -r" kv get /music out/x
fails 1 "put of a missing source fails" kv put "$W/none" /x
fails 1 "put of a directory needs -r" kv put tree /x
fails 1 "put into a missing directory fails" kv put small /no/such/x
fails 2 "a volume command without -i is a usage error" k ls
fails 2 "an unknown command is a usage error" k frobnicate
fails 2 "a missing argument is a usage error" kv cat
fails 2 "an extra argument is a usage error" kv cat /a /b
check "karmactl --help" k --help
check "karmactl put --help" k put --help
same "--help lists the commands" 13 \
	"$(k --help | grep -cE '^  (mkfs|ls|cat|get|put|mkdir|rm|mv|truncate|df|fsck|info|manifest) ')"

# ---- a volume at 1 MiB inside a larger image ----

BIG=$W/big.img
head -c 1M /dev/urandom >prefix
cp prefix "$BIG"
check "mkfs --offset 1M inside an existing file" k --offset 1M mkfs "$BIG" --size 32M
same "the file grew to offset + size" $((33 << 20)) "$(stat -c %s "$BIG")"
check "put with --offset" k -i "$BIG" --offset 1M put src/f100000 /x
check "cat with --offset" cmp src/f100000 <(k -i "$BIG" --offset 1048576 cat /x)
check "fsck with --offset" k -i "$BIG" --offset 1M fsck
check "the first MiB is untouched" cmp prefix <(head -c 1M "$BIG")
fails 1 "without --offset there is no volume" k -i "$BIG" ls
fails 2 "a bad --offset is a usage error" k -i "$BIG" --offset x ls

# ---- karmactl without its Karma module (src/cli/kc-module.h) ----

# The file system commands load none of the module's libraries, and need
# no module at all: a lone copy of karmactl runs them.
if command -v ldd >/dev/null; then
	ldd "$KARMACTL" >libs.txt
	check "karmactl loads no gio, gobject, gudev, udev, libusb or GStreamer" \
		bash -c '! grep -E "lib(gio|gobject|gudev|udev|usb|gst)[-.]" libs.txt'
fi
mkdir lone && cp "$KARMACTL" lone/
check "a lone karmactl lists a volume" lone/karmactl -i "$IMG" ls /
if lone/karmactl -i "$IMG" tracks >/dev/null 2>tracks.err; then
	echo "# a module is installed, and the lone karmactl loaded it"
else
	check "...and a Karma command fails, naming the module file it tried" grep -qE \
		'^karmactl: tracks: cannot load the module of the Karma commands: /.+/karmactl-karma\.so: ' \
		tracks.err
fi

# A module of another version (an install over an older one) is refused by
# its version, before its table is used.
mkdir other && cp "$KARMACTL" other/
cp "${KC_OTHER_VERSION_MODULE:-/nonexistent}" other/karmactl-karma.so
report "a module of another version (tests/cli/other-version-module.c)" $?
fails 1 "...is refused" other/karmactl -i "$IMG" tracks
cp "$ERR" other.err
check "...naming the file and both versions" grep -qE \
	'^karmactl: tracks: the module of the Karma commands, /.+/other/karmactl-karma\.so, is from Karma Manager 0\.0\.0-other, karmactl from [0-9]' \
	other.err

# ---- KARMACTL_STATS ----

KARMACTL_STATS=1 "$KARMACTL" -i "$IMG" cat /top.bin >/dev/null 2>stats.txt
report "KARMACTL_STATS=1 runs" $?
check "...and prints the counters" grep -q 'read_requests=[1-9][0-9]* .*requests_per_mib=' stats.txt

tap_done
