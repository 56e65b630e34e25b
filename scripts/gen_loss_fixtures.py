#!/usr/bin/python3
"""Writes the PyTorch fixtures of the CTC loss tests (tests/fixtures/nn_layers/ctc.json).

Run once with Debian's python3-torch (1.13):  /usr/bin/python3 scripts/gen_loss_fixtures.py

Same format as scripts/gen_layer_fixtures.py: {"config": {...}, "tensors": {"name": {"shape", "data"}}}.
Logits are drawn in float32; PyTorch then computes in float64 from those exact values
(log_probs = log_softmax(logits)), so the C++ test can reproduce them in f64 to 1e-9 and in f32 to 1e-5.
Gradients are taken with respect to the logits (through log_softmax): PyTorch's ctc_loss returns
exp(log_probs) plus the true partial derivatives for log_probs, which agrees with the true gradient
only after the log_softmax chain rule (see include/burn/nn/loss/ctc.hpp).

Cases (key prefix):
    mean / sum / none     blank 0, padded [N, S] targets with a repeated label and an empty target
    blank_last            blank = C - 1, mean
    concat                the same problem with 1-D concatenated targets, sum
    inf / inf_zero        a batch with an impossible alignment; zero_infinity False (none; the
                          infinite loss is written as -1) / True (sum)
"""
import json
import os

import torch
import torch.nn.functional as F

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures", "nn_layers")


def t(x):
    x = x.detach()
    return {"shape": list(x.shape), "data": [float(v) for v in x.reshape(-1).tolist()]}


def case(tensors, prefix, logits32, targets, in_lens, tgt_lens, blank, reduction, zero_infinity=False):
    logits = logits32.to(torch.float64).requires_grad_(True)
    lp = F.log_softmax(logits, dim=2)
    loss = F.ctc_loss(lp, targets, in_lens, tgt_lens, blank=blank, reduction=reduction,
                      zero_infinity=zero_infinity)
    loss_out = loss.detach().reshape(-1) if loss.dim() == 0 else loss.detach().clone()
    loss_out[torch.isinf(loss_out)] = -1.0  # JSON has no infinity: -1 marks an infinite loss
    tensors[prefix + ".loss"] = loss_out
    total = loss.sum()
    if torch.isfinite(total):
        (g,) = torch.autograd.grad(total, [logits])
        tensors[prefix + ".grad"] = g


def main():
    torch.manual_seed(7)
    T, N, C, S = 12, 4, 6, 5
    logits = torch.randn(T, N, C, dtype=torch.float32)
    targets = torch.tensor([[1, 2, 2, 3, 4], [5, 5, 1, 0, 0], [3, 1, 4, 1, 0], [0, 0, 0, 0, 0]],
                           dtype=torch.int64)
    in_lens = torch.tensor([12, 10, 7, 12], dtype=torch.int64)
    tgt_lens = torch.tensor([5, 3, 4, 0], dtype=torch.int64)
    tensors = {"logits": logits, "targets": targets.float(), "input_lengths": in_lens.float(),
               "target_lengths": tgt_lens.float()}
    for red in ("mean", "sum", "none"):
        case(tensors, red, logits, targets, in_lens, tgt_lens, 0, red)
    # blank = C - 1: labels must avoid C - 1, so map 5 -> 0 (0 is a label there).
    tb = targets.clone()
    tb[tb == 5] = 0
    tensors["targets_blank_last"] = tb.float()
    case(tensors, "blank_last", logits, tb, in_lens, tgt_lens, C - 1, "mean")
    concat = torch.cat([targets[n, : tgt_lens[n]] for n in range(N)])
    tensors["targets_concat"] = concat.float()
    case(tensors, "concat", logits, concat, in_lens, tgt_lens, 0, "sum")
    # Impossible: sample 1 has 3 frames for the target [2, 2, 2] (needs 5).
    in2 = torch.tensor([12, 3, 7, 12], dtype=torch.int64)
    t2 = torch.tensor([[1, 2, 3, 0, 0], [2, 2, 2, 0, 0], [4, 4, 0, 0, 0], [1, 0, 0, 0, 0]], dtype=torch.int64)
    l2 = torch.tensor([3, 3, 2, 1], dtype=torch.int64)
    tensors.update({"inf.targets": t2.float(), "inf.input_lengths": in2.float(), "inf.target_lengths": l2.float()})
    case(tensors, "inf", logits, t2, in2, l2, 0, "none")
    case(tensors, "inf_zero", logits, t2, in2, l2, 0, "sum", zero_infinity=True)
    os.makedirs(OUT, exist_ok=True)
    body = {"config": {"T": T, "N": N, "C": C, "S": S}, "tensors": {k: t(v) for k, v in tensors.items()}}
    with open(os.path.join(OUT, "ctc.json"), "w") as f:
        json.dump(body, f, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
