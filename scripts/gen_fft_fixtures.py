#!/usr/bin/python3
"""Writes tests/fixtures/nn_layers/fft.json: torch 1.13's rfft, irfft, fft, ifft and stft on fixed
inputs, pinning the conventions of burn/tensor/fft.hpp (torch.fft's unnormalised forward transform,
irfft's n and its disregard of the imaginary DC and Nyquist parts, stft's centred reflect-padded
frames, its window centred in n_fft, normalized and onesided; istft's overlap-add, window envelope,
centring and length, on spectra that are not any signal's stft).

Run once with Debian's python3-torch (1.13):  /usr/bin/python3 scripts/gen_fft_fixtures.py

Format of scripts/gen_layer_fixtures.py: {"config": {}, "tensors": {"name": {"shape", "data"}}}.
"""
import json
import os

import torch

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures", "nn_layers")


def put(tensors, name, t):
    t = t.detach().to(torch.float64).contiguous()
    tensors[name] = {"shape": list(t.shape), "data": [float(v) for v in t.reshape(-1)]}


def main():
    g = torch.Generator().manual_seed(20)
    x = torch.randn(3, 10, generator=g, dtype=torch.float64)
    sig = torch.randn(2, 50, generator=g, dtype=torch.float64)
    t = {}
    put(t, "x", x)
    put(t, "sig", sig)
    for name, y in {"rfft": torch.fft.rfft(x, dim=-1), "rfft_n16": torch.fft.rfft(x, n=16, dim=-1),
                    "rfft_dim0": torch.fft.rfft(x, dim=0), "fft": torch.fft.fft(x.to(torch.complex128) + 0.5j * x.flip(-1)),
                    "ifft": torch.fft.ifft(x.to(torch.complex128) + 0.5j * x.flip(-1))}.items():
        put(t, name + ".re", y.real)
        put(t, name + ".im", y.imag)
    spec = torch.complex(x[:, :6], x.flip(-1)[:, :6])  # imaginary DC and Nyquist parts: ignored
    put(t, "spec.re", spec.real)
    put(t, "spec.im", spec.imag)
    put(t, "irfft", torch.fft.irfft(spec, dim=-1))
    put(t, "irfft_n9", torch.fft.irfft(spec, n=9, dim=-1))
    win = torch.hann_window(12, dtype=torch.float64)
    put(t, "win", win)
    cases = {
        "stft": dict(n_fft=16, hop_length=4, window=win, win_length=12),
        "stft_norm": dict(n_fft=16, hop_length=5, normalized=True),
        "stft_twosided": dict(n_fft=8, hop_length=3, center=False, onesided=False),
        "stft_constant": dict(n_fft=10, hop_length=4, pad_mode="constant"),
    }
    for name, kw in cases.items():
        y = torch.stft(sig, return_complex=True, **kw)
        put(t, name + ".re", y.real)
        put(t, name + ".im", y.imag)
    # istft of perturbed spectra (no signal has them as its stft, so the inverse is a least-squares fit,
    # not the round trip), torch 1.13's rules: the window envelope, the centring cut, length.
    icases = {
        "istft": (dict(n_fft=16, hop_length=4, window=win, win_length=12), dict(length=50)),
        "istft_norm": (dict(n_fft=16, hop_length=5, normalized=True), dict()),
        "istft_short": (dict(n_fft=10, hop_length=4), dict(length=37)),
        "istft_long": (dict(n_fft=10, hop_length=4), dict(length=60)),
    }
    for name, (kw, extra) in icases.items():
        y = torch.stft(sig, return_complex=True, **kw)
        y = y * (1 + 0.3 * torch.randn(y.shape, generator=g, dtype=torch.float64))
        put(t, name + ".in.re", y.real)
        put(t, name + ".in.im", y.imag)
        put(t, name, torch.istft(y, **kw, **extra))
    with open(os.path.join(OUT, "fft.json"), "w") as f:
        json.dump({"config": {}, "tensors": t}, f)


if __name__ == "__main__":
    main()
