#!/usr/bin/env python3
"""Seed files that need no burn writer (fuzz/make_corpus.sh runs it): copies of the store fixtures,
raw pickle streams (the data.pkl of the zip fixtures and Python's own pickles of every basic type),
zip archives (stored, deflated, zip64, with a comment). Standard library only.
    make_corpus.py <repo root> <corpus dir>"""
import collections
import io
import os
import pickle
import shutil
import sys
import zipfile

repo, out = sys.argv[1], sys.argv[2]
fixtures = os.path.join(repo, "tests", "fixtures", "store")


def put(target, name, data):
    os.makedirs(os.path.join(out, target), exist_ok=True)
    with open(os.path.join(out, target, name), "wb") as f:
        f.write(data)


def fixture(name):
    with open(os.path.join(fixtures, name), "rb") as f:
        return f.read()


for name in ["small.bpk", "dtypes.bpk"]:
    put("burnpack", name, fixture(name))
for name in ["mlp.safetensors", "dtypes.safetensors", "views.safetensors", "mlp_io.safetensors"]:
    put("safetensors", name, fixture(name))
zips = ["mlp.pt", "mlp_nested.pt", "views.pt", "dtypes.pt"]
for name in zips + ["mlp_legacy.pt", "mlp_nested_legacy.pt", "views_legacy.pt", "dtypes_legacy.pt",
                    "evil.pt", "evil_legacy.pt", "evil_eval.pt", "tar_views.pt", "tar_nested.pt"]:
    put("pytorch", name, fixture(name))

# zip_index: the zip fixtures, and archives Python writes in each layout.
for name in zips[:2]:
    put("zip_index", name, fixture(name))
for label, kw, comment in [("stored", dict(compression=zipfile.ZIP_STORED), b""),
                           ("deflated", dict(compression=zipfile.ZIP_DEFLATED), b"a comment"),
                           ("zip64", dict(compression=zipfile.ZIP_STORED, allowZip64=True), b"")]:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", **kw) as z:
        z.comment = comment
        for i, payload in enumerate([b"x" * 64, bytes(range(256)), b""]):
            with z.open(f"archive/data/{i}", "w", force_zip64=(label == "zip64")) as f:
                f.write(payload)
        z.writestr("archive/data.pkl", pickle.dumps({"w": 1}, protocol=2))
    put("zip_index", label + ".zip", buf.getvalue())

# pickle: the data.pkl of the zip fixtures and Python's pickles of the basic types, each protocol.
for name in zips:
    with zipfile.ZipFile(os.path.join(fixtures, name)) as z:
        for entry in z.namelist():
            if entry.endswith("data.pkl"):
                put("pickle", name.replace(".pt", ".pkl"), z.read(entry))
shared = [1, 2]
values = {
    "basic": {"i": 1, "neg": -300, "big": 2**70, "f": 2.5, "s": "text", "b": b"\x00\xff", "t": (1, 2, 3),
              "n": None, "yes": True, "no": False, "l": [1, [2, [3]]], "e": {}, "u": "\u00e9"},
    "memo": [shared, shared, (shared,)],
    "ordered": collections.OrderedDict([("a", 1), ("b", [1.0, 2.0])]),
}
for label, v in values.items():
    for proto in (0, 2, 4, 5):
        put("pickle", f"{label}_p{proto}.pkl", pickle.dumps(v, protocol=proto))

# checkpoint_state: hand-written states beside the generated ones.
put("checkpoint_state", "minimal.json",
    b'{"tag": "1", "epoch": 1, "iteration": 0, "parts": ["model", "optim", "scheduler"]}')
put("checkpoint_state", "history.json",
    b'{"format": 1, "seed": 7, "num_epochs": 4, "tag": "1", "epoch": 2, "iteration": 5, '
    b'"parts": ["model"], "train": {"Loss": [0.5, null]}, "valid": {"Loss": [1, 2], "Accuracy": [50.5]}}')
