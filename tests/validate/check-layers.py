#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""check-layers.py - the app reaches the player's disk through the library.

    check-layers.py SOURCEDIR

docs/ARCHITECTURE.md: src/library owns every music operation (space, the
room check, write-back, object types, import, export); the app's session
files present them. So no file of src/app includes the OMFS core's header,
not even through the headers it includes (those of src/ are followed),
calls an omfs_* function, asks the library for its mounted volume
(km_library_get_fs) or calls a device callback such as ->flush( itself.
(The type struct omfs_blockdev, the handle a source opens and hands to the
library, is allowed.) karmactl's OMFS-level commands use the core on
purpose and are not checked.
"""

import os
import re
import sys

from tap import Tap

RULES = [
    ("includes no omfs.h", re.compile(r'#\s*include\s*[<"]omfs\.h[>"]')),
    ("calls no omfs_* function", re.compile(r"\bomfs_[a-z_]+\s*\(")),
    ("does not ask for the library's volume", re.compile(r"\bkm_library_get_fs\b")),
    ("calls no device callback", re.compile(r"->\s*(read|write|flush|size)\s*\(\s*\w+->ctx")),
]


def code_lines(text):
    """Lines without their comments (a comment may name what the code must not call)."""
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    return [re.sub(r"//.*", "", line) for line in text.splitlines()]


INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)


def headers_by_name(src):
    """Every header of src/*/ by its name, as the build's include paths find them."""
    found = {}
    for folder in sorted(os.listdir(src)):
        path = os.path.join(src, folder)
        if os.path.isdir(path):
            for name in os.listdir(path):
                if name.endswith(".h"):
                    found.setdefault(name, os.path.join(path, name))
    return found


def omfs_chain(path, headers, seen):
    """The chain of includes from path to omfs.h, or None."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for name in INCLUDE.findall(text):
        if name == "omfs.h":
            return [name]
        header = headers.get(name)
        if header and header not in seen:
            seen.add(header)
            rest = omfs_chain(header, headers, seen)
            if rest:
                return [name] + rest
    return None


def main(argv):
    app = os.path.join(argv[1], "src", "app")
    headers = headers_by_name(os.path.join(argv[1], "src"))
    tap = Tap()
    names = sorted(n for n in os.listdir(app) if n.endswith((".c", ".h")))
    tap.check(len(names) > 20, f"src/app has its sources ({len(names)})")
    for what, pattern in RULES:
        found = []
        for name in names:
            with open(os.path.join(app, name), encoding="utf-8") as f:
                for number, line in enumerate(code_lines(f.read()), 1):
                    if pattern.search(line):
                        found.append(f"src/app/{name}:{number}: {line.strip()}")
        tap.check(not found, f"src/app {what}", "\n".join(found))
    through = []
    for name in names:
        chain = omfs_chain(os.path.join(app, name), headers, set())
        if chain:
            through.append(f"src/app/{name}: " + " -> ".join(chain))
    tap.check(not through, "src/app sees no omfs.h through the headers it includes",
              "\n".join(through))
    return tap.done()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
