#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""check-flatpak-manifest.py - what can be checked of a Flatpak manifest offline.

    check-flatpak-manifest.py KIND MANIFEST APP_ID COMMAND METAINFO README MESON_OPTIONS
                              VERSION FLATPAK_BUILDER

KIND is "dev" (flatpak/: the app from this source tree) or "flathub"
(flatpak/flathub/: the app from its git repository at the release's tag).
Building needs the network and the runtime, so this checks what we rely on:
flatpak-builder --show-manifest reads it; the ids and the command agree with
the build; the runtime (GNOME 49 or later, whose freedesktop-sdk 25.08 brings
the codecs-extra extension that decodes AAC); the finish-args are narrow (no
--device=all, no host files, no whole bus), --device=usb comes with the
Flatpak version that knows it, --usb= names the Rio Karma, and each is
justified in the README; every module but the app is pinned and none rebuilds
a library the runtime ships (GStreamer and FFmpeg among them); the app's
meson options exist and none turns warnings back off; the Flathub app is the
metainfo's repository at the tag of this version; no cleanup removes
karmactl's module (its Karma commands).
"""

import fnmatch
import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

from tap import Tap

# Permissions the app must not ask for: files go through the portals, the
# player needs only USB, and the app needs neither bus wholesale.
FORBIDDEN = re.compile(r"^--(filesystem=(host|host-os|host-etc|home)(:.*)?"
                       r"|socket=(system|session)-bus|device=all)$")
# meson's own options that config-opts may set besides meson_options.txt.
MESON_BUILTINS = {"buildtype", "werror", "warning_level", "default_library", "prefix",
                  "libdir", "debug", "optimization", "strip", "b_lto", "b_ndebug"}
# Libraries the GNOME runtime (freedesktop-sdk 25.08 below it) ships: a module
# building one again would be a second copy.
RUNTIME_LIBRARIES = {"libusb", "taglib", "libgudev", "gudev", "gstreamer", "gst-plugins-base",
                     "gst-plugins-good", "gst-plugins-bad", "gst-plugins-ugly", "gst-libav",
                     "ffmpeg"}
# GNOME 49 is the first on freedesktop-sdk 25.08, whose runtime installs the
# org.freedesktop.Platform.codecs-extra extension (FFmpeg with AAC for
# gst-libav: the conversions of src/library/km-convert.c) by itself; the
# ffmpeg-full extension that apps declared before is gone.
CODECS_EXTRA_GNOME = 49
# --device=usb: Flatpak 1.15.11 and later (older ones ignore it).
DEVICE_USB_VERSION = (1, 15, 11)
KARMA_USB_QUERY = "--usb=vnd:045a+dev:5210"
# karmactl's Karma commands, under the app's libdir (src/cli/meson.build).
KARMACTL_MODULE = "/karma-manager/karmactl-karma.so"


def declared_options(path):
    with open(path, encoding="utf-8") as f:
        return set(re.findall(r"option\(\s*'([^']+)'", f.read()))


def flatpak_section(readme):
    """The README's "Flatpak" section: from its heading to the next one of its level."""
    m = re.search(r"^(#+) Flatpak\s*$(.*?)(?=^\1 |\Z)", readme, re.M | re.S)
    return m.group(2) if m else ""


def source_pinned(src):
    kind = src.get("type", "")
    if kind in ("archive", "file"):
        return bool(re.fullmatch(r"[0-9a-f]{64}", src.get("sha256", "")))
    if kind == "git":
        return bool(re.fullmatch(r"[0-9a-f]{40}", src.get("commit", "")))
    return kind == "patch"  # a patch file lives in this repository


def required_version(args):
    for a in args:
        m = re.fullmatch(r"--require-version=(\d+)\.(\d+)\.(\d+)", a)
        if m:
            return tuple(int(x) for x in m.groups())
    return None


def check_show_manifest(tap, flatpak_builder, path, app_id):
    """flatpak-builder itself parses the manifest (no network, no runtime)."""
    try:
        out = subprocess.run([flatpak_builder, "--show-manifest", path], capture_output=True,
                             text=True, timeout=60, check=False)
    except OSError as e:
        tap.check(False, "flatpak-builder --show-manifest reads it", e)
        return
    shown = {}
    if out.returncode == 0:
        try:
            shown = json.loads(out.stdout)
        except ValueError:
            pass
    tap.check(out.returncode == 0 and shown.get("id", shown.get("app-id")) == app_id,
              "flatpak-builder --show-manifest reads it, with the app id",
              out.stderr or out.stdout[:400])


def check_finish_args(tap, args, readme_path):
    bad = [a for a in args if FORBIDDEN.match(a)]
    tap.check(args and not bad, "finish-args: no --device=all, no host files, no whole bus",
              bad or "none at all")
    if "--device=usb" in args:
        need = required_version(args)
        tap.check(need is not None and need >= DEVICE_USB_VERSION,
                  "--device=usb comes with --require-version=1.15.11 or later", need)
    usb = [a for a in args if a.startswith("--usb=")]
    tap.check(usb == [KARMA_USB_QUERY], f"the USB portal may show the Rio Karma only "
              f"({KARMA_USB_QUERY})", usb)
    with open(readme_path, encoding="utf-8") as f:
        section = flatpak_section(f.read())
    # A justification is a table row: | `--arg` | why |
    missing = [a for a in args if not re.search(rf"^\| `{re.escape(a)}` \| \S", section, re.M)]
    tap.check(section and not missing,
              "every finish-arg has its row in the README's Flatpak section",
              missing or "no Flatpak section in the README")


def check_app_source(tap, kind, app, metainfo_root, version):
    srcs = app.get("sources")
    if kind == "dev":
        tap.check(srcs == [{"type": "dir", "path": ".."}],
                  "the app is built from this source tree", srcs)
        return
    home = metainfo_root.findtext("url[@type='vcs-browser']") or ""
    src = srcs[0] if isinstance(srcs, list) and len(srcs) == 1 else {}
    tap.check(src.get("type") == "git" and src.get("url") == home + ".git",
              "the app is built from the metainfo's repository (vcs-browser + .git)",
              f"{src.get('url')!r}, metainfo {home!r}")
    tap.check(src.get("tag") == "v" + version and source_pinned(src),
              f"at the tag v{version} and its commit", src)
    releases = [r.get("version") for r in metainfo_root.iter("release")]
    tap.check(releases[:1] == [version], "the metainfo's newest release is this version",
              releases[:1])


def check_karmactl_module_kept(tap, manifest, config):
    """karmactl loads its Karma commands from LIBDIR/karma-manager: no cleanup removes it."""
    libdirs = [o.split("=", 1)[1] for o in config if o.startswith("--libdir=")]
    # relative to /app, as cleanup's patterns that start with a slash are
    module = "/" + (libdirs[-1] if libdirs else "lib") + KARMACTL_MODULE
    cleaned = [p for p in manifest.get("cleanup", [])
               if (p.startswith("/") and (fnmatch.fnmatch(module, p)
                                          or module.startswith(p.rstrip("/") + "/")))
               or (not p.startswith("/") and fnmatch.fnmatch(module.rsplit("/", 1)[1], p))]
    tap.check(not cleaned, f"the cleanup keeps karmactl's module (/app{module})", cleaned)


def main(argv):
    (kind, manifest_path, app_id, command, metainfo, readme_path, options_path, version,
     flatpak_builder) = argv[1:10]
    tap = Tap()
    try:
        with open(manifest_path, encoding="utf-8") as f:
            manifest = json.load(f)
    except (OSError, ValueError) as e:
        tap.check(False, "the manifest is valid JSON", e)
        return tap.done()
    tap.check(True, "the manifest is valid JSON")
    check_show_manifest(tap, flatpak_builder, manifest_path, app_id)

    got_id = manifest.get("id", manifest.get("app-id"))
    tap.check(got_id == app_id, "id is the app id", f"{got_id!r} != {app_id!r}")
    metainfo_root = ET.parse(metainfo).getroot()
    meta_id = metainfo_root.findtext("id")
    tap.check(got_id == meta_id, "id is the metainfo's id", f"{got_id!r} != {meta_id!r}")
    tap.check(manifest.get("command") == command, f"command is {command}",
              manifest.get("command"))
    tap.check(manifest.get("runtime") == "org.gnome.Platform"
              and re.fullmatch(r"\d+", str(manifest.get("runtime-version", ""))),
              "runtime is org.gnome.Platform with a stable version",
              f"{manifest.get('runtime')} {manifest.get('runtime-version')}")
    tap.check(manifest.get("sdk") == "org.gnome.Sdk", "sdk is org.gnome.Sdk", manifest.get("sdk"))
    version_text = str(manifest.get("runtime-version", ""))
    tap.check(version_text.isdigit() and int(version_text) >= CODECS_EXTRA_GNOME,
              f"the runtime is GNOME {CODECS_EXTRA_GNOME} or later (codecs-extra comes with it)",
              version_text)
    extensions = list(manifest.get("add-extensions", {}))
    tap.check("org.freedesktop.Platform.ffmpeg-full" not in extensions,
              "no ffmpeg-full extension (freedesktop-sdk 25.08 replaced it by codecs-extra)",
              extensions)
    check_finish_args(tap, manifest.get("finish-args", []), readme_path)

    modules = manifest.get("modules", [])
    tap.check(len(modules) >= 1, "there are modules")
    names = [m.get("name", "") if isinstance(m, dict) else str(m) for m in modules]
    again = [n for n in names if n.lower() in RUNTIME_LIBRARIES]
    tap.check(not again, "no module builds a library the runtime ships (libusb, TagLib, gudev, "
              "GStreamer, FFmpeg)", again)
    for mod in modules[:-1]:
        srcs = mod.get("sources", []) if isinstance(mod, dict) else []
        tap.check(srcs and all(source_pinned(s) for s in srcs),
                  f"module {mod.get('name') if isinstance(mod, dict) else mod} is pinned "
                  "(sha256 or git commit)", srcs)
    app = modules[-1] if modules else {}
    tap.check(app.get("buildsystem") == "meson", "the last module builds the app with meson",
              app.get("buildsystem"))
    check_app_source(tap, kind, app, metainfo_root, version)
    known = declared_options(options_path) | MESON_BUILTINS
    config = app.get("config-opts", [])
    opts = [re.match(r"-D([^=]+)=", o) for o in config]
    unknown = [o.group(1) for o in opts if o and o.group(1) not in known]
    tap.check(not unknown, "the app's -D options exist in meson_options.txt", unknown)
    tap.check(not [o for o in config if re.match(r"-Dwerror=(false|0)", o)],
              "the app builds with warnings as errors (no -Dwerror=false)", config)
    check_karmactl_module_kept(tap, manifest, config)
    return tap.done()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
