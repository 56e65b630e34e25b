#!/usr/bin/python3
"""Writes the data test fixtures in tests/fixtures/data/ with Debian's python3 (PIL, numpy, sqlite3,
gzip): images decoded by PIL as the reference for burn's libpng/libjpeg decoders, IDX files written
byte by byte with struct (big-endian), and a SQLite database in burn's layout (a table per split with
a row_id column). Deterministic: rerunning gives the same pixels (JPEG bytes depend on PIL's libjpeg).

Run: /usr/bin/python3 scripts/gen_data_fixtures.py [out_dir]
"""
import gzip
import json
import os
import shutil
import sqlite3
import struct
import sys
import zlib

import numpy as np
from PIL import Image

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures",
                                                          "data")


def pattern(h, w, c, seed):
    """Smooth, deterministic pixels (JPEG keeps smooth images close to the original)."""
    y, x = np.mgrid[0:h, 0:w]
    planes = [(x * 255 // max(w - 1, 1) + seed * 37 + k * 60 + y * 7) % 256 for k in range(c)]
    return np.stack(planes, axis=-1).astype(np.uint8)


def save(rel, array, mode, fmt, expected, **kw):
    path = os.path.join(OUT, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    img = Image.fromarray(array[..., 0] if mode in ("L", "P") else array, mode)
    if mode == "P":  # a palette image: 16 grey-blue entries
        img.putpalette(sum(([i * 16, i * 8, 255 - i * 16] for i in range(16)), []))
    img.save(path, fmt, **kw)
    decoded = np.asarray(Image.open(path).convert({"L": "L", "P": "RGB", "RGB": "RGB", "RGBA": "RGBA", "LA": "LA"}[mode]))
    if decoded.ndim == 2:
        decoded = decoded[..., None]
    expected[rel] = {"height": decoded.shape[0], "width": decoded.shape[1], "channels": decoded.shape[2],
                     "pixels": decoded.reshape(-1).tolist()}


def write_png16(path, array, colour_type):
    """A 16-bit PNG from scratch: signature, IHDR, one IDAT (filter 0 on every row), IEND."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    h, w = array.shape[:2]
    raw = b"".join(b"\x00" + array[y].astype(">u2").tobytes() for y in range(h))
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 16, colour_type, 0, 0, 0)) +
                chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def images():
    expected = {}
    save("folder/cat/a.png", pattern(4, 5, 3, 1), "RGB", "PNG", expected)
    save("folder/cat/b.jpg", pattern(16, 24, 3, 2), "RGB", "JPEG", expected, quality=95)
    save("folder/dog/c.png", pattern(3, 3, 1, 3), "L", "PNG", expected)
    save("folder/dog/D.PNG", pattern(2, 6, 3, 4), "RGB", "PNG", expected)
    save("folder/ant/e.jpeg", pattern(8, 8, 1, 5), "L", "JPEG", expected, quality=90)
    with open(os.path.join(OUT, "folder/dog/notes.txt"), "w") as f:
        f.write("not an image: ImageFolderDataset skips it\n")
    save("png/rgba.png", pattern(3, 4, 4, 6), "RGBA", "PNG", expected)
    save("png/palette.png", (pattern(5, 4, 1, 7) % 16).astype(np.uint8), "P", "PNG", expected)
    save("png/grey_alpha.png", pattern(2, 3, 2, 8), "LA", "PNG", expected)
    # 16-bit samples (written byte by byte: PIL writes no 16-bit colour PNG); the reference is the
    # sample scaled to 8 bits with rounding, round(v * 255 / 65535).
    grey16 = (np.arange(12, dtype=np.uint32).reshape(3, 4, 1) * 5000 + 7).astype(np.uint16)
    rgba16 = (np.arange(2 * 3 * 4, dtype=np.uint32).reshape(2, 3, 4) * 2731 + 128).astype(np.uint16)
    for rel, array, colour_type in (("png/grey16.png", grey16, 0), ("png/rgba16.png", rgba16, 6)):
        write_png16(os.path.join(OUT, rel), array, colour_type)
        scaled = np.floor(array.astype(np.float64) * 255 / 65535 + 0.5).astype(np.uint8)
        expected[rel] = {"height": array.shape[0], "width": array.shape[1], "channels": array.shape[2],
                         "pixels": scaled.reshape(-1).tolist()}
    with open(os.path.join(OUT, "images.json"), "w") as f:
        json.dump(expected, f, separators=(",", ":"))
    with open(os.path.join(OUT, "png/truncated.png"), "wb") as f:
        f.write(open(os.path.join(OUT, "folder/cat/a.png"), "rb").read()[:40])


def idx_bytes(code, fmt, shape, values):
    return struct.pack(">BBBB", 0, 0, code, len(shape)) + struct.pack(">%dI" % len(shape), *shape) + \
        struct.pack(">%d%s" % (len(values), fmt), *values)


def idx():
    d = os.path.join(OUT, "idx")
    os.makedirs(d, exist_ok=True)
    n = 3
    images = [(i * 29 + j * 3) % 256 for i in range(n) for j in range(28 * 28)]
    with gzip.GzipFile(os.path.join(d, "images-idx3-ubyte.gz"), "wb", mtime=0) as f:
        f.write(idx_bytes(0x08, "B", [n, 28, 28], images))
    with open(os.path.join(d, "labels-idx1-ubyte"), "wb") as f:
        f.write(idx_bytes(0x08, "B", [n], [7, 0, 4]))
    with open(os.path.join(d, "f32-idx2"), "wb") as f:
        f.write(idx_bytes(0x0D, "f", [2, 3], [0.5, -1.25, 3.0, 1e-3, 65504.0, -0.0]))
    with open(os.path.join(d, "i16-idx1"), "wb") as f:
        f.write(idx_bytes(0x0B, "h", [4], [1, -2, 300, -32768]))
    with open(os.path.join(d, "i32-idx3"), "wb") as f:
        f.write(idx_bytes(0x0C, "i", [2, 1, 2], [70000, -5, 0, 2147483647]))
    with open(os.path.join(d, "f64-idx1"), "wb") as f:
        f.write(idx_bytes(0x0E, "d", [2], [0.1, -2.5e300]))
    with open(os.path.join(d, "i8-idx0"), "wb") as f:  # rank 0: one element
        f.write(idx_bytes(0x09, "b", [], [-7]))


def sqlite():
    path = os.path.join(OUT, "splits.db")
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    for split, rows in (("train", [(1, 0.5, 3, "three", b"\x00\x01"), (2, -1.5, 1, "one", b""),
                                   (3, 2.0, 2, None, b"\xff")]),
                        ("test", [(1, 9.0, 0, "zero", b"\x10")])):
        db.execute('CREATE TABLE "%s" (row_id INTEGER PRIMARY KEY, x REAL, label INTEGER, name TEXT, data BLOB)' % split)
        db.executemany('INSERT INTO "%s" VALUES (?, ?, ?, ?, ?)' % split, rows)
    db.execute("CREATE TABLE gap (row_id INTEGER PRIMARY KEY, v INTEGER)")
    db.executemany("INSERT INTO gap VALUES (?, ?)", [(1, 10), (3, 30)])
    db.commit()
    db.close()


if __name__ == "__main__":
    if os.path.isdir(os.path.join(OUT, "folder")):
        shutil.rmtree(os.path.join(OUT, "folder"))
    images()
    idx()
    sqlite()
