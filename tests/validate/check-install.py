#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""check-install.py - `meson install` into a DESTDIR puts every file where it belongs.

    check-install.py MESON BUILDDIR SOURCEDIR APP_ID PREFIX BINDIR DATADIR LOCALEDIR LIBDIR

Expected: the desktop file and the metainfo (with the translations merged in),
both icons, the schema, karmactl and its Karma module (karmactl loads
LIBDIR/karma-manager/karmactl-karma.so), a catalogue per language in
po/LINGUAS; the udev rule once data/70-rio-karma.rules exists, karma-manager
once the build has that target. Files in the folders Flatpak exports must be named with the app id.
"""

import json
import os
import subprocess
import sys
import tempfile

from tap import Tap

# Where `flatpak build-finish` exports files from: each must start with the app id.
EXPORTED = ("applications", "metainfo", "icons")


def has_target(meson, builddir, name):
    out = subprocess.run([meson, "introspect", "--targets", builddir], check=True,
                         capture_output=True, text=True).stdout
    return any(t["name"] == name and t["installed"] for t in json.loads(out))


def languages(srcdir):
    with open(os.path.join(srcdir, "po", "LINGUAS"), encoding="utf-8") as f:
        return [w for line in f if not line.startswith("#") for w in line.split()]


def find_named(root, suffix):
    return [os.path.join(d, f) for d, _, files in os.walk(root) for f in files
            if os.path.join(d, f).endswith(suffix)]


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def main(argv):
    meson, builddir, srcdir, app_id, prefix, bindir, datadir, localedir, libdir = argv[1:10]
    tap = Tap()
    with tempfile.TemporaryDirectory() as dest:
        res = subprocess.run([meson, "install", "-C", builddir, "--no-rebuild", "--quiet",
                              "--destdir", dest], capture_output=True, text=True)
        if not tap.check(res.returncode == 0, "meson install --destdir", res.stdout + res.stderr):
            return tap.done()
        root = dest + os.path.join(prefix, "")

        def under(*parts):
            return os.path.join(root, *parts)

        desktop = under(datadir, "applications", app_id + ".desktop")
        metainfo = under(datadir, "metainfo", app_id + ".metainfo.xml")
        expected = [
            desktop, metainfo,
            under(datadir, "icons", "hicolor", "scalable", "apps", app_id + ".svg"),
            under(datadir, "icons", "hicolor", "symbolic", "apps", app_id + "-symbolic.svg"),
            under(datadir, "glib-2.0", "schemas", app_id + ".gschema.xml"),
        ]
        expected += [under(localedir, lang, "LC_MESSAGES", "karma-manager.mo")
                     for lang in languages(srcdir)]
        programs = [under(bindir, "karmactl")]
        if has_target(meson, builddir, "karma-manager"):
            programs.append(under(bindir, "karma-manager"))
        expected.append(under(libdir, "karma-manager", "karmactl-karma.so"))
        for path in expected:
            tap.check(os.path.isfile(path), f"installed: {os.path.relpath(path, dest)}")
        for path in programs:
            tap.check(os.path.isfile(path) and os.access(path, os.X_OK),
                      f"installed, executable: {os.path.relpath(path, dest)}")

        # The udev rule goes to the system's rules folder, which may be outside the prefix.
        if os.path.exists(os.path.join(srcdir, "data", "70-rio-karma.rules")):
            rules = find_named(dest, os.path.join("rules.d", "70-rio-karma.rules"))
            tap.check(len(rules) == 1, "installed: the udev rule, once, in a rules.d", rules)

        if os.path.isfile(desktop) and os.path.isfile(metainfo):
            langs = languages(srcdir)
            text, meta = read(desktop), read(metainfo)
            tap.check(all(f"Name[{lang}]=" in text and f"Keywords[{lang}]=" in text
                          for lang in langs),
                      "the desktop file has every language's name and keywords")
            tap.check(all(f'xml:lang="{lang}"' in meta for lang in langs),
                      "the metainfo has every language")

        for folder in EXPORTED:
            files = [os.path.basename(p) for p in find_named(under(datadir, folder), "")]
            wrong = [f for f in files if not f.startswith(app_id)]
            tap.check(files and not wrong, f"share/{folder}: every file named with the app id",
                      wrong or "empty")
    return tap.done()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
