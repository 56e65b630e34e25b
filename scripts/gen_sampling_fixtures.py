#!/usr/bin/python3
"""Writes tests/fixtures/nn_layers/sampling.json: torch 1.13's F.grid_sample (every mode, padding mode
and align_corners, with the gradients of sum(y * r) for the input and the grid), F.affine_grid, and
F.interpolate in "nearest-exact" (2-D) and in 1-D (nearest, nearest-exact, linear) for
burn/tensor/grid_sample.hpp and burn/tensor/module_ops.hpp.

Run once with Debian's python3-torch (1.13):  /usr/bin/python3 scripts/gen_sampling_fixtures.py

Format of scripts/gen_layer_fixtures.py: {"config": {}, "tensors": {"name": {"shape", "data"}}}.
"""
import json
import os

import torch
import torch.nn.functional as F

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures", "nn_layers")


def put(tensors, name, t):
    t = t.detach().to(torch.float64).contiguous()
    tensors[name] = {"shape": list(t.shape), "data": [float(v) for v in t.reshape(-1)]}


def main():
    g = torch.Generator().manual_seed(21)
    t = {}
    x = torch.randn(2, 3, 5, 6, generator=g, dtype=torch.float64)
    grid = (torch.rand(2, 4, 3, 2, generator=g, dtype=torch.float64) * 2.6 - 1.3)
    r = torch.randn(2, 3, 4, 3, generator=g, dtype=torch.float64)
    put(t, "x", x)
    put(t, "grid", grid)
    put(t, "r", r)
    for mode in ["nearest", "bilinear", "bicubic"]:
        for pad in ["zeros", "border", "reflection"]:
            for align in [False, True]:
                key = "%s.%s.%d" % (mode, pad, int(align))
                xg = x.clone().requires_grad_(True)
                gg = grid.clone().requires_grad_(True)
                y = F.grid_sample(xg, gg, mode=mode, padding_mode=pad, align_corners=align)
                (y * r).sum().backward()
                put(t, "y." + key, y)
                put(t, "gx." + key, xg.grad)
                put(t, "gg." + key, gg.grad)
    theta = torch.randn(2, 2, 3, generator=g, dtype=torch.float64)
    put(t, "theta", theta)
    for align in [False, True]:
        put(t, "affine.%d" % int(align), F.affine_grid(theta, [2, 3, 4, 5], align_corners=align))
    img = torch.randn(1, 2, 5, 7, generator=g, dtype=torch.float64)
    put(t, "img", img)
    put(t, "nearest_exact.up", F.interpolate(img, size=(8, 9), mode="nearest-exact"))
    put(t, "nearest_exact.down", F.interpolate(img, size=(3, 4), mode="nearest-exact"))
    sig = torch.randn(2, 3, 7, generator=g, dtype=torch.float64)
    put(t, "sig", sig)
    for mode in ["nearest", "nearest-exact", "linear"]:
        for size in [11, 4]:
            aligns = [False, True] if mode == "linear" else [None]
            for align in aligns:
                key = "i1d.%s.%d.%s" % (mode, size, "n" if align is None else int(align))
                put(t, key, F.interpolate(sig, size=size, mode=mode, align_corners=align))
    with open(os.path.join(OUT, "sampling.json"), "w") as f:
        json.dump({"config": {}, "tensors": t}, f)


if __name__ == "__main__":
    main()
