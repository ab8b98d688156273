#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""check-icons.py - the app icon and its symbolic variant are what the themes expect.

    check-icons.py ICONS_DIR APP_ID RSVG_CONVERT

The app icon is drawn on a 128x128 canvas, the symbolic one on 16x16 in the one
colour GTK recolours (#2e3436) with no gradients, images or text. Both must
render with librsvg (rsvg-convert) and cover a fair part of their canvas.
"""

import os
import re
import struct
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
import zlib

from tap import Tap

SVG = "{http://www.w3.org/2000/svg}"
SYMBOLIC_COLOUR = "#2e3436"


def png_alpha(path):
    """The alpha channel of an 8-bit RGBA PNG (what rsvg-convert writes), row by row."""
    with open(path, "rb") as f:
        data = f.read()
    pos, idat, width, height = 8, b"", 0, 0
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            if (depth, colour) != (8, 6):
                raise ValueError(f"not 8-bit RGBA: depth {depth}, colour type {colour}")
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw, stride, rows, prev = zlib.decompress(idat), width * 4, [], bytearray(width * 4)
    for y in range(height):
        start = y * (stride + 1)
        ftype, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for x in range(stride):
            a = line[x - 4] if x >= 4 else 0
            b, c = prev[x], prev[x - 4] if x >= 4 else 0
            if ftype == 1:
                line[x] = (line[x] + a) & 0xFF
            elif ftype == 2:
                line[x] = (line[x] + b) & 0xFF
            elif ftype == 3:
                line[x] = (line[x] + (a + b) // 2) & 0xFF
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        rows.append(line[3::4])
        prev = line
    return width, height, rows


def coverage(rsvg, svg, size, tmp):
    """Render svg at size x size; the share of pixels that are mostly opaque."""
    out = os.path.join(tmp, f"{os.path.basename(svg)}-{size}.png")
    subprocess.run([rsvg, "-w", str(size), "-h", str(size), svg, "-o", out],
                   check=True, capture_output=True)
    width, height, rows = png_alpha(out)
    if (width, height) != (size, size):
        raise ValueError(f"rendered {width}x{height}, not {size}x{size}")
    return sum(1 for row in rows for a in row if a >= 128) / (size * size)


def colours(root):
    """Every colour the drawing uses, from attributes and style properties."""
    found = set()
    for el in root.iter():
        props = dict(el.attrib)
        for decl in props.get("style", "").split(";"):
            if ":" in decl:
                key, value = decl.split(":", 1)
                props[key.strip()] = value.strip()
        for key in ("fill", "stroke", "stop-color", "color"):
            if key in props and props[key] != "none":
                found.add(props[key].lower())
    return found


def check_canvas(tap, root, size, name):
    tap.check(root.tag == SVG + "svg" and root.get("viewBox") == f"0 0 {size} {size}"
              and root.get("width") == str(size) and root.get("height") == str(size),
              f"{name}: a {size}x{size} canvas", f"{root.tag} {root.attrib}")


def main(argv):
    icons, app_id, rsvg = argv[1:4]
    tap = Tap()
    app_svg = os.path.join(icons, "hicolor", "scalable", "apps", app_id + ".svg")
    sym_svg = os.path.join(icons, "hicolor", "symbolic", "apps", app_id + "-symbolic.svg")
    with tempfile.TemporaryDirectory() as tmp:
        # An app icon is a solid shape; a symbolic one is mostly outlines.
        for svg, size, renders, least in ((app_svg, 128, (128, 32), 0.4),
                                          (sym_svg, 16, (16,), 0.2)):
            name = os.path.basename(svg)
            try:
                root = ET.parse(svg).getroot()
            except (OSError, ET.ParseError) as e:
                tap.check(False, f"{name}: well-formed SVG", e)
                continue
            tap.check(True, f"{name}: well-formed SVG")
            check_canvas(tap, root, size, name)
            for px in renders:
                try:
                    share = coverage(rsvg, svg, px, tmp)
                    tap.check(least <= share <= 0.95, f"{name}: renders at {px} px, covering "
                              f"{least:.0%}-95% of the canvas", f"covers {share:.0%}")
                except (OSError, ValueError, subprocess.CalledProcessError) as e:
                    tap.check(False, f"{name}: renders at {px} px", getattr(e, "stderr", e))
        sym = ET.parse(sym_svg).getroot()
        used = colours(sym)
        tap.check(used == {SYMBOLIC_COLOUR}, f"symbolic icon: one colour, {SYMBOLIC_COLOUR}", used)
        extras = {el.tag.replace(SVG, "") for el in sym.iter()
                  if re.sub(r"^\{.*\}", "", el.tag) in ("image", "text", "linearGradient",
                                                        "radialGradient", "filter", "mask")}
        tap.check(not extras, "symbolic icon: no images, text, gradients, filters or masks", extras)
    return tap.done()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
