#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""check-standalone.py - the repository stands alone.

    check-standalone.py SOURCEDIR

The formats are described in docs/FORMAT.md and docs/KARMA.md, which the
code cites by section. Checked on the files git tracks (so on the tree as
committed, not on build leftovers):
- no tracked file outside docs/ names a document a clone does not have (the
  outside specs, or the developers' folder beside the clone);
- every section cited as "FORMAT.md §N" or "KARMA.md §N.M" exists, and so
  does every bare "§N" inside those two files (a citation of the file
  itself).
Outside a git checkout (a release tarball) there is nothing to check: skipped.
"""

import os
import re
import shutil
import subprocess
import sys

from tap import Tap

DOCS = {"FORMAT.md": "docs/FORMAT.md", "KARMA.md": "docs/KARMA.md"}
# This file names them to find them; it is the one file allowed to.
SELF = "tests/validate/check-standalone.py"
OUTSIDE = re.compile(r"karma-device\.md|omfs-format\.md|DESIGN\.md|gtk-ecosystem|"
                     r"umockdev-libusb|peers\.md|\.\./shared|/work/shared")
SECTION = r"§(\d+(?:\.\d+)?)"
# "FORMAT.md §7.4", "KARMA.md §1–§5", "FORMAT.md §2, §3 and §5"
CITATION = re.compile(r"\b(FORMAT|KARMA)\.md((?:(?:\s|,|–|-|and)*" + SECTION + r")+)")
HEADING = re.compile(r"^#{2,3} (\d+(?:\.\d+)?)\.? ", re.M)


def tracked_files(src):
    out = subprocess.run(["git", "-C", src, "ls-files", "-z"], capture_output=True,
                         check=True).stdout
    return [p for p in out.decode("utf-8", "surrogateescape").split("\0") if p]


def read_text(src, path):
    """The file's text, or None for a binary or missing file."""
    try:
        with open(os.path.join(src, path), "rb") as f:
            data = f.read()
    except OSError:
        return None
    if b"\0" in data:
        return None
    return data.decode("utf-8", "replace")


def outside_mentions(src, files):
    found = []
    for path in files:
        if path.startswith("docs/") or path == SELF:
            continue
        text = read_text(src, path)
        for number, line in enumerate((text or "").splitlines(), 1):
            if OUTSIDE.search(line):
                found.append(f"{path}:{number}: {line.strip()}")
    return found


def sections(src):
    have = {}
    for name, path in DOCS.items():
        text = read_text(src, path) or ""
        have[name] = set(HEADING.findall(text))
    return have


def bad_citations(src, files, have):
    bad = []
    for path in files:
        text = read_text(src, path)
        if text is None:
            continue
        own = os.path.basename(path) if path in DOCS.values() else None
        for number, line in enumerate(text.splitlines(), 1):
            rest = line
            for m in CITATION.finditer(line):
                for sec in re.findall(SECTION, m.group(2)):
                    if sec not in have[m.group(1) + ".md"]:
                        bad.append(f"{path}:{number}: {m.group(1)}.md §{sec} does not exist")
                rest = rest.replace(m.group(0), "")
            for sec in re.findall(SECTION, rest) if own else []:
                if sec not in have[own]:
                    bad.append(f"{path}:{number}: §{sec} (of {own}) does not exist")
    return bad


def main(argv):
    src = argv[1]
    tap = Tap()
    if not shutil.which("git") or subprocess.run(
            ["git", "-C", src, "rev-parse", "--is-inside-work-tree"],
            capture_output=True).returncode != 0:
        print("1..0 # SKIP not a git checkout: nothing tracked to check")
        return 0
    files = tracked_files(src)
    tap.check(len(files) > 100, f"git tracks the project's files ({len(files)})")
    have = sections(src)
    for name, path in DOCS.items():
        tap.check(len(have[name]) >= 10, f"{path} numbers its sections ({len(have[name])})")
    mentions = outside_mentions(src, files)
    tap.check(not mentions, "no tracked file outside docs/ cites an outside spec or folder",
              "\n".join(mentions))
    bad = bad_citations(src, files, have)
    tap.check(not bad, "every cited section of docs/FORMAT.md and docs/KARMA.md exists",
              "\n".join(bad))
    return tap.done()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
