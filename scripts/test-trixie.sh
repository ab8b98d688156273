#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test-trixie.sh [--prepare] - build and test in a Debian 13 (trixie) root.
#
# The root is made with debootstrap and cached in $KM_TRIXIE_ROOT (default
# /var/cache/karma-manager-trixie); the packages are installed in it by this
# clone's scripts/install-deps.sh, run inside the root, so the README's first
# command is proven on Debian 13 too.  The root is built in a temporary
# folder and renamed when complete (an interrupted run leaves no half root),
# and it is refreshed whenever install-deps.sh changes (a stamp holds its
# hash).  An exclusive lock guards making or refreshing it; builds hold a
# shared one, so two runs never change a root that another run is using.
#
# With --run COMMAND... it runs a command in the root, in the clone (/src),
# e.g. `--run meson test -C _build-trixie test-layout` while debugging.
# With --prepare it only makes or refreshes the root (scripts/test.sh runs
# that in the background at its start: it is network and dpkg bound, while
# the Debian 12 builds are CPU bound).  Without it, it then bind-mounts this
# clone into the root, builds `_build-trixie` with the default options and
# runs every suite except the kernel interop one (it needs qemu and the
# oracle's kernel, which the Debian 12 builds already run).  Run as root.
#
# Environment: KM_TRIXIE_ROOT, KM_TRIXIE_MIRROR (default
# http://deb.debian.org/debian), MESON_TEST_ARGS (extra `meson test`
# arguments).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CHROOT=${KM_TRIXIE_ROOT:-/var/cache/karma-manager-trixie}
MIRROR=${KM_TRIXIE_MIRROR:-http://deb.debian.org/debian}
LOCK=$CHROOT.lock
STAMP=$CHROOT/var/lib/karma-manager-deps.sha256
BUILD=_build-trixie

[ "$(id -u)" = 0 ] || { echo "test-trixie: run as root" >&2; exit 1; }

# in_root ROOT COMMAND...: run COMMAND in ROOT, in a private mount namespace
# so that its /proc, /dev, /sys and the clone's bind mount vanish with it
# (nothing to unmount, nothing left behind when killed).
in_root() {
    local root=$1
    shift
    cp /etc/resolv.conf "$root/etc/resolv.conf"
    mkdir -p "$root/src"
    unshare --mount --propagation private -- /bin/sh -euc '
        root=$1 src=$2
        shift 2
        mount -t proc proc "$root/proc"
        mount --rbind /dev "$root/dev"
        mount --rbind /sys "$root/sys"
        mount -t tmpfs tmpfs "$root/tmp"
        mount --bind "$src" "$root/src"
        exec chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
            HOME=/root LANG=C.UTF-8 TERM=dumb "$@"
    ' in_root "$root" "$ROOT" "$@"
}

deps_hash() {
    sha256sum <"$ROOT/scripts/install-deps.sh" | cut -d' ' -f1
}

# Make the root when missing, install the packages when install-deps.sh
# changed since it last ran there.  Holds the exclusive lock.
prepare_root() {
    exec 9>"$LOCK"
    flock 9
    if [ ! -x "$CHROOT/usr/bin/apt-get" ]; then
        local tmp=$CHROOT.new
        rm -rf "$tmp" "$CHROOT"
        echo "test-trixie: debootstrap trixie into $tmp"
        debootstrap --variant=minbase trixie "$tmp" "$MIRROR" >"$CHROOT.debootstrap.log" 2>&1 ||
            { tail -n 20 "$CHROOT.debootstrap.log"; echo "test-trixie: debootstrap failed" >&2; return 1; }
        mv "$tmp" "$CHROOT"
    fi
    if [ "$(cat "$STAMP" 2>/dev/null)" != "$(deps_hash)" ]; then
        echo "test-trixie: running install-deps.sh in the root"
        in_root "$CHROOT" /src/scripts/install-deps.sh
        deps_hash >"$STAMP"
    fi
    echo "test-trixie: the root is ready ($(cat "$CHROOT/etc/debian_version"))"
    exec 9>&-
}

build_and_test() {
    exec 9>"$LOCK"
    flock --shared 9
    [ "$(cat "$STAMP" 2>/dev/null)" = "$(deps_hash)" ] ||
        { echo "test-trixie: the root is not ready" >&2; return 1; }
    rm -f "$ROOT/$BUILD/meson-logs/testlog.json"
    # shellcheck disable=SC2016
    in_root "$CHROOT" /bin/sh -ec '
        cd /src
        scripts/build.sh "$1"
        # $2 is MESON_TEST_ARGS, split into words on purpose
        # shellcheck disable=SC2086
        meson test -C "$1" --print-errorlogs --no-suite interop $2
    ' sh "$BUILD" "${MESON_TEST_ARGS:-}"
}

prepare_root
case "${1:-}" in
--prepare) ;;
--run)  # --run COMMAND...: run a command in the root, in the clone (/src)
    shift
    exec 9>"$LOCK"
    flock --shared 9
    in_root "$CHROOT" /bin/sh -c 'cd /src && exec "$@"' sh "$@"
    ;;
*) build_and_test ;;
esac
