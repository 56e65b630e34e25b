#!/usr/bin/python3
"""Writes the PyTorch fixtures of the ConvTranspose3d and 3-D pool layer tests
(tests/fixtures/nn_layers/conv_transpose3d*.json, pool3d*.json).

Run once with Debian's python3-torch (1.13):  /usr/bin/python3 scripts/gen_conv3d_fixtures.py

Same format as scripts/gen_layer_fixtures.py: {"config": {...}, "tensors": {...}} with the input "x",
the output "y", the parameters under "param.<burn path>" (weight [in, out / groups, kd, kh, kw], bias)
and the gradients of sum(y * r) (r a fixed random tensor, "r") under "grad.x" / "grad.param.<path>".
Pools have no parameters; their config names the layer ("layer": "max" | "avg" | "adaptive").
"""
import json
import os

import torch

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures", "nn_layers")


def t(x):
    x = x.detach()
    return {"shape": list(x.shape), "data": [float(v) for v in x.reshape(-1).tolist()]}


def case(name, c_in, c_out, kernel, stride, padding, padding_out, dilation, groups, bias, in_shape):
    conv = torch.nn.ConvTranspose3d(c_in, c_out, kernel, stride=stride, padding=padding,
                                    output_padding=padding_out, dilation=dilation, groups=groups, bias=bias)
    x = torch.randn(*in_shape, dtype=torch.float32, requires_grad=True)
    y = conv(x)
    r = torch.randn(*y.shape, dtype=torch.float32)
    params = {"weight": conv.weight}
    if bias:
        params["bias"] = conv.bias
    grads = torch.autograd.grad((y * r).sum(), [x] + list(params.values()))
    tensors = {"x": x, "y": y, "r": r, "grad.x": grads[0]}
    for (k, p), g in zip(params.items(), grads[1:]):
        tensors["param." + k] = p
        tensors["grad.param." + k] = g
    config = {"channels": [c_in, c_out], "kernel_size": kernel, "stride": stride, "padding": padding,
              "padding_out": padding_out, "dilation": dilation, "groups": groups, "bias": bias}
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, name + ".json"), "w") as f:
        json.dump({"config": config, "tensors": {k: t(v) for k, v in tensors.items()}}, f, separators=(",", ":"))
        f.write("\n")


def pool_case(name, layer, module, config, in_shape):
    x = torch.randn(*in_shape, dtype=torch.float32, requires_grad=True)
    y = module(x)
    r = torch.randn(*y.shape, dtype=torch.float32)
    (g,) = torch.autograd.grad((y * r).sum(), [x])
    config = dict(config, layer=layer)
    with open(os.path.join(OUT, name + ".json"), "w") as f:
        json.dump({"config": config, "tensors": {k: t(v) for k, v in {"x": x, "y": y, "r": r, "grad.x": g}.items()}},
                  f, separators=(",", ":"))
        f.write("\n")


def pools():
    nn = torch.nn
    pool_case("pool3d_max", "max", nn.MaxPool3d([2, 3, 2], stride=[2, 1, 2], padding=[1, 1, 0], dilation=[1, 1, 2]),
              {"kernel_size": [2, 3, 2], "stride": [2, 1, 2], "padding": [1, 1, 0], "dilation": [1, 1, 2],
               "ceil_mode": False}, (2, 3, 5, 6, 7))
    pool_case("pool3d_max_ceil", "max", nn.MaxPool3d(2, stride=2, ceil_mode=True),
              {"kernel_size": [2, 2, 2], "stride": [2, 2, 2], "padding": [0, 0, 0], "dilation": [1, 1, 1],
               "ceil_mode": True}, (1, 2, 5, 5, 3))
    pool_case("pool3d_avg", "avg", nn.AvgPool3d([3, 2, 2], stride=[2, 2, 1], padding=[1, 1, 0]),
              {"kernel_size": [3, 2, 2], "stride": [2, 2, 1], "padding": [1, 1, 0], "count_include_pad": True,
               "ceil_mode": False}, (2, 2, 6, 5, 4))
    pool_case("pool3d_avg_exclude_ceil", "avg",
              nn.AvgPool3d([3, 2, 2], stride=[2, 2, 2], padding=[1, 1, 1], count_include_pad=False, ceil_mode=True),
              {"kernel_size": [3, 2, 2], "stride": [2, 2, 2], "padding": [1, 1, 1], "count_include_pad": False,
               "ceil_mode": True}, (1, 3, 6, 5, 5))
    pool_case("pool3d_adaptive", "adaptive", nn.AdaptiveAvgPool3d([2, 3, 4]), {"output_size": [2, 3, 4]},
              (2, 3, 5, 7, 6))


def main():
    torch.manual_seed(5)
    case("conv_transpose3d", 2, 3, [2, 3, 2], [2, 1, 2], [0, 1, 1], [1, 0, 0], [1, 1, 2], 1, True, (2, 2, 3, 4, 3))
    case("conv_transpose3d_groups", 4, 2, [3, 2, 2], [1, 2, 1], [1, 0, 0], [0, 1, 0], [1, 1, 1], 2, False,
         (1, 4, 3, 3, 2))
    pools()


if __name__ == "__main__":
    main()
