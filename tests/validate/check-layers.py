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

karmactl's executable (src/cli, but not src/cli/karma, its Karma module)
links GLib, the OMFS core and the plain C devices only, so that it starts
fast (docs/PERFORMANCE.md, "karmactl's start"): none of its files includes
a header of src/library, of the device monitor or of the libusb transport,
nor GIO's, udev's, GStreamer's or libusb's, not even through the headers it
includes.
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


# "local.h" and <system.h>: the chain is followed through the local ones.
INCLUDE = re.compile(r'^\s*#\s*include\s*["<]([^">]+)[">]', re.M)

# What karmactl's executable must not see besides src/library's headers:
# the device monitor (udev), the libusb transport, and the libraries of
# its Karma module.
CLI_FORBIDDEN_HEADERS = {"km-device-monitor.h", "km-player-info.h", "km-usb-libusb.h"}
CLI_FORBIDDEN_SYSTEM = re.compile(r"^(gio|gudev|gst)/|^libusb\.h$")


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


def include_chain(path, headers, forbidden, seen):
    """The chain of includes from path to a name that forbidden(name) holds of, or None."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for name in INCLUDE.findall(text):
        if forbidden(name):
            return [name]
        header = headers.get(name)
        if header and header not in seen:
            seen.add(header)
            rest = include_chain(header, headers, forbidden, seen)
            if rest:
                return [name] + rest
    return None


def check_cli_executable(tap, src, headers):
    """karmactl's executable sees none of its Karma module's libraries."""
    cli = os.path.join(src, "cli")
    library = set(os.listdir(os.path.join(src, "library")))

    def forbidden(name):
        return (name in library or name in CLI_FORBIDDEN_HEADERS
                or CLI_FORBIDDEN_SYSTEM.search(name) is not None)

    names = sorted(n for n in os.listdir(cli) if n.endswith((".c", ".h")))
    tap.check("karmactl.c" in names, f"src/cli has karmactl's sources ({len(names)})")
    through = []
    for name in names:
        chain = include_chain(os.path.join(cli, name), headers, forbidden, set())
        if chain:
            through.append(f"src/cli/{name}: " + " -> ".join(chain))
    tap.check(not through, "karmactl's executable (src/cli, not karma/) sees no header of the "
              "library layer, the device monitor, libusb, GIO, udev or GStreamer",
              "\n".join(through))


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
        chain = include_chain(os.path.join(app, name), headers, lambda h: h == "omfs.h",
                              set())
        if chain:
            through.append(f"src/app/{name}: " + " -> ".join(chain))
    tap.check(not through, "src/app sees no omfs.h through the headers it includes",
              "\n".join(through))
    check_cli_executable(tap, os.path.join(argv[1], "src"), headers)
    return tap.done()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
