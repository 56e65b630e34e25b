#!/usr/bin/python3
"""Writes tests/fixtures/store/rust_burn.bpk: a Burnpack file laid out as Rust burn 0.22's burn-pack
writes it, independently of this project's writer (CBOR encoded by hand below, as ciborium encodes
serde's data model):

- header: u32 magic 0x4255524E, u16 version 1, u32 metadata length (little-endian);
- metadata: a CBOR map {"tensors": {name: {"dtype", "shape", "data_offsets", "param_id"?}},
  "metadata": {str: str}, "scalars": {name: {"Int" | "UInt" | "Float" | "Bool": value}}}, tensors in
  name order (a BTreeMap), DType as serde writes it ("F32"; Bool as {"Bool": "Native"}), data_offsets a
  2-array relative to the data section, param_id omitted when absent;
- the data section starts at the next multiple of 256, each tensor on a 256-byte boundary.

Run with Debian's python3:  /usr/bin/python3 scripts/gen_burnpack_rust_fixture.py
"""
import os
import struct

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures", "store",
                   "rust_burn.bpk")


def head(major, n):
    if n < 24:
        return bytes([major << 5 | n])
    for extra, fmt in ((24, ">B"), (25, ">H"), (26, ">I"), (27, ">Q")):
        if n < (1 << (8 * struct.calcsize(fmt))):
            return bytes([major << 5 | extra]) + struct.pack(fmt, n)
    raise ValueError(n)


def cbor(v):
    if isinstance(v, bool):
        return b"\xf5" if v else b"\xf4"
    if isinstance(v, int):
        return head(0, v) if v >= 0 else head(1, -1 - v)
    if isinstance(v, float):
        return b"\xfb" + struct.pack(">d", v)
    if isinstance(v, str):
        b = v.encode()
        return head(3, len(b)) + b
    if isinstance(v, (list, tuple)):
        return head(4, len(v)) + b"".join(cbor(x) for x in v)
    if isinstance(v, dict):
        return head(5, len(v)) + b"".join(cbor(k) + cbor(x) for k, x in v.items())
    raise TypeError(v)


def main():
    # (name, dtype as serde writes it, shape, raw bytes, param_id)
    tensors = [
        ("head.bias", "F32", [2], struct.pack("<2f", 0.5, -1.5), None),
        ("head.weight", "F32", [3, 2], struct.pack("<6f", 1, 2, 3, 4, 5, 6), 11),  # burn's [in, out]
        ("legacy_mask", "Bool", [3], bytes([1, 0, 1]), None),                       # before BoolStore
        ("mask", {"Bool": "Native"}, [4], bytes([1, 0, 0, 1]), 12),
        ("scale", "F16", [2], struct.pack("<2e", 0.25, -2.0), None),
        ("steps", "I64", [2], struct.pack("<2q", -7, 1 << 40), None),
        ("wide", "Flex32", [1], struct.pack("<f", 3.5), None),
    ]
    descriptors, offset, data = {}, 0, b""
    for name, dtype, shape, raw, pid in sorted(tensors, key=lambda t: t[0]):
        offset = (offset + 255) // 256 * 256
        data = data.ljust(offset, b"\0") + raw
        d = {"dtype": dtype, "shape": shape, "data_offsets": [offset, offset + len(raw)]}
        if pid is not None:
            d["param_id"] = pid
        descriptors[name] = d
        offset += len(raw)
    meta = cbor({
        "tensors": descriptors,
        "metadata": {"format": "burnpack", "producer": "burn", "version": "0.22.0"},
        "scalars": {"delta": {"Int": -2}, "done": {"Bool": True}, "epoch": {"UInt": 3}, "lr": {"Float": 0.5}},
    })
    out = struct.pack("<IHI", 0x4255524E, 1, len(meta)) + meta
    out = out.ljust((len(out) + 255) // 256 * 256, b"\0") + data
    with open(OUT, "wb") as f:
        f.write(out)


if __name__ == "__main__":
    main()
