#!/usr/bin/python3
"""Writes the storage test fixtures in tests/fixtures/store/ with Debian's python3-torch (1.13).

Each model is saved as torch.save zip (PyTorch >= 1.6 format), legacy pickle
(_use_new_zipfile_serialization=False), a checkpoint nesting the state dict under "state_dict", and the
same weights as SafeTensors (written by hand: 8-byte header length, JSON header, raw bytes). Inputs and
PyTorch's outputs go to <model>_io.safetensors. Also writes every-dtype files, shared/strided storages
and hostile pickles (os.system) that must be refused. Deterministic: rerunning gives the same tensors.

Run: /usr/bin/python3 scripts/gen_store_fixtures.py [out_dir]
"""
import collections
import io
import json
import os
import pickle
import struct
import sys
import zipfile

import torch
import torch.nn as nn

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures",
                                                          "store")

ST_DTYPE = {
    torch.float32: "F32", torch.float64: "F64", torch.float16: "F16", torch.bfloat16: "BF16",
    torch.int64: "I64", torch.int32: "I32", torch.int16: "I16", torch.int8: "I8", torch.uint8: "U8",
    torch.bool: "BOOL",
}


def tensor_bytes(t):
    t = t.detach().contiguous().cpu()
    if t.dtype in (torch.float16, torch.bfloat16):
        return t.view(torch.int16).numpy().tobytes()
    if t.dtype == torch.bool:
        return t.to(torch.uint8).numpy().tobytes()
    return t.numpy().tobytes()


def save_safetensors(path, tensors, metadata=None):
    header, blobs, offset = {}, [], 0
    for name, t in tensors.items():
        b = tensor_bytes(t)
        header[name] = {"dtype": ST_DTYPE[t.dtype], "shape": list(t.shape), "data_offsets": [offset, offset + len(b)]}
        blobs.append(b)
        offset += len(b)
    if metadata:
        header["__metadata__"] = metadata
    h = json.dumps(header, separators=(",", ":")).encode()
    h += b" " * ((8 - len(h) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)))
        f.write(h)
        for b in blobs:
            f.write(b)


def out(name):
    return os.path.join(OUT, name)


def save_all_formats(stem, model):
    sd = model.state_dict()
    torch.save(sd, out(stem + ".pt"))
    torch.save(sd, out(stem + "_legacy.pt"), _use_new_zipfile_serialization=False)
    ckpt = {"epoch": 3, "state_dict": sd, "best_loss": 0.25, "note": "checkpoint"}
    torch.save(ckpt, out(stem + "_nested.pt"))
    torch.save(ckpt, out(stem + "_nested_legacy.pt"), _use_new_zipfile_serialization=False)
    save_safetensors(out(stem + ".safetensors"), collections.OrderedDict(sd), {"format": "pt"})


class Mlp(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 8)
        self.fc2 = nn.Linear(8, 3)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


class ConvBn(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 4, 3, padding=1)
        self.bn = nn.BatchNorm2d(4)

    def forward(self, x):
        return self.bn(self.conv(x))


