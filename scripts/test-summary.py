#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""test-summary.py BUILDDIR...: count the checks of `meson test` runs.

Reads each build's meson-logs/testlog.json.  A TAP test counts each of its
"ok" / "not ok" lines (a SKIP directive counts as skipped); a test that
failed as a whole (crash, sanitizer abort, timeout, bail out, non-zero exit)
without a single "not ok" line counts one failure more, so nothing is lost.
Prints one line per build, then "N passed, N failed[, N skipped]" alone on
the last line.  Exit status 1 when anything failed or nothing ran.
"""
import json
import os
import re
import sys

TAP = re.compile(r"^(not )?ok\b(.*)$")
DIRECTIVE = re.compile(r"#\s*(SKIP|TODO)\b", re.IGNORECASE)
BAD = {"FAIL", "ERROR", "TIMEOUT", "INTERRUPT", "UNEXPECTEDPASS"}


def count_test(entry):
    """(passed, failed, skipped) of one test."""
    passed = failed = skipped = 0
    for line in (entry.get("stdout") or "").splitlines():
        m = TAP.match(line)
        if not m:
            continue
        d = DIRECTIVE.search(m.group(2))
        directive = d.group(1).upper() if d else None
        if directive == "SKIP":
            skipped += 1
        elif m.group(1) and directive != "TODO":
            failed += 1
        else:
            passed += 1
    result = entry.get("result", "")
    if result in BAD and failed == 0:
        failed += 1
    elif result == "SKIP" and passed + failed + skipped == 0:
        skipped += 1
    elif result == "OK" and passed + failed + skipped == 0:
        passed += 1
    return passed, failed, skipped


def main():
    total = [0, 0, 0]
    for build in sys.argv[1:]:
        log = os.path.join(build, "meson-logs", "testlog.json")
        counts = [0, 0, 0]
        failed_tests = []
        try:
            with open(log) as f:
                entries = [json.loads(l) for l in f if l.strip()]
        except OSError as e:
            print("%s: no test log (%s): counted as one failure" % (build, e.strerror))
            entries = []
            counts[1] += 1
        for e in entries:
            c = count_test(e)
            counts = [a + b for a, b in zip(counts, c)]
            if c[1]:
                failed_tests.append(e["name"])
        print("%s: %d tests, %d passed, %d failed, %d skipped%s" % (
            os.path.basename(build.rstrip("/")), len(entries), *counts,
            (" (failing: %s)" % ", ".join(failed_tests)) if failed_tests else ""))
        total = [a + b for a, b in zip(total, counts)]
    line = "%d passed, %d failed" % (total[0], total[1])
    if total[2]:
        line += ", %d skipped" % total[2]
    print(line)
    return 1 if total[1] or total[0] == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
