# shellcheck shell=sh
# Guest-side job (busybox sh, cwd = root of the mounted volume) for
# near-full.sh: the kernel fills what is free, with files of 256 KiB, then
# 8 KiB, then 1 byte, each size until a write fails, and reports the free
# blocks.  (This kernel fails a write that finds no free block with EIO, and
# a create with no room for an inode with ENOSPC.)  /job/files/src.bin comes
# from the host (>= 256 KiB).
S=/job/files/src.bin
mkdir kfill || exit 1
fill() {  # fill PREFIX BYTES: files of BYTES until one cannot be written
    n=0
    while [ $n -lt 2000 ]; do
        n=$((n + 1))
        f=kfill/$1$(printf '%04d' $n)
        if ! head -c $2 $S > $f 2> /tmp/err; then
            echo "$f: $(cat /tmp/err)"
            return 0
        fi
    done
    echo "$1: never full"
    return 1
}
fill A 262144 && fill B 8192 && fill C 1 || exit 1
sync
echo "free blocks at the end: $(stat -f -c %f .)"
