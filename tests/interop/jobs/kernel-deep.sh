# shellcheck shell=sh
# Guest-side job (busybox sh, cwd = root of the mounted volume) for
# deep-trees.sh: the kernel makes a folder path 60 levels deep, kdeep/L01/
# L02/.../L60, with a file Fnn at the depths 1, 15, 30, 45 and 60.
set -e
p=kdeep
for i in $(seq 1 60); do
    p=$p/$(printf 'L%02d' "$i")
    mkdir -p "$p"
    case $i in 1|15|30|45|60) echo "kernel file at depth $i" > "$p/$(printf 'F%02d' "$i")" ;; esac
done
echo "deepest: $p"
