#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tour.sh OUTDIR [WIDTH...] - the scripted tour (tests/app/tour.c): the app
# as a new user walks through it, a PNG per step in OUTDIR/WIDTH/, at 1280,
# 800 and 400 px unless widths are given.  Runs the build in $BUILD
# (default _build) under Xvfb with the GUI tests' environment (settings in
# memory, the build's schema, X11, no GL) and a fresh cache folder (the demo
# player's image).  Look at every picture; docs/screenshots/ holds the few
# the README shows.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$ROOT/_build}
[ $# -ge 1 ] || { echo "usage: tour.sh OUTDIR [WIDTH...]" >&2; exit 2; }
out=$(realpath -m "$1")
shift
ninja -C "$BUILD" tests/app/tour data/gschemas.compiled >/dev/null
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
mkdir -p "$out"
XDG_CACHE_HOME=$cache GSETTINGS_BACKEND=memory GSETTINGS_SCHEMA_DIR=$BUILD/data \
GDK_BACKEND=x11 GTK_A11Y=none NO_AT_BRIDGE=1 GSK_RENDERER=cairo \
GDK_DEBUG=default-settings,gl-disable GIO_USE_VFS=local \
    xvfb-run -a -s '-screen 0 1600x1000x24' dbus-run-session -- \
    "$BUILD/tests/app/tour" "$out" "$@"
