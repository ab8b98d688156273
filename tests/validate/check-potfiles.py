#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""check-potfiles.py - po/POTFILES.in lists every file with translatable strings.

    check-potfiles.py SOURCEDIR

A file is translatable when it is C with _(), N_(), C_() or NC_(), a GtkBuilder
file with translatable="yes", or one of data/'s desktop, metainfo and schema
files. Each must be in po/POTFILES.in or po/POTFILES.skip (left out on purpose),
and each line of POTFILES.in must name a file that exists.
"""

import os
import re
import sys

from tap import Tap

C_MARK = re.compile(r"\b(N?C_|N_|_)\s*\(\s*\"")
UI_MARK = re.compile(r'translatable="yes"')
DATA_FILE = re.compile(r"\.(desktop\.in|metainfo\.xml\.in|gschema\.xml)$")
FOLDERS = ("src", "ui", "data")


def listed(path):
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        return [line.strip() for line in f if line.strip() and not line.startswith("#")]


def translatable(path):
    if DATA_FILE.search(path):
        return True
    if not path.endswith((".c", ".h", ".ui")):
        return False
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    return bool((UI_MARK if path.endswith(".ui") else C_MARK).search(text))


def main(argv):
    src = argv[1]
    tap = Tap()
    potfiles = listed(os.path.join(src, "po", "POTFILES.in"))
    known = set(potfiles) | set(listed(os.path.join(src, "po", "POTFILES.skip")))
    found = sorted(os.path.relpath(os.path.join(d, f), src)
                   for top in FOLDERS for d, _, files in os.walk(os.path.join(src, top))
                   for f in files if translatable(os.path.join(d, f)))
    tap.check(found, "files with translatable strings found", "none at all")
    missing = [f for f in found if f not in known]
    tap.check(not missing, "every file with translatable strings is in po/POTFILES.in",
              "\n".join(missing))
    gone = [f for f in potfiles if not os.path.isfile(os.path.join(src, f))]
    tap.check(not gone, "every file in po/POTFILES.in exists", "\n".join(gone))
    tap.check(potfiles == sorted(potfiles), "po/POTFILES.in is sorted")
    return tap.done()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
