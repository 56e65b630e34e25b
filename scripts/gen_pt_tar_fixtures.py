#!/usr/bin/python3
"""Writes tar-format torch.save fixtures (PyTorch before 0.1.10) in tests/fixtures/store/, with the
values torch.load reads from each as JSON beside it (<stem>.json).

No PyTorch since 0.1.10 writes this format, so the files are built here by hand with tarfile and pickle,
laid out as torch 0.1.x's torch.save wrote them and as torch 1.13's legacy_load (torch/serialization.py)
reads them: a tar archive of four members,

  sys_info  a pickled dict (protocol_version, little_endian, type_sizes); torch 1.13 ignores it
  pickle    the object, whose persistent ids are str(key) of the tensors (or storages) it holds
  tensors   pickled count, then per tensor the pickled (key, storage_key, tensor_type), then its metadata
            as _write_metadata wrote it: ndim as a C long (torch 1.13 reads an int32 and skips 4 bytes),
            ndim int64 sizes, ndim int64 strides, the int64 storage offset
  storages  pickled count, then per storage the pickled (key, location, storage_type) and the storage as
            _write_file writes it (an int64 element count, then the bytes); then the pickled list of
            storage views (view_key, root_key, element offset, element count)

Keys are ints (torch 0.1.x used each object's _cdata pointer). Each file is loaded back with torch.load
(the independent reference) before its JSON is written; the JSON holds torch.load's values, not the
values put in. The archives are written as pax (float mtimes, so tarfile adds a pax header before each
member, as it did for torch 0.1.x under Python 3), plain ustar and GNU tar, and cut after the two zero
blocks that end them (tarfile pads to 10 KiB records; torch.load does not need the padding).

Run: /usr/bin/python3 scripts/gen_pt_tar_fixtures.py [out_dir]
"""
import collections
import io
import json
import os
import pickle
import struct
import sys
import tarfile

import torch

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures",
                                                          "store")

# dtype -> (storage type, tensor type, dtype name in the JSON)
TYPES = {
    torch.float32: (torch.FloatStorage, torch.FloatTensor, "f32"),
    torch.float64: (torch.DoubleStorage, torch.DoubleTensor, "f64"),
    torch.float16: (torch.HalfStorage, torch.HalfTensor, "f16"),
    torch.bfloat16: (torch.BFloat16Storage, torch.BFloat16Tensor, "bf16"),
    torch.int64: (torch.LongStorage, torch.LongTensor, "i64"),
    torch.int32: (torch.IntStorage, torch.IntTensor, "i32"),
    torch.int16: (torch.ShortStorage, torch.ShortTensor, "i16"),
    torch.int8: (torch.CharStorage, torch.CharTensor, "i8"),
    torch.uint8: (torch.ByteStorage, torch.ByteTensor, "u8"),
    torch.bool: (torch.BoolStorage, torch.BoolTensor, "bool"),
}


def raw(t):
    """The bytes of a contiguous 1-d tensor, little-endian."""
    t = t.contiguous()
    if t.dtype in (torch.float16, torch.bfloat16):
        t = t.view(torch.int16)
    elif t.dtype == torch.bool:
        t = t.to(torch.uint8)
    return t.numpy().tobytes()


class Ref:
    """Stands for a tensor in the pickled object: pickled as its persistent id str(key)."""

    def __init__(self, key):
        self.key = key


