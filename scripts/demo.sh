#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# demo.sh [--cli] - build, then start Karma Manager on the demo player (as
# root on Debian 12: it installs what it needs with apt).
#
# The demo player is a whole Karma disk in an image file with 20 generated
# tracks, made on first use in the user's cache folder
# (~/.cache/karma-manager/demo-karma.img). `karma-manager --demo` opens it.
# --cli shows the same kind of player with karmactl instead (no display
# needed): a fresh image KM_BUILD/demo/player.img, its tracks and a check.
# Environment: KM_BUILD (default ./_build).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${KM_BUILD:-$ROOT/_build}

"$ROOT/scripts/install-deps.sh"
"$ROOT/scripts/build.sh" "$BUILD"

if [ "${1:-}" = --cli ]; then
    KARMACTL=$BUILD/src/cli/karmactl
    IMG=$BUILD/demo/player.img
    mkdir -p "$(dirname "$IMG")"
    rm -f "$IMG"
    set -x
    "$KARMACTL" mkkarma "$IMG" --size 256M --demo 20
    "$KARMACTL" -i "$IMG" tracks "The "
    "$KARMACTL" -i "$IMG" verify
    exit 0
fi

APP=$BUILD/src/app/karma-manager
[ -x "$APP" ] || { echo "demo.sh: $APP was not built" >&2; exit 1; }
# Run from the build folder: the settings schema compiled there.
export GSETTINGS_SCHEMA_DIR=$BUILD/data
echo "Starting Karma Manager on the demo player (karma-manager --demo)"
exec "$APP" --demo
