#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# build.sh [BUILDDIR [MESON OPTIONS...]] - configure (once; reconfigure
# after) and build.  BUILDDIR defaults to ./_build.  Does not install
# packages: scripts/install-deps.sh does.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dir=${1:-$ROOT/_build}
[ $# -gt 0 ] && shift
if [ -f "$dir/build.ninja" ]; then
    meson setup --reconfigure "$dir" "$ROOT" "$@"
else
    meson setup "$dir" "$ROOT" "$@"
fi
ninja -C "$dir"