class Archive:
    """The storages and tensors of one file, with keys like torch 0.1.x's _cdata pointers."""

    def __init__(self):
        self.next_key = 0x5600_0000_0000
        self.storages = []  # (key, flat tensor)
        self.views = []  # (view_key, root_key, offset, numel)
        self.tensors = []  # (key, storage_key, dtype, sizes, strides, offset)

    def key(self):
        self.next_key += 0x30
        return self.next_key

    def storage(self, flat):
        k = self.key()
        self.storages.append((k, flat.flatten()))
        return k

    def storage_view(self, root_key, offset, numel):
        k = self.key()
        self.views.append((k, root_key, offset, numel))
        return k

    def tensor(self, storage_key, dtype, sizes, strides, offset=0):
        k = self.key()
        self.tensors.append((k, storage_key, dtype, list(sizes), list(strides), offset))
        return Ref(k)

    def dense(self, t):
        """A tensor with a storage of its own holding exactly its values."""
        return self.tensor(self.storage(t.reshape(-1)), t.dtype, t.shape, contiguous_strides(t.shape))

    def members(self, obj):
        sys_info = pickle.dumps(dict(protocol_version=1001, little_endian=True,
                                     type_sizes=dict(short=2, int=4, long=8)), protocol=2)
        buf = io.BytesIO()
        pickler = pickle.Pickler(buf, protocol=2)
        pickler.persistent_id = lambda o: str(o.key) if isinstance(o, Ref) else None
        pickler.dump(obj)
        tensors = io.BytesIO()
        tensors.write(pickle.dumps(len(self.tensors), protocol=2))
        for key, storage_key, dtype, sizes, strides, offset in self.tensors:
            tensors.write(pickle.dumps((key, storage_key, TYPES[dtype][1]), protocol=2))
            n = len(sizes)
            tensors.write(struct.pack(f"<q{n}q{n}qq", n, *sizes, *strides, offset))
        storages = io.BytesIO()
        storages.write(pickle.dumps(len(self.storages), protocol=2))
        for key, flat in self.storages:
            storages.write(pickle.dumps((key, "cpu", TYPES[flat.dtype][0]), protocol=2))
            storages.write(struct.pack("<q", flat.numel()) + raw(flat))
        storages.write(pickle.dumps(self.views, protocol=2))
        # torch 0.1.x's order.
        return [("sys_info", sys_info), ("pickle", buf.getvalue()), ("tensors", tensors.getvalue()),
                ("storages", storages.getvalue())]


def contiguous_strides(shape):
    strides, acc = [], 1
    for d in reversed(list(shape)):
        strides.insert(0, acc)
        acc *= d
    return strides


def write_tar(path, members, fmt):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:", format=fmt) as tar:
        for name, data in members:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            # A float mtime (os.stat's) makes tarfile's pax format add a pax header with its full value.
            info.mtime = 1487000000.25 if fmt == tarfile.PAX_FORMAT else 1487000000
            info.mode = 0o600
            tar.addfile(info, io.BytesIO(data))
        end = tar.offset + 2 * tarfile.BLOCKSIZE  # the offset of the end-of-archive blocks, then the blocks
    data = buf.getvalue()[:end]
    assert data[-1024:] == bytes(1024)
    with open(path, "wb") as f:
        f.write(data)


def values_of(t):
    """The values in row-major order (f16 and bf16 as the floats they are exactly)."""
    t = t.contiguous().reshape(-1)
    if t.dtype in (torch.float16, torch.bfloat16):
        t = t.float()
    return t.tolist()


def flatten(obj, prefix=""):
    if isinstance(obj, torch.Tensor):
        yield prefix, obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield from flatten(v, f"{prefix}.{k}" if prefix else str(k))


def save(stem, archive, obj, fmt, expect):
    """Writes stem.pt, checks it against expect (name -> tensor) with torch.load, writes stem.json."""
    path = os.path.join(OUT, stem + ".pt")
    write_tar(path, archive.members(obj), fmt)
    assert tarfile.is_tarfile(path)
    loaded = torch.load(path)
    got = dict(flatten(loaded))
    assert list(got) == list(expect), (list(got), list(expect))
    tensors = collections.OrderedDict()
    for name, t in got.items():
        want = expect[name]
        assert t.dtype == want.dtype and t.shape == want.shape and torch.equal(t, want), (stem, name, t, want)
        tensors[name] = {"dtype": TYPES[t.dtype][2], "shape": list(t.shape), "values": values_of(t)}
    lines = [f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in tensors.items()]
    with open(os.path.join(OUT, stem + ".json"), "w") as f:
        f.write('{"file": %s, "tensors": {\n%s\n}}\n' % (json.dumps(stem + ".pt"), ",\n".join(lines)))
    return loaded


