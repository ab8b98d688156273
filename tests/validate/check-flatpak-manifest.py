#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""check-flatpak-manifest.py - what can be checked of the Flatpak manifest offline.

    check-flatpak-manifest.py MANIFEST APP_ID COMMAND METAINFO README MESON_OPTIONS

flatpak-builder needs the network and the runtime, so this checks the parts we
rely on instead: the ids and the command agree with the build, the runtime, the
finish-args are narrow and each is justified in the README, every module but
the app is pinned by a checksum, and the app's meson options exist.
"""

import json
import re
import sys
import xml.etree.ElementTree as ET

from tap import Tap

# Permissions the app must not ask for: files go through the portals, and the
# app needs neither bus wholesale.
FORBIDDEN = re.compile(r"^--(filesystem=(host|host-os|host-etc|home)(:.*)?"
                       r"|socket=(system|session)-bus)$")
# meson's own options that config-opts may set besides meson_options.txt.
MESON_BUILTINS = {"buildtype", "werror", "warning_level", "default_library", "prefix",
                  "libdir", "debug", "optimization", "strip", "b_lto", "b_ndebug"}


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


def main(argv):
    manifest_path, app_id, command, metainfo, readme_path, options_path = argv[1:7]
    tap = Tap()
    try:
        with open(manifest_path, encoding="utf-8") as f:
            manifest = json.load(f)
    except (OSError, ValueError) as e:
        tap.check(False, "the manifest is valid JSON", e)
        return tap.done()
    tap.check(True, "the manifest is valid JSON")

    got_id = manifest.get("app-id", manifest.get("id"))
    tap.check(got_id == app_id, "app-id is the app id", f"{got_id!r} != {app_id!r}")
    meta_id = ET.parse(metainfo).getroot().findtext("id")
    tap.check(got_id == meta_id, "app-id is the metainfo's id", f"{got_id!r} != {meta_id!r}")
    tap.check(manifest.get("command") == command, f"command is {command}",
              manifest.get("command"))
    tap.check(manifest.get("runtime") == "org.gnome.Platform"
              and re.fullmatch(r"\d+", str(manifest.get("runtime-version", ""))),
              "runtime is org.gnome.Platform with a stable version",
              f"{manifest.get('runtime')} {manifest.get('runtime-version')}")
    tap.check(manifest.get("sdk") == "org.gnome.Sdk", "sdk is org.gnome.Sdk", manifest.get("sdk"))

    args = manifest.get("finish-args", [])
    bad = [a for a in args if FORBIDDEN.match(a)]
    tap.check(args and not bad, "finish-args: no host files, no whole bus", bad or "none at all")
    with open(readme_path, encoding="utf-8") as f:
        section = flatpak_section(f.read())
    # A justification is a table row: | `--arg` | why |
    missing = [a for a in args if not re.search(rf"^\| `{re.escape(a)}` \| \S", section, re.M)]
    tap.check(section and not missing,
              "every finish-arg has its row in the README's Flatpak section",
              missing or "no Flatpak section in the README")

    modules = manifest.get("modules", [])
    tap.check(len(modules) >= 1, "there are modules")
    for mod in modules[:-1]:
        srcs = mod.get("sources", []) if isinstance(mod, dict) else []
        tap.check(srcs and all(source_pinned(s) for s in srcs),
                  f"module {mod.get('name') if isinstance(mod, dict) else mod} is pinned "
                  "(sha256 or git commit)", srcs)
    app = modules[-1] if modules else {}
    tap.check(app.get("buildsystem") == "meson", "the last module builds the app with meson",
              app.get("buildsystem"))
    tap.check(app.get("sources") == [{"type": "dir", "path": ".."}],
              "the app is built from this source tree", app.get("sources"))
    known = declared_options(options_path) | MESON_BUILTINS
    opts = [re.match(r"-D([^=]+)=", o) for o in app.get("config-opts", [])]
    unknown = [o.group(1) for o in opts if o and o.group(1) not in known]
    tap.check(not unknown, "the app's -D options exist in meson_options.txt", unknown)
    return tap.done()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
