#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""check-metainfo.py - the metainfo's links point where they should.

    check-metainfo.py METAINFO SOURCE_ROOT HOMEPAGE_URL VERSION

Every URL of the metainfo is on the project's home (HOMEPAGE_URL, the
repository its io.github.OWNER.NAME id names), which the README names too.
Every screenshot is a file of this repository, linked at this version's tag
(raw.githubusercontent.com/OWNER/NAME/vVERSION/PATH), and window-sized: a PNG
of at most 1000x700. There are light and dark branding colours.
"""

import os
import re
import struct
import sys
import xml.etree.ElementTree as ET

from tap import Tap

MAX_W, MAX_H = 1000, 700


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        return None
    return struct.unpack(">II", head[16:24])


def main(argv):
    metainfo, root_dir, home, version = argv[1:5]
    tap = Tap()
    root = ET.parse(metainfo).getroot()
    owner_name = re.sub(r"^https://github\.com/", "", home)
    app_id = root.findtext("id")
    tap.check(app_id.lower() == "io.github." + owner_name.replace("/", ".").lower(),
              "the app id names the home's repository", f"{app_id} vs {home}")

    urls = {u.get("type"): u.text for u in root.findall("url")}
    off = {t: u for t, u in urls.items() if not u.startswith(home)}
    tap.check({"homepage", "bugtracker", "vcs-browser", "help"} <= set(urls) and not off,
              f"homepage, bugtracker, vcs-browser and help are on {home}", off or urls)
    with open(os.path.join(root_dir, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    tap.check(home in readme, "the README names the home", home)
    anchor = urls.get("help", "").partition("#")[2]
    headings = {re.sub(r"[^a-z0-9 -]", "", h.lower()).replace(" ", "-")
                for h in re.findall(r"^#+ (.+)$", readme, re.M)}
    tap.check(anchor in headings, "the help link is a heading of the README", anchor)

    prefix = f"https://raw.githubusercontent.com/{owner_name}/v{version}/"
    shots = root.findall("screenshots/screenshot")
    tap.check(len(shots) >= 1 and sum(s.get("type") == "default" for s in shots) == 1,
              "screenshots, one of them the default", len(shots))
    for shot in shots:
        url = shot.findtext("image") or ""
        rel = url[len(prefix):] if url.startswith(prefix) else None
        tap.check(rel is not None, f"{url} is linked at the tag v{version}", prefix)
        path = os.path.join(root_dir, rel or "")
        size = png_size(path) if rel and os.path.isfile(path) else None
        tap.check(size is not None, f"{rel} is a PNG in the repository", path)
        tap.check(size is not None and size[0] <= MAX_W and size[1] <= MAX_H,
                  f"{rel} is window-sized (at most {MAX_W}x{MAX_H})", size)
        tap.check(bool(shot.findtext("caption")), f"{rel} has a caption")

    schemes = sorted(c.get("scheme_preference") or "" for c in root.findall("branding/color")
                     if c.get("type") == "primary")
    tap.check(schemes == ["dark", "light"], "branding: a light and a dark primary colour",
              schemes)
    release = root.find("releases/release")
    tap.check(release is not None and release.get("version") == version
              and release.find("description") is not None,
              f"the newest release is {version}, with notes",
              None if release is None else release.attrib)
    return tap.done()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
