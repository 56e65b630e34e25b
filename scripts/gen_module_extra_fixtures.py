#!/usr/bin/python3
"""Writes the PyTorch fixtures of the modules added for issue 20 (tests/fixtures/nn_layers/modules_extra.json):
CosineSimilarity, PairwiseDistance, PixelUnshuffle and LocalResponseNorm.

Run once with Debian's python3-torch (1.13):  /usr/bin/python3 scripts/gen_module_extra_fixtures.py

Same format as scripts/gen_layer_fixtures.py: {"config": {...}, "tensors": {"name": {"shape", "data"}}}.
Inputs are named "<module>.<input>"; for a case "<module>.<case>" the output is stored under that key and
the gradient of sum(output * r) (r a fixed random tensor of the output's shape, stored under
"r.<module>.<case>") with respect to each input under "g.<module>.<case>.<input>". Outputs are computed in
float64 from the float32 inputs.
"""
import json
import os

import torch
import torch.nn.functional as F

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures", "nn_layers")

tensors = {}


def t(x):
    x = x.detach()
    return {"shape": list(x.shape), "data": [float(v) for v in x.reshape(-1).tolist()]}


def put(key, value):
    tensors[key] = value.detach().to(torch.float32)


def case(key, fn, inputs):
    xs = {k: v.to(torch.float64).requires_grad_() for k, v in inputs.items()}
    y = fn(**xs)
    r = torch.randn(y.shape, dtype=torch.float32)
    put(key, y)
    put("r." + key, r)
    gs = torch.autograd.grad((y * r.to(torch.float64)).sum(), list(xs.values()))
    for k, g in zip(xs.keys(), gs):
        put("g." + key + "." + k, g)


def main():
    torch.manual_seed(2021)
    # CosineSimilarity: [4, 6] along dim 1 (one all-zero row: similarity 0), [2, 3, 5] along dim -1 and 1.
    a, b = torch.randn(4, 6), torch.randn(4, 6)
    a[2] = 0.0
    c, d = torch.randn(2, 3, 5), torch.randn(2, 3, 5)
    for k, v in {"a": a, "b": b, "c": c, "d": d}.items():
        put("cos." + k, v)
    case("cos.dim1", lambda x1, x2: F.cosine_similarity(x1, x2, dim=1), {"x1": a, "x2": b})
    case("cos.last", lambda x1, x2: F.cosine_similarity(x1, x2, dim=-1), {"x1": c, "x2": d})
    case("cos.mid", lambda x1, x2: F.cosine_similarity(x1, x2, dim=1, eps=1e-6), {"x1": c, "x2": d})

    # PairwiseDistance on [2, 3, 5] (the last dim), p = 2, 1, 3, inf; keepdim.
    for p, name in ((2.0, "p2"), (1.0, "p1"), (3.0, "p3"), (float("inf"), "pinf")):
        case("dist." + name, lambda x1, x2: F.pairwise_distance(x1, x2, p=p), {"x1": c, "x2": d})
    case("dist.keep", lambda x1, x2: F.pairwise_distance(x1, x2, keepdim=True, eps=1e-3), {"x1": c, "x2": d})

    # PixelUnshuffle: [2, 3, 4, 6] with r = 2, and [1, 2, 6, 3] with r = 3.
    u1, u2 = torch.randn(2, 3, 4, 6), torch.randn(1, 2, 6, 3)
    put("unshuffle.x1", u1)
    put("unshuffle.x2", u2)
    case("unshuffle.r2", lambda x: F.pixel_unshuffle(x, 2), {"x": u1})
    case("unshuffle.r3", lambda x: F.pixel_unshuffle(x, 3), {"x": u2})

    # LocalResponseNorm: [2, 6, 4, 3] with size 3 (defaults), size 4 (even: the window leans back) with
    # alpha 0.5, beta 0.6, k 2; a 3-D input [2, 5, 7] with size 2.
    l4, l3 = torch.randn(2, 6, 4, 3) * 2, torch.randn(2, 5, 7) * 2
    put("lrn.x4", l4)
    put("lrn.x3", l3)
    case("lrn.s3", lambda x: torch.nn.LocalResponseNorm(3)(x), {"x": l4})
    case("lrn.s4", lambda x: torch.nn.LocalResponseNorm(4, alpha=0.5, beta=0.6, k=2.0)(x), {"x": l4})
    case("lrn.r3", lambda x: torch.nn.LocalResponseNorm(2, alpha=0.1)(x), {"x": l3})

    os.makedirs(OUT, exist_ok=True)
    body = {"config": {}, "tensors": {k: t(v) for k, v in tensors.items()}}
    with open(os.path.join(OUT, "modules_extra.json"), "w") as f:
        json.dump(body, f, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
