#!/usr/bin/python3
"""Writes the fixtures of the RNN-T loss (tests/fixtures/nn_layers/rnnt.json) with torchaudio's
rnnt_loss (float32; torchaudio has no float64 kernel): per-sample losses (reduction='none') and the
gradients of sum(loss * r) with respect to the logits.

Run once with Debian's python3-torch (1.13) and python3-torchaudio (0.13):
    /usr/bin/python3 scripts/gen_rnnt_fixtures.py

Keys: "rnnt.<case>.logits", ".targets", ".logit_lengths", ".target_lengths" (integers stored as
floats), the losses under "rnnt.<case>", r under "r.rnnt.<case>" and the gradient under
"g.rnnt.<case>.logits". The test also checks the losses against an enumeration of every alignment in
float64 and the gradients by finite differences, independently of torchaudio; torchaudio 0.13 has no
fused_log_softmax switch, so that mode is checked those two ways only.
"""
import json
import os
import sys

import torch
import torchaudio.functional as AF

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_module_extra_fixtures import put, t, tensors  # noqa: E402  the same format and helpers

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures", "nn_layers")


def case(name, logits, targets, logit_lengths, target_lengths, **kw):
    put(f"rnnt.{name}.logits", logits)
    put(f"rnnt.{name}.targets", targets.float())
    put(f"rnnt.{name}.logit_lengths", logit_lengths.float())
    put(f"rnnt.{name}.target_lengths", target_lengths.float())
    r = torch.randn(logits.shape[0])
    x = logits.clone().requires_grad_()
    loss = AF.rnnt_loss(x, targets, logit_lengths, target_lengths, reduction="none", **kw)
    (g,) = torch.autograd.grad((loss * r).sum(), [x])
    put(f"rnnt.{name}", loss)
    put(f"r.rnnt.{name}", r)
    put(f"g.rnnt.{name}.logits", g)


def main():
    torch.manual_seed(2028)
    # basic: two samples of different lengths (T 5 and 4, U 3 and 2), 6 classes, blank -1 (the last).
    logits = torch.randn(2, 5, 4, 6)
    targets = torch.tensor([[1, 3, 0], [2, 2, 0]], dtype=torch.int32)
    case("basic", logits, targets, torch.tensor([5, 4], dtype=torch.int32), torch.tensor([3, 2], dtype=torch.int32))
    # blank0: blank 0, a sample with an empty target, clamped gradients.
    logits = torch.randn(3, 4, 3, 5) * 2
    targets = torch.tensor([[1, 4], [3, 0], [2, 1]], dtype=torch.int32)
    case("blank0", logits, targets, torch.tensor([4, 3, 2], dtype=torch.int32),
         torch.tensor([2, 0, 2], dtype=torch.int32), blank=0, clamp=0.05)
    os.makedirs(OUT, exist_ok=True)
    body = {"config": {}, "tensors": {k: t(v) for k, v in tensors.items()}}
    with open(os.path.join(OUT, "rnnt.json"), "w") as f:
        json.dump(body, f, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
