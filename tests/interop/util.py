#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""util.py - small host-side helpers for the interop tests.

  util.py gen FILE SIZE SEED     deterministic pseudo-random content
  util.py free IMAGE [OFFSET]    free blocks, counted as the kernel's statfs does
                                 (of the volume OFFSET bytes into IMAGE)
  util.py extents IMAGE INO      data extents of a file, over all its tables
  util.py tables IMAGE INO       extent tables of a file (1: the inode's only)
  util.py collide NBUCKETS COUNT PREFIX
                                 COUNT names of one length that the kernel's
                                 hash puts in one bucket of NBUCKETS
  util.py buckets IMAGE DIRINO    the used buckets of a directory: one line
                                 "BUCKET NAME NAME..." each, in chain order
  util.py riocp-compare JSON FILEINFO
                                 `karmactl tracks --json` against the
                                 fileinfo riocp wrote: same objects, same values
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
DIR_TABLE = 0x1B8
I_SIBLING = 32
I_NAME = 152


def gen(path, size, seed):
    rng = random.Random(int(seed))
    with open(path, "wb") as f:
        left = int(size)
        while left:
            n = min(left, 1 << 20)
            f.write(rng.randbytes(n))
            left -= n


class Image:
    def __init__(self, path, offset=0):
        self.f = open(path, "rb")
        self.offset = int(offset)
        sb = self.read_at(0, 512)
        (self.root_block, self.num_blocks, magic, self.bs, self.mirrors,
         self.sbs) = struct.unpack_from(">QQIIII", sb, 256)
        if magic != 0xC2993D87:
            sys.exit("util.py: not an OMFS volume (bad magic)")
        rb = self.read_block(self.root_block)
        self.bitmap = struct.unpack_from(">Q", rb, 48)[0]

    def read_at(self, off, n):
        self.f.seek(self.offset + off)
        data = self.f.read(n)
        if len(data) != n:
            sys.exit("util.py: short read at byte %d" % off)
        return data

    def read_block(self, blk):
        if blk >= self.num_blocks:
            sys.exit("util.py: block %d out of range" % blk)
        return self.read_at(blk * self.bs, self.sbs)


def free(path, offset=0):
    img = Image(path, offset)
    # the kernel counts zero bits over ceil(num_blocks / 8) bytes
    nbytes = (img.num_blocks + 7) // 8
    bm = img.read_at(img.bitmap * img.bs, nbytes)
    used = sum(bin(b).count("1") for b in bm)
    print(nbytes * 8 - used)


def walk_tables(path, ino):
    """(extents, tables) of a file: data extents over all its tables."""
    img = Image(path)
    blk, off, total = int(ino), EXTENT_IN_INODE, 0
    for tables in range(1, MAX_TABLES + 1):
        buf = img.read_block(blk)
        nxt, count = struct.unpack_from(">QI", buf, off)
        if count < 1 or off + 16 + 16 * count > img.sbs:
            sys.exit("util.py: block %d: bad extent count %d" % (blk, count))
        total += count - 1
        if nxt == NIL:
            return total, tables
        blk, off = nxt, EXTENT_IN_CONT
    sys.exit("util.py: extent chain too long (loop?)")


def extents(path, ino):
    print(walk_tables(path, ino)[0])


def tables(path, ino):
    print(walk_tables(path, ino)[1])


def fold(c):
    """The kernel's tolower: ASCII and the Latin-1 capitals (not 0xD7)."""
    if 0x41 <= c <= 0x5A or 0xC0 <= c <= 0xDE and c != 0xD7:
        return c + 0x20
    return c


def name_hash(name, nbuckets):
    h = 0
    for i, c in enumerate(name):
        h ^= fold(c) << (i % 24)
    return h % nbuckets


def collide(nbuckets, count, prefix):
    """COUNT names PREFIX + 5 hex digits, all in the bucket of the first."""
    nbuckets, count = int(nbuckets), int(count)
    # docs/FORMAT.md §6.2's test vectors, so that a wrong hash cannot pass unnoticed
    assert name_hash(b"10", 201) == name_hash(b"31", 201) == 81
    assert name_hash(b"a", 201) == 97
    names, bucket = [], None
    for i in range(1 << 20):
        name = b"%s%05x" % (prefix.encode(), i)
        b = name_hash(name, nbuckets)
        if bucket is None:
            bucket = b
        if b == bucket:
            names.append(name)
            if len(names) == count:
                sys.stdout.buffer.write(b"".join(n + b"\n" for n in names))
                return
    sys.exit("util.py: not enough names in one bucket")


def buckets(path, dirino):
    img = Image(path)
    buf = img.read_block(int(dirino))
    for b in range((img.sbs - DIR_TABLE) // 8):
        ino = struct.unpack_from(">Q", buf, DIR_TABLE + 8 * b)[0]
        names = []
        while ino != NIL:
            if len(names) >= img.num_blocks:
                sys.exit("util.py: bucket %d: chain loops" % b)
            node = img.read_block(ino)
            names.append(node[I_NAME:I_NAME + 256].split(b"\0")[0])
            ino = struct.unpack_from(">Q", node, I_SIBLING)[0]
        if names:
            sys.stdout.buffer.write(b"%d %s\n" % (b, b" ".join(names)))


def riocp_compare(json_path, fileinfo_path):
    """Every object of ours is in riocp's view with the same value for each
    of our keys; riocp's other keys hold 0 or nothing (what smalldb leaves
    out, and riocp leaves out keys whose value is empty); and riocp has no
    object we lack."""
    import json
    with open(json_path, encoding="utf-8") as f:
        ours = {o["fid"]: o for o in json.load(f)}
    theirs = {}
    with open(fileinfo_path, encoding="utf-8") as f:
        for rec in f.read().split("\n\n"):
            kv = dict(l.split("=", 1) for l in rec.splitlines() if "=" in l)
            if kv:
                theirs[int(kv["fid"])] = kv
    bad = []
    if sorted(ours) != sorted(theirs):
        bad.append("fids: ours %s, riocp's %s" % (sorted(ours), sorted(theirs)))
    for fid in sorted(set(ours) & set(theirs)):
        o, t = ours[fid], theirs[fid]
        for k, v in o.items():
            if str(v) != t.get(k, ""):
                bad.append("fid %d: %s: ours %r, riocp %r" % (fid, k, v, t.get(k)))
        for k, v in t.items():
            if k not in o and v not in ("", "0"):
                bad.append("fid %d: riocp has %s=%r, we do not" % (fid, k, v))
    for line in bad[:40]:
        print(line)
    print("%d objects, %d differences" % (len(ours), len(bad)))
    if bad:
        sys.exit(1)


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
    cmds = {"gen": (gen, 3, 3), "free": (free, 1, 2), "extents": (extents, 2, 2),
            "tables": (tables, 2, 2), "manifest": (manifest, 2, 2),
            "collide": (collide, 3, 3), "buckets": (buckets, 2, 2), "riocp-compare": (riocp_compare, 2, 2)}
    if len(sys.argv) < 2 or sys.argv[1] not in cmds or \
            not cmds[sys.argv[1]][1] <= len(sys.argv) - 2 <= cmds[sys.argv[1]][2]:
        sys.exit(__doc__)
    fn = cmds[sys.argv[1]][0]
    fn(*sys.argv[2:])


if __name__ == "__main__":
    main()
