# shellcheck shell=sh
# Guest-side job (busybox sh, cwd = root of a Karma music partition) for
# kernel-copy-riocp.sh: the kernel copies the library (fids0/ and var/) into
# a new folder of the same volume with `cp -a`.
set -e
mkdir kcopy
cp -a fids0 var kcopy/
stat -f -c 'free blocks: %f' .
