# shellcheck shell=sh
# Guest-side job (busybox sh, cwd = root of the mounted volume) for
# kernel-writes.sh: the kernel creates, writes, renames, deletes and makes
# directories.  /job/files/blob.bin comes from the host (>= 3 MiB).
# Within the kernel's limits (oracle/README.md): fixed-width names so that
# no name is a prefix of another in the same folder, rmdir of empty folders
# only, truncate only to 0, at most 97 extents per file.
set -e
B=/job/files/blob.bin
BS=$(stat -f -c %S .)

mkdir -p m/A001/B001 m/A002 d k
echo "hello omfs" > h001
printf x > d/one
: > d/empty
dd if=$B of=d/blk bs=$BS count=1 2>/dev/null

# a large file written in one go (one growing extent)
cp $B m/A001/B001/T001

# two files appended to in turn, 64 KiB at a time: each append lands after
# the other file's last run, so each append is a new extent (30 per file)
i=0
while [ $i -lt 30 ]; do
    dd if=$B bs=65536 skip=$i count=1 2>/dev/null >> m/A002/X001
    dd if=$B bs=65536 skip=$((i + 1)) count=1 2>/dev/null >> m/A002/X002
    i=$((i + 1))
done

# 120 names in one folder: shared hash buckets
for n in $(seq 1 120); do echo "file $n" > "k/$(printf 'M%03d' "$n")"; done

# same bucket (the hash folds case), different names (compare does not)
echo lower > d/casetest
echo upper > d/CaseTest

# renames: across folders, a multi-extent file, a folder, onto an existing file
mv h001 d/h002
mv m/A002/X002 m/A001/X003
mv m/A001/B001 m/A001/B002
echo old > d/V001
echo new > d/V002
mv d/V002 d/V001

# deletes, and an empty folder made and removed
echo tmp > d/T001
rm d/T001
rm k/M007 k/M100
mkdir g001
rmdir g001

# truncate to 0 (frees the blocks), then write again
echo "first version" > d/R001
: > d/R001
echo second >> d/R001
cp $B d/Z001
truncate -s 0 d/Z001
dd if=$B of=d/Z001 bs=1000 count=3 2>/dev/null

echo "block size $BS"
stat -f -c 'free blocks: %f' .
