#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# install-deps.sh - install (as root, on Debian 12 "bookworm" or Debian 13
# "trixie") every package that the build, the demo and the whole test suite
# need.  No package name carries a version: where Debian only ships versioned
# names (clang's sanitizer runtime), apt is asked which one this release has.
#
# Idempotent: when every package is already installed it does not touch apt
# at all, so re-runs take a fraction of a second.  Run as root, or set
# KM_NO_APT=1 to only report what is missing.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

# Used today.
PKGS=(
    # build
    build-essential meson ninja-build pkg-config libglib2.0-dev
    # a second compiler, and its sanitizer/libFuzzer runtime (-Dfuzzing=true)
    clang
    # test helpers (tests/interop/*.py, the oracle's mkomfs-min.py, test summary)
    python3
    # kernel interop oracle (tests/interop/oracle/setup.sh): it boots Debian's
    # kernel in qemu; it apt-get downloads (never installs) the kernel and
    # busybox-static packages itself, into its own cache
    qemu-system-x86 cpio kmod xz-utils
    # the Karma library's interop tests: libkarma's riocp, and audio encoders
    # that make real MP3, Ogg Vorbis and FLAC files with known tags
    karma-tools lame vorbis-tools flac
    # importing files: TagLib's C binding reads their tags; ffmpeg makes the
    # WMA, AAC, MP2 and Opus files of the import tests
    libtagc0-dev ffmpeg
    # converting what the player cannot play (src/library/km-convert.c):
    # GStreamer's headers, and its discoverer's (pbutils, in the base plugins'
    # dev package); base: decodebin, audioconvert, audioresample, the Vorbis
    # encoder, the Ogg muxer, the Opus decoder; good: FLAC and LAME encoders,
    # the ID3v2 muxer, the MP4 (ALAC, AAC) and WavPack demuxers/decoders;
    # bad: the AIFF parser and the faad AAC decoder; ugly: the Xing header
    # muxer of VBR MP3 before GStreamer 1.22, and the AC-3 decoder; libav:
    # FFmpeg's decoders (AAC, ALAC, Monkey's Audio, TTA…);
    # tools: gst-launch-1.0, the reference of tests/bench/convert-bench.sh
    libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev gstreamer1.0-plugins-base
    gstreamer1.0-plugins-good gstreamer1.0-plugins-bad gstreamer1.0-plugins-ugly
    gstreamer1.0-libav gstreamer1.0-tools
    # the player over USB (libusb), hotplug (gudev) and their tests (umockdev)
    libusb-1.0-0-dev libgudev-1.0-dev libumockdev-dev umockdev
    # the app, and its tests under Xvfb
    libgtk-4-dev libadwaita-1-dev xvfb xauth
    # the GUI tests press keys and click through XTEST (tests/app/km-test-input.c)
    libxtst6
    # translations and desktop integration checks; rsvg-convert renders the
    # app icons in the validate suite (tests/validate/check-icons.py);
    # flatpak-builder reads the Flatpak manifests (--show-manifest) there
    gettext desktop-file-utils appstream appstream-util librsvg2-bin flatpak-builder
    # karmactl's man page (docs/karmactl.1): mandoc -Tlint checks it in the tests
    mandoc
    # the validate suite runs it on every shell script (tests/validate/check-shell.py)
    shellcheck
    # the tests' private D-Bus session (the portal mocks), SVG icons for GTK,
    # man pages, the translation tests' locales, and the Debian 13 root that
    # scripts/test.sh builds in (scripts/test-trixie.sh)
    dbus-daemon librsvg2-common groff-base locales-all debootstrap
)

# clang's sanitizer and libFuzzer runtime is packaged per LLVM version
# (libclang-rt-N-dev, N differing between Debian releases): take the one
# that matches the clang this release installs.
clang_rt_package() {
    local llvm
    llvm=$(apt-cache depends clang 2>/dev/null |
        sed -n 's/^ *Depends: clang-\([0-9][0-9]*\)$/\1/p' | head -n1)
    [ -n "$llvm" ] && echo "libclang-rt-$llvm-dev"
}
# On a fresh machine apt has no package lists yet and the query above prints
# nothing: as root, fetch the lists first and ask again.
lists_updated=0
if ! rt=$(clang_rt_package) && [ "$(id -u)" = 0 ] && [ "${KM_NO_APT:-0}" != 1 ]; then
    apt-get update -q
    lists_updated=1
    rt=$(clang_rt_package) || true
fi
if [ -n "${rt:-}" ]; then
    PKGS+=("$rt")
else
    echo "install-deps: apt does not know clang's runtime package; skipping it" >&2
fi

missing=()
for p in "${PKGS[@]}"; do
    if [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" != "install ok installed" ]; then
        missing+=("$p")
    fi
done

if [ ${#missing[@]} -eq 0 ]; then
    echo "install-deps: all ${#PKGS[@]} packages present"
    exit 0
fi

if [ "${KM_NO_APT:-0}" = 1 ]; then
    echo "install-deps: missing: ${missing[*]}" >&2
    exit 1
fi
if [ "$(id -u)" != 0 ]; then
    echo "install-deps: missing: ${missing[*]} (run as root to install them)" >&2
    exit 1
fi

echo "install-deps: installing ${missing[*]}"
[ "$lists_updated" = 1 ] || apt-get update -q
apt-get install -y -q --no-install-recommends "${missing[@]}"
