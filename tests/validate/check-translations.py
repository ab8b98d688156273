#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""check-translations.py - every language of po/LINGUAS is complete and in step.

    check-translations.py SOURCEDIR WORKDIR MSGFMT XGETTEXT MSGINIT MSGCMP

For each language: msgfmt --check passes with no fuzzy and no untranslated
message; its Plural-Forms are gettext's own for the language (as msginit
writes them); and it holds exactly the messages of the current sources: a
template made afresh into WORKDIR by xgettext from po/POTFILES.in (the same
keywords as meson's 'glib' preset, which makes the karma-manager-pot target)
has each of its messages translated in the .po, and the .po translates no
message the sources no longer have. A string added or changed in the sources
without `ninja karma-manager-pot karma-manager-update-po` and a translation
fails here.
"""

import os
import re
import subprocess
import sys

from tap import Tap

DOMAIN = "karma-manager"
# meson's i18n 'glib' preset (mesonbuild/modules/i18n.py), so that this
# template has the messages the karma-manager-pot target extracts.
XGETTEXT_ARGS = [
    "--from-code=UTF-8", "--add-comments",
    "--keyword=_", "--keyword=N_", "--keyword=C_:1c,2", "--keyword=NC_:1c,2",
    "--keyword=g_dcgettext:2", "--keyword=g_dngettext:2,3", "--keyword=g_dpgettext2:2c,3",
    "--flag=N_:1:pass-c-format", "--flag=C_:2:pass-c-format", "--flag=NC_:2:pass-c-format",
    "--flag=g_dngettext:2:pass-c-format", "--flag=g_strdup_printf:1:c-format",
    "--flag=g_string_printf:2:c-format", "--flag=g_string_append_printf:2:c-format",
    "--flag=g_error_new:3:c-format", "--flag=g_set_error:4:c-format",
]


TOOLS = {}


def run(args):
    """(exit status, stdout and stderr together) of a gettext tool (by its name)."""
    p = subprocess.run([TOOLS[args[0]]] + args[1:], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True,
                       env=dict(os.environ, LC_ALL="C.UTF-8", LANGUAGE=""))
    return p.returncode, p.stdout


def languages(src):
    with open(os.path.join(src, "po", "LINGUAS"), encoding="utf-8") as f:
        return [w for line in f if not line.startswith("#") for w in line.split()]


def plural_forms(path):
    with open(path, encoding="utf-8") as f:
        m = re.search(r'^"Plural-Forms: *([^"\\]*)', f.read(), re.MULTILINE)
    return m.group(1).strip() if m else None


def make_template(src, work):
    pot = os.path.join(work, DOMAIN + ".pot")
    status, out = run(["xgettext", "--package-name=" + DOMAIN, "-D", src,
                       "--files-from=" + os.path.join(src, "po", "POTFILES.in"),
                       "-o", pot] + XGETTEXT_ARGS)
    return pot if status == 0 and os.path.isfile(pot) else None, out


def check_language(tap, lang, po, pot, work):
    status, out = run(["msgfmt", "--check", "--statistics", "-o", os.devnull, po])
    tap.check(status == 0, f"{lang}: msgfmt --check passes", out)
    tap.check(status == 0 and not re.search(r"fuzzy|untranslated", out),
              f"{lang}: no fuzzy and no untranslated message", out)
    ref = os.path.join(work, lang + "-msginit.po")
    status, out = run(["msginit", "--no-translator", "-l", lang, "-i", pot, "-o", ref])
    want = plural_forms(ref) if status == 0 else None
    have = plural_forms(po)
    tap.check(want and have and want.replace(" ", "") == have.replace(" ", ""),
              f"{lang}: Plural-Forms are gettext's for the language",
              f"{po}: {have}\nmsginit: {want}\n{out}")
    # msgcmp DEF REF: each message of REF is in DEF (untranslated and fuzzy ones do not count)
    status, out = run(["msgcmp", po, pot])
    tap.check(status == 0, f"{lang}: every message of the sources is translated", out)
    status, out = run(["msgcmp", "--use-untranslated", "--use-fuzzy", pot, po])
    tap.check(status == 0, f"{lang}: no message the sources no longer have", out)


def main(argv):
    src, work = argv[1], argv[2]
    TOOLS.update(zip(("msgfmt", "xgettext", "msginit", "msgcmp"), argv[3:7]))
    tap = Tap()
    os.makedirs(work, exist_ok=True)
    langs = languages(src)
    tap.check(langs, "po/LINGUAS names languages", "none")
    pot, out = make_template(src, work)
    tap.check(pot, "xgettext makes a template from po/POTFILES.in", out)
    for lang in langs:
        po = os.path.join(src, "po", lang + ".po")
        if tap.check(os.path.isfile(po), f"{lang}: po/{lang}.po exists") and pot:
            check_language(tap, lang, po, pot, work)
    return tap.done()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
