#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# demo.sh - build, then start Karma Manager on a demo player (as root on
# Debian 12: it installs what it needs with apt).
#
# Until the GUI lands, "the app" is karmactl and "the demo player" is an
# OMFS volume in an image file: demo.sh formats one, copies a few generated
# files onto it and shows it with ls -lR, df and fsck.
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

SRC=$(mktemp -d)
trap 'rm -rf "$SRC"' EXIT
mkdir -p "$SRC/music/Demo Artist/First Album" "$SRC/music/Demo Artist/Second Album"
for n in 1 2 3; do
    head -c $((n * 700000)) /dev/urandom > "$SRC/music/Demo Artist/First Album/0$n Track.mp3"
done
head -c 2500000 /dev/urandom > "$SRC/music/Demo Artist/Second Album/01 Opening.mp3"
printf 'Karma Manager demo volume\n' > "$SRC/README.txt"

mkdir -p "$(dirname "$IMG")"
rm -f "$IMG"
run mkfs "$IMG" --size 256M --label "Demo Karma"
run -i "$IMG" put -r "$SRC/music" /music
run -i "$IMG" put "$SRC/README.txt" /README.txt
run -i "$IMG" mkdir -p /playlists
run -i "$IMG" ls -lR /
run -i "$IMG" df
run -i "$IMG" fsck
echo "The demo player is $IMG. Try, for example:"
echo "  $KARMACTL -i $IMG info"
echo "  $KARMACTL -i $IMG cat /README.txt"
echo "  $KARMACTL -i $IMG manifest"
