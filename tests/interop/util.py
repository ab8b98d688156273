#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""util.py - small host-side helpers for the interop tests.

  util.py gen FILE SIZE SEED     deterministic pseudo-random content
  util.py free IMAGE             free blocks, counted as the kernel's statfs does
  util.py extents IMAGE INO      data extents of a file, over all its tables
  util.py manifest DIR DIRSIZE   the oracle's manifest of a host folder
                                 (directories shown with size DIRSIZE)

These read the image on their own (not through our OMFS core and not through
the kernel), so they are a third opinion when the other two disagree.
"""
import hashlib
import os
import random
import struct
import sys

NIL = 0xFFFFFFFFFFFFFFFF
EXTENT_IN_INODE = 0x1D0
EXTENT_IN_CONT = 0x40
MAX_TABLES = 1 << 16


def gen(path, size, seed):
    rng = random.Random(int(seed))
    with open(path, "wb") as f:
        left = int(size)
        while left:
            n = min(left, 1 << 20)
            f.write(rng.randbytes(n))
            left -= n


class Image:
    def __init__(self, path):
        self.f = open(path, "rb")
        sb = self.read_at(0, 512)
        (self.root_block, self.num_blocks, magic, self.bs, self.mirrors,
         self.sbs) = struct.unpack_from(">QQIIII", sb, 256)
        if magic != 0xC2993D87:
            sys.exit("util.py: not an OMFS volume (bad magic)")
        rb = self.read_block(self.root_block)
        self.bitmap = struct.unpack_from(">Q", rb, 48)[0]

    def read_at(self, off, n):
        self.f.seek(off)
        data = self.f.read(n)
        if len(data) != n:
            sys.exit("util.py: short read at byte %d" % off)
        return data

    def read_block(self, blk):
        if blk >= self.num_blocks:
            sys.exit("util.py: block %d out of range" % blk)
        return self.read_at(blk * self.bs, self.sbs)


def free(path):
    img = Image(path)
    # the kernel counts zero bits over ceil(num_blocks / 8) bytes
    nbytes = (img.num_blocks + 7) // 8
    bm = img.read_at(img.bitmap * img.bs, nbytes)
    used = sum(bin(b).count("1") for b in bm)
    print(nbytes * 8 - used)


def extents(path, ino):
    img = Image(path)
    blk, off, total = int(ino), EXTENT_IN_INODE, 0
    for _ in range(MAX_TABLES):
        buf = img.read_block(blk)
        nxt, count = struct.unpack_from(">QI", buf, off)
        if count < 1 or off + 16 + 16 * count > img.sbs:
            sys.exit("util.py: block %d: bad extent count %d" % (blk, count))
        total += count - 1
        if nxt == NIL:
            print(total)
            return
        blk, off = nxt, EXTENT_IN_CONT
    sys.exit("util.py: extent chain too long (loop?)")


def manifest(top, dirsize):
    """Lines path<TAB>type<TAB>size<TAB>sha256 as the oracle prints them:
    paths from the volume root with a leading '/', sorted bytewise as
    whole lines (the guest's busybox sort)."""
    top = os.fsencode(top)
    lines = []
    for root, dirs, files in os.walk(top):
        for d in dirs:
            path = os.path.join(root, d)
            lines.append(b"%s\td\t%s\t-" % (path[len(top):], dirsize.encode()))
        for f in files:
            path = os.path.join(root, f)
            with open(path, "rb") as fh:
                data = fh.read()
            lines.append(b"%s\tf\t%d\t%s" % (path[len(top):], len(data),
                                              hashlib.sha256(data).hexdigest().encode()))
    lines.sort()
    sys.stdout.buffer.write(b"".join(l + b"\n" for l in lines))


def main():
    cmds = {"gen": (gen, 3), "free": (free, 1), "extents": (extents, 2),
            "manifest": (manifest, 2)}
    if len(sys.argv) < 2 or sys.argv[1] not in cmds or len(sys.argv) != 2 + cmds[sys.argv[1]][1]:
        sys.exit(__doc__)
    fn, _ = cmds[sys.argv[1]]
    fn(*sys.argv[2:])


if __name__ == "__main__":
    main()
