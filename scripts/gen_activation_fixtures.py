#!/usr/bin/python3
"""Writes the PyTorch fixtures of the activations added for issue 20
(tests/fixtures/nn_layers/activations_extra.json): GLU, hard/soft shrink, threshold, thresholded ReLU
(burn's; PyTorch has none, so it is torch.where(x > alpha, x, 0)) and RReLU in evaluation.

Run once with Debian's python3-torch (1.13):  /usr/bin/python3 scripts/gen_activation_fixtures.py

Same format as scripts/gen_layer_fixtures.py: {"config": {...}, "tensors": {"name": {"shape", "data"}}}.
"x" is the input [3, 4, 6], "r" a random cotangent; "y.<case>" is the output and "g.<case>" the
gradient of sum(y * r) with respect to x, for every case of CASES. Values of x are kept 0.05 away
from every kink (0, +-0.5, +-1.2, 0.3, 1) so that one-sided gradients agree.
"""
import json
import os

import torch
import torch.nn.functional as F

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures", "nn_layers")

CASES = {
    "glu": lambda x: F.glu(x, dim=-1),
    "glu_dim1": lambda x: F.glu(x, dim=1),
    "hard_shrink": torch.nn.Hardshrink(),
    "hard_shrink_a": torch.nn.Hardshrink(1.2),
    "soft_shrink": torch.nn.Softshrink(),
    "soft_shrink_a": torch.nn.Softshrink(1.2),
    "threshold": torch.nn.Threshold(0.3, -2.0),
    "thresholded_relu": lambda x: torch.where(x > 1.0, x, torch.zeros_like(x)),
    "thresholded_relu_a": lambda x: torch.where(x > 0.3, x, torch.zeros_like(x)),
    "rrelu_eval": torch.nn.RReLU(0.1, 0.3).eval(),
    "rrelu_eval_default": torch.nn.RReLU().eval(),
}


def t(x):
    x = x.detach()
    return {"shape": list(x.shape), "data": x.reshape(-1).tolist()}


def main():
    torch.manual_seed(20)
    x = torch.randn(3, 4, 6, dtype=torch.float32) * 2
    for k in (0.0, 0.5, -0.5, 1.2, -1.2, 0.3, 1.0):
        x = torch.where((x - k).abs() < 0.05, x + 0.1, x)
    r = torch.randn(3, 4, 6, dtype=torch.float32)
    tensors = {"x": x, "r": r}
    for name, fn in CASES.items():
        xi = x.clone().requires_grad_()
        y = fn(xi)
        rr = r[..., : y.shape[-1]] if name == "glu" else (r[:, : y.shape[1]] if name == "glu_dim1" else r)
        (g,) = torch.autograd.grad((y * rr).sum(), [xi])
        tensors["y." + name] = y
        tensors["g." + name] = g
    os.makedirs(OUT, exist_ok=True)
    body = {"config": {}, "tensors": {k: t(v) for k, v in tensors.items()}}
    with open(os.path.join(OUT, "activations_extra.json"), "w") as f:
        json.dump(body, f, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
