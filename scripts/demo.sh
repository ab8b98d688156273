#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# demo.sh - build, then start Karma Manager on a demo player (as root on
# Debian 12: it installs what it needs with apt).
#
# Until the GUI lands, "the app" is karmactl and "the demo player" is a
# whole Karma disk in an image file: demo.sh makes one with 20 generated
# tracks (karmactl mkkarma --demo 20) and shows its library and volume.
# Environment: KM_BUILD (default ./_build), KM_DEMO_IMAGE (default
# KM_BUILD/demo/player.img; made afresh on every run).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${KM_BUILD:-$ROOT/_build}
IMG=${KM_DEMO_IMAGE:-$BUILD/demo/player.img}

"$ROOT/scripts/install-deps.sh"
"$ROOT/scripts/build.sh" "$BUILD"
KARMACTL=$BUILD/src/cli/karmactl
[ -x "$KARMACTL" ] || { echo "demo.sh: $KARMACTL was not built" >&2; exit 1; }

# What the demo does, echoed as it runs.
run() {
    printf '$ karmactl'
    printf ' %q' "$@"
    echo
    "$KARMACTL" "$@"
    echo
}

mkdir -p "$(dirname "$IMG")"
rm -f "$IMG"
# A whole Karma disk: the label, a system partition and the music partition
# (at 16 MiB) with 20 generated tracks, their properties and var/smalldb.
run mkkarma "$IMG" --size 256M --demo 20
run -i "$IMG" tracks "The "
run -i "$IMG" tracks --json jazz
run -i "$IMG" verify
# The music partition is an OMFS volume: the OMFS-level commands reach it.
run -i "$IMG" --offset 16M ls -R /var
run -i "$IMG" --offset 16M df
run -i "$IMG" --offset 16M fsck
echo "The demo player is $IMG. Try, for example:"
echo "  $KARMACTL -i $IMG tracks"
echo "  $KARMACTL -i $IMG tracks --json beatniks"
echo "  $KARMACTL -i $IMG verify"
echo "  $KARMACTL -i $IMG --offset 16M ls -lR /fids0"
