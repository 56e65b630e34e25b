#!/usr/bin/python3
"""Writes the PyTorch fixtures of Unfold4d and Fold4d (tests/fixtures/nn_layers/fold.json): F.unfold and
F.fold with default settings, and with stride, padding and dilation that differ per spatial dim.

Run once with Debian's python3-torch (1.13):  /usr/bin/python3 scripts/gen_fold_fixtures.py

Same format as scripts/gen_module_extra_fixtures.py: inputs "<module>.<input>"; for a case
"<module>.<case>" the output under that key, the fixed random weights r of the output's shape under
"r.<module>.<case>" and the gradient of sum(output * r) with respect to each input under
"g.<module>.<case>.<input>". Outputs are computed in float64 from the float32 inputs.
"""
import json
import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_module_extra_fixtures import case, put, t, tensors  # noqa: E402  the same format and helpers

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures", "nn_layers")


def main():
    torch.manual_seed(2026)
    # Unfold: [2, 3, 5, 6] with a 2 x 3 kernel (defaults); [1, 2, 7, 6] with kernel 3 x 2, stride 2 x 1,
    # padding 1 x 2, dilation 2 x 1 (windows overlap and reach into the padding).
    u1, u2 = torch.randn(2, 3, 5, 6), torch.randn(1, 2, 7, 6)
    put("unfold.x1", u1)
    put("unfold.x2", u2)
    case("unfold.basic", lambda x: F.unfold(x, (2, 3)), {"x": u1})
    case("unfold.full", lambda x: F.unfold(x, (3, 2), dilation=(2, 1), padding=(1, 2), stride=(2, 1)), {"x": u2})
    # Fold: columns for output 4 x 5 with a 2 x 2 kernel (defaults: 3 x 4 windows); for output 7 x 6 with
    # kernel 3 x 2, stride 2 x 1, padding 1 x 1, dilation 1 x 2 (4 x 6 windows).
    f1, f2 = torch.randn(2, 3 * 4, 12), torch.randn(1, 2 * 6, 24)
    put("fold.c1", f1)
    put("fold.c2", f2)
    case("fold.basic", lambda c: F.fold(c, (4, 5), (2, 2)), {"c": f1})
    case("fold.full", lambda c: F.fold(c, (7, 6), (3, 2), dilation=(1, 2), padding=(1, 1), stride=(2, 1)), {"c": f2})

    os.makedirs(OUT, exist_ok=True)
    body = {"config": {}, "tensors": {k: t(v) for k, v in tensors.items()}}
    with open(os.path.join(OUT, "fold.json"), "w") as f:
        json.dump(body, f, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