def main():
    os.makedirs(OUT, exist_ok=True)
    g = torch.Generator().manual_seed(11)

    # Every dtype a storage type of torch 1.13 names (torch 0.1.x had no bool or bfloat16 storages, but
    # torch.load reads them in this format too), each tensor with a storage of its own.
    values = collections.OrderedDict()
    values["f32"] = torch.randn(3, 4, generator=g)
    values["f64"] = torch.randn(2, 3, generator=g, dtype=torch.float64)
    values["f16"] = torch.randn(5, generator=g).half()
    values["bf16"] = torch.randn(2, 2, generator=g).bfloat16()
    values["i64"] = torch.tensor([-(2 ** 62), -1, 0, 2 ** 62 + 3])
    values["i32"] = torch.tensor([[-(2 ** 31), 7], [2 ** 31 - 1, 0]], dtype=torch.int32)
    values["i16"] = torch.tensor([-32768, 5, 32767], dtype=torch.int16)
    values["i8"] = torch.tensor([-128, 0, 127], dtype=torch.int8)
    values["u8"] = torch.tensor([0, 1, 255], dtype=torch.uint8)
    values["bool"] = torch.tensor([True, False, True, True])
    values["scalar"] = torch.tensor(2.5)  # ndim 0
    values["empty"] = torch.zeros(0, 3)  # a storage of 0 elements
    a = Archive()
    sd = collections.OrderedDict((k, a.dense(v)) for k, v in values.items())
    save("tar_dtypes", a, sd, tarfile.PAX_FORMAT, values)

    # Views: four tensors on one storage (offsets, a transpose, a column), and a storage view (the
    # storages member's view list) holding rows 1..2 that two more tensors use, one at an offset.
    base = torch.arange(24, dtype=torch.float32).reshape(4, 6) / 7.0
    a = Archive()
    root = a.storage(base)
    view = a.storage_view(root, 6, 12)
    sd = collections.OrderedDict()
    sd["base"] = a.tensor(root, torch.float32, (4, 6), (6, 1))
    sd["row"] = a.tensor(root, torch.float32, (6,), (1,), 12)
    sd["transposed"] = a.tensor(root, torch.float32, (6, 4), (1, 6))
    sd["column"] = a.tensor(root, torch.float32, (4,), (6,), 3)
    sd["view_rows"] = a.tensor(view, torch.float32, (2, 6), (6, 1))
    sd["view_strided"] = a.tensor(view, torch.float32, (2, 3), (6, 2), 1)
    expect = collections.OrderedDict([
        ("base", base), ("row", base[2]), ("transposed", base.t()), ("column", base[:, 3]),
        ("view_rows", base[1:3]), ("view_strided", base[1:3, 1::2])])
    save("tar_views", a, sd, tarfile.USTAR_FORMAT, expect)

    # A checkpoint with the state dict of a Linear(4, 3) under "model", beside non-tensor values.
    weight = torch.randn(3, 4, generator=g)
    bias = torch.randn(3, generator=g)
    a = Archive()
    model = collections.OrderedDict([("fc.weight", a.dense(weight)), ("fc.bias", a.dense(bias))])
    ckpt = {"epoch": 3, "model": model, "note": "tar checkpoint"}
    expect = collections.OrderedDict([("model.fc.weight", weight), ("model.fc.bias", bias)])
    loaded = save("tar_nested", a, ckpt, tarfile.GNU_FORMAT, expect)
    assert loaded["epoch"] == 3 and loaded["note"] == "tar checkpoint"

    # A hostile pickle member (os.system): the reader must refuse the global. Not loaded here.
    a = Archive()
    members = a.members({"weight": Evil()})
    write_tar(os.path.join(OUT, "tar_evil.pt"), members, tarfile.USTAR_FORMAT)


class Evil:
    def __reduce__(self):
        return (os.system, ("echo pwned > /tmp/burn-pickle-pwned",))


if __name__ == "__main__":
    main()
