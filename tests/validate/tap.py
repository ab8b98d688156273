# SPDX-License-Identifier: GPL-2.0-or-later
"""tap.py - the TAP output shared by the validate suite's Python checks."""

import sys


class Tap:
    """Numbered checks; done() prints the plan and gives the exit status."""

    def __init__(self):
        self.count = 0
        self.failed = 0

    def check(self, ok, description, why=""):
        """One check: ok is its result; why is printed as a comment on failure."""
        self.count += 1
        if ok:
            print(f"ok {self.count} - {description}")
        else:
            self.failed += 1
            print(f"not ok {self.count} - {description}")
            for line in str(why).splitlines():
                print(f"#   {line}")
        return ok

    def done(self):
        print(f"1..{self.count}")
        sys.stdout.flush()
        return 1 if self.failed or not self.count else 0
