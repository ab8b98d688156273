#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make-seeds.sh BUILD CORPUS-DIR - (re)writes the seeds of every fuzz target
# (corpus/README.md): volumes by our mkfs (fuzz-mkseeds), a library written by
# the library (fuzz-libseeds), the smalldb and properties files riocp
# (karma-tools) writes for real audio, the files and label of a disk made by
# `karmactl mkkarma --demo`, and the libkarma fixtures of tests/library.
# What riocp and mkkarma add is skipped when riocp, ffmpeg or oggenc is missing.
set -euo pipefail

build=$(realpath "$1")
out=$(realpath "$2")
here=$(dirname "$(realpath "$0")")
karmactl="$build/src/cli/karmactl"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

mkdir -p "$out"/{library,smalldb,properties,playlist,label}
"$build/tests/fuzz/fuzz-mkseeds" "$out"
"$build/tests/fuzz/fuzz-libseeds" "$out"
for f in "$here"/../library/fixtures/riocp-*.1; do
	cp "$f" "$out/properties/fixture-$(basename "$f" .1)"
done

# riocp on a plain folder laid out like the music partition.
if command -v riocp >/dev/null && command -v ffmpeg >/dev/null && command -v oggenc >/dev/null; then
	mkdir -p "$tmp/music/fids0" "$tmp/music/var" "$tmp/home"
	ffmpeg -loglevel error -f lavfi -i "sine=frequency=440:duration=0.3" -ar 8000 \
		-metadata title="Sine = \\ é" -metadata artist="Riocp" "$tmp/tone.wav"
	oggenc -Q -q 0 -t "Ogg Song" -a "The Band" -l "Album" -N 4 \
		-o "$tmp/tone.ogg" "$tmp/tone.wav"
	HOME="$tmp/home" riocp -a "$tmp/music" "$tmp/tone.wav" "$tmp/tone.ogg" >/dev/null
	cp "$tmp/music/var/smalldb" "$out/smalldb/riocp"
	n=0
	for f in "$tmp"/music/fids0/*/*1; do
		n=$((n + 1))
		cp "$f" "$out/properties/riocp-$n"
	done
fi

# A disk made by mkkarma with demo tracks: its label (and size), smalldb, properties.
if [ -x "$karmactl" ]; then
	info=$("$karmactl" mkkarma -s 32M "$tmp/disk.img" --demo 3)
	offset=$(sed -n 's/.*partition 2 (music) at \([0-9]*\).*/\1/p' <<<"$info")
	size=$(stat -c %s "$tmp/disk.img")
	{ head -c 512 "$tmp/disk.img"; perl -e 'print pack("Q<", shift)' "$size"; } \
		>"$out/label/mkkarma"
	kc() { "$karmactl" -i "$tmp/disk.img" --offset "$offset" "$@"; }
	kc cat var/smalldb >"$out/smalldb/mkkarma"
	for path in $(kc manifest | awk -F'\t' '$2 == "f" && $1 ~ /^\/fids0\/.*1$/ { print $1 }' |
		      head -2); do
		kc cat "$path" >"$out/properties/mkkarma-$(basename "$path")"
	done
fi
ls -l "$out"/*/ >&2