class EmbedNorm(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(10, 6)
        self.norm = nn.LayerNorm(6)

    def forward(self, idx):
        return self.norm(self.embed(idx))


class Recurrent(nn.Module):
    def __init__(self, cell):
        super().__init__()
        self.rnn = cell(3, 5, batch_first=True)
        self.head = nn.Linear(5, 2)

    def forward(self, x):
        y, _ = self.rnn(x)
        return self.head(y)


def perturb(model):
    # Non-trivial norm parameters so that gamma/beta mistakes show in the outputs.
    with torch.no_grad():
        for name, p in model.named_parameters():
            if "norm" in name or "bn" in name:
                p.add_(torch.randn_like(p) * 0.3)


def main():
    os.makedirs(OUT, exist_ok=True)
    torch.manual_seed(7)

    mlp = Mlp().eval()
    x = torch.randn(5, 4)
    save_all_formats("mlp", mlp)
    save_safetensors(out("mlp_io.safetensors"), {"input": x, "output": mlp(x).detach()})

    conv = ConvBn()
    perturb(conv)
    conv.train()
    for _ in range(3):  # running statistics and num_batches_tracked move away from their defaults
        conv(torch.randn(4, 2, 5, 5))
    conv.eval()
    x = torch.randn(2, 2, 5, 5)
    save_all_formats("convbn", conv)
    save_safetensors(out("convbn_io.safetensors"),
                     {"input": x, "conv_output": conv.conv(x).detach(), "output": conv(x).detach()})

    en = EmbedNorm().eval()
    perturb(en)
    idx = torch.tensor([[1, 2, 3], [9, 0, 4]])
    save_all_formats("embednorm", en)
    save_safetensors(out("embednorm_io.safetensors"), {"input": idx, "output": en(idx).detach()})

    for stem, cell in (("lstm", nn.LSTM), ("gru", nn.GRU)):
        m = Recurrent(cell).eval()
        x = torch.randn(2, 4, 3)
        save_all_formats(stem, m)
        save_safetensors(out(stem + "_io.safetensors"), {"input": x, "output": m(x).detach()})

    enc = nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, dropout=0.0, batch_first=True).eval()
    perturb(enc)
    x = torch.randn(2, 3, 8)
    save_all_formats("encoder", enc)
    save_safetensors(out("encoder_io.safetensors"), {"input": x, "output": enc(x).detach()})

    # Every dtype, plus tensors sharing one storage (views with offsets and strides).
    base = torch.arange(24, dtype=torch.float32).reshape(4, 6) / 7.0
    dtypes = collections.OrderedDict()
    dtypes["f32"] = torch.randn(3, 4)
    dtypes["f64"] = torch.randn(2, 3, dtype=torch.float64)
    dtypes["f16"] = torch.randn(5).half()
    dtypes["bf16"] = torch.randn(2, 2).bfloat16()
    dtypes["i64"] = torch.tensor([-(2 ** 62), -1, 0, 2 ** 62 + 3])
    dtypes["i32"] = torch.tensor([[-(2 ** 31), 7], [2 ** 31 - 1, 0]], dtype=torch.int32)
    dtypes["i16"] = torch.tensor([-32768, 5, 32767], dtype=torch.int16)
    dtypes["i8"] = torch.tensor([-128, 0, 127], dtype=torch.int8)
    dtypes["u8"] = torch.tensor([0, 1, 255], dtype=torch.uint8)
    dtypes["bool"] = torch.tensor([True, False, True, True])
    dtypes["scalar"] = torch.tensor(2.5)
    dtypes["empty"] = torch.zeros(0, 3)
    torch.save(dtypes, out("dtypes.pt"))
    torch.save(dtypes, out("dtypes_legacy.pt"), _use_new_zipfile_serialization=False)
    save_safetensors(out("dtypes.safetensors"), dtypes)

    views = collections.OrderedDict()
    views["base"] = base
    views["row"] = base[2]  # storage offset 12
    views["transposed"] = base.t()  # strides (1, 6)
    views["column"] = base[:, 3]  # offset 3, stride 6
    torch.save(views, out("views.pt"))
    torch.save(views, out("views_legacy.pt"), _use_new_zipfile_serialization=False)
    save_safetensors(out("views.safetensors"), collections.OrderedDict((k, v.contiguous()) for k, v in views.items()))

    write_hostile()


class Evil:
    def __reduce__(self):
        return (os.system, ("echo pwned > /tmp/burn-pickle-pwned",))


def write_hostile():
    payload = pickle.dumps({"weight": Evil()}, protocol=2)  # pickling executes nothing
    with open(out("evil_legacy.pt"), "wb") as f:
        f.write(payload)
    # The same payload as the data.pkl of a zip checkpoint.
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as z:
        z.writestr("evil/data.pkl", payload)
        z.writestr("evil/version", "3\n")
    with open(out("evil.pt"), "wb") as f:
        f.write(buf.getvalue())
    # A global that is not a tensor rebuild: builtins.eval with an expression.
    with open(out("evil_eval.pt"), "wb") as f:
        f.write(b"\x80\x02cbuiltins\neval\nq\x00X\x0b\x00\x00\x001+1 and 0xbq\x01\x85q\x02Rq\x03.")


if __name__ == "__main__":
    main()
