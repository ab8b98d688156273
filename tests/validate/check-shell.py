#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""check-shell.py - every shell script passes shellcheck's warnings.

    check-shell.py SOURCEDIR SHELLCHECK

A shell script is a file named *.sh or one whose first line is a sh or bash
shebang (tests/interop/oracle/omfs-oracle, .ci/run): those git tracks, or,
outside a git checkout (a release tarball), those under scripts/, tests/
and .ci/. Each gets `shellcheck -x -P SCRIPTDIR -S warning` from SOURCEDIR,
so the libraries it sources are followed from its own folder; one TAP line
a script, failed by any warning or error (notes and style tips may stay).
Files sourced by the others say their shell in a `# shellcheck shell=`
directive. An empty SHELLCHECK (not installed): skipped.
"""

import os
import re
import shutil
import subprocess
import sys

from tap import Tap

SHEBANG = re.compile(rb"^#!\s*\S*/(?:env\s+)?(?:ba)?sh\b")
# Outside a git checkout: where the scripts are (not the build folders).
FOLDERS = ("scripts", "tests", ".ci")


def git_checkout(src):
    return shutil.which("git") and subprocess.run(
        ["git", "-C", src, "rev-parse", "--is-inside-work-tree"],
        capture_output=True).returncode == 0


def candidates(src):
    """The files to look at, relative to src: git's, or those of FOLDERS."""
    if git_checkout(src):
        out = subprocess.run(["git", "-C", src, "ls-files", "-z"], capture_output=True,
                             check=True).stdout
        return [p for p in out.decode("utf-8", "surrogateescape").split("\0") if p]
    found = []
    for folder in FOLDERS:
        for root, dirs, files in os.walk(os.path.join(src, folder)):
            dirs.sort()
            found += [os.path.relpath(os.path.join(root, f), src) for f in sorted(files)]
    return found


def is_shell_script(src, path):
    full = os.path.join(src, path)
    if not os.path.isfile(full):
        return False
    if path.endswith(".sh"):
        return True
    with open(full, "rb") as f:
        return bool(SHEBANG.match(f.readline(128)))


def main(argv):
    src, shellcheck = argv[1], argv[2]
    if not shellcheck:
        print("1..0 # SKIP shellcheck is not installed")
        return 0
    tap = Tap()
    for path in sorted(p for p in candidates(src) if is_shell_script(src, p)):
        run = subprocess.run([shellcheck, "-x", "-P", "SCRIPTDIR", "-S", "warning", "-f", "gcc",
                              path], cwd=src, capture_output=True, text=True)
        out = (run.stdout + run.stderr).strip()
        tap.check(run.returncode == 0 and not out, f"{path}: no shellcheck warning",
                  out or f"shellcheck exited {run.returncode}")
    return tap.done()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
