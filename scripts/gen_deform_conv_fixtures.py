#!/usr/bin/python3
"""Writes the PyTorch fixtures of DeformConv2d (tests/fixtures/nn_layers/deform_conv.json):
torchvision.ops.deform_conv2d in float64 with its input, offset, mask, weight and bias gradients.

Run once with Debian's python3-torch (1.13) and python3-torchvision (0.14):
    /usr/bin/python3 scripts/gen_deform_conv_fixtures.py

Same format as scripts/gen_module_extra_fixtures.py (inputs "<module>.<input>"; the output of a case
"<module>.<case>", fixed random weights "r.<module>.<case>" of its shape and the gradients of
sum(output * r) as "g.<module>.<case>.<input>"). Offsets are drawn with a spread of 1.5 pixels, so taps
read between pixels, across the padding and outside the image (where the sample is zero).
"""
import json
import os
import sys

import torch
from torchvision.ops import deform_conv2d

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_module_extra_fixtures import case, put, t, tensors  # noqa: E402  the same format and helpers

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures", "nn_layers")


def main():
    torch.manual_seed(2027)
    # basic: [2, 3, 6, 5], 3 x 3 kernel, padding 1, no mask, 4 output channels with a bias.
    x1 = torch.randn(2, 3, 6, 5)
    w1 = torch.randn(4, 3, 3, 3) * 0.3
    b1 = torch.randn(4)
    o1 = torch.randn(2, 2 * 9, 6, 5) * 1.5
    for k, v in {"x1": x1, "w1": w1, "b1": b1, "o1": o1}.items():
        put("deform." + k, v)
    case("deform.basic", lambda x, o, w, b: deform_conv2d(x, o, w, b, padding=(1, 1)),
         {"x": x1, "o": o1, "w": w1, "b": b1})
    # full: [1, 4, 7, 8], kernel 2 x 3, stride 2 x 1, padding 2 x 1, dilation 1 x 2, two weight groups
    # (weight [6, 2, 2, 3]), two offset groups, a mask (DCNv2), no bias. Output 5 x 6.
    x2 = torch.randn(1, 4, 7, 8)
    w2 = torch.randn(6, 2, 2, 3) * 0.3
    ho, wo = (7 + 4 - 1 * (2 - 1) - 1) // 2 + 1, (8 + 2 - 2 * (3 - 1) - 1) // 1 + 1
    o2 = torch.randn(1, 2 * 2 * 6, ho, wo) * 1.5
    m2 = torch.rand(1, 2 * 6, ho, wo)
    for k, v in {"x2": x2, "w2": w2, "o2": o2, "m2": m2}.items():
        put("deform." + k, v)
    case("deform.full",
         lambda x, o, w, m: deform_conv2d(x, o, w, None, stride=(2, 1), padding=(2, 1), dilation=(1, 2), mask=m),
         {"x": x2, "o": o2, "w": w2, "m": m2})

    os.makedirs(OUT, exist_ok=True)
    body = {"config": {}, "tensors": {k: t(v) for k, v in tensors.items()}}
    with open(os.path.join(OUT, "deform_conv.json"), "w") as f:
        json.dump(body, f, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
