# shellcheck shell=sh
# Guest-side job (busybox sh, cwd = root of the mounted volume) for
# extent-limit.sh: the kernel writes two files of exactly 97 extents (the
# most its inode's table holds) by appending 64 KiB to each in turn, so that
# every append starts a new extent; then a 98th extent, which it refuses.
# /job/files/src.bin comes from the host (>= 98 * 64 KiB + 64 KiB).
set -e
S=/job/files/src.bin
i=0
while [ $i -lt 97 ]; do
    dd if=$S bs=65536 skip=$i count=1 2>/dev/null >> KA
    dd if=$S bs=65536 skip=$((i + 1)) count=1 2>/dev/null >> KB
    i=$((i + 1))
done
free=$(stat -f -c %f .)
if dd if=$S bs=65536 skip=97 count=1 2>/dev/null >> KA; then
    echo "98th extent: written"
else
    echo "98th extent: refused"
fi
echo "KA size after: $(stat -c %s KA)"
echo "free blocks: $free before, $(stat -f -c %f .) after the 98th"
