# shellcheck shell=sh
# Guest-side job (busybox sh, cwd = root of the mounted volume) for
# hash-buckets.sh.  /job/files/names.txt: 60 names that share one hash
# bucket (line N = name N).  B/ holds names 1-40 but for those the host
# deleted (1, 20, 21, 40).  The kernel:
#   - prints the sha256 of every file in B/ as it finds them (before changes);
#   - makes K/ with names 1-40 and deletes 1, 20, 21 and 40 of them (the
#     tail, the middle and the head of its chain);
#   - in our chain B/: deletes names 10 and 30, adds names 41-50.
set -e
name() { sed -n "${1}p" /job/files/names.txt; }
echo "--- B before"
for f in B/*; do sha256sum "$f"; done
mkdir K
for i in $(seq 1 40); do echo "kernel $i" > "K/$(name $i)"; done
for i in 1 20 21 40; do rm "K/$(name $i)"; done
for i in 10 30; do rm "B/$(name $i)"; done
for i in $(seq 41 50); do echo "kernel in ours $i" > "B/$(name $i)"; done
echo "--- done"
