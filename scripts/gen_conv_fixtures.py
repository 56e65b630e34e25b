#!/usr/bin/python3
"""Writes the PyTorch reference fixtures of the conv, pool and resampling layers.

Run with Debian's python3-torch (1.13): /usr/bin/python3 scripts/gen_conv_fixtures.py
Output: tests/fixtures/nn/{conv,pool,resample}.json, read by src/nn/*_test.cpp.

Every case holds its inputs (values exactly representable in float32), the op's arguments, the output
and the gradients of sum(y * gy) for a fixed random gy, all computed by torch in float64. The C++ tests
run the same op in f64 (tight tolerance) and in f32 (1e-5 relative).
"""
import json
import os

import torch
import torch.nn.functional as F

torch.manual_seed(1234)
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures", "nn")


def rand(*shape):
    """Uniform in [-1, 1), rounded to float32, held as float64."""
    return (torch.rand(*shape) * 2 - 1).to(torch.float32).to(torch.float64)


def enc(t):
    t = t.detach()
    if t.dtype.is_floating_point:
        data = [float(v) for v in t.reshape(-1).tolist()]
    else:
        data = [int(v) for v in t.reshape(-1).tolist()]
    return {"shape": list(t.shape), "data": data}


def case(name, op, args, inputs, fn):
    """inputs: name -> tensor (float ones get gradients); fn(**inputs) -> output or (output, indices)."""
    leaves = {k: v.clone().requires_grad_(v.dtype.is_floating_point) for k, v in inputs.items()}
    out = fn(**leaves)
    indices = None
    if isinstance(out, tuple):
        out, indices = out
    gy = rand(*out.shape)
    (out * gy).sum().backward()
    tensors = {k: enc(v) for k, v in inputs.items()}
    tensors["y"] = enc(out)
    tensors["gy"] = enc(gy)
    if indices is not None:
        tensors["indices"] = enc(indices)
    for k, v in leaves.items():
        if v.grad is not None:
            tensors["g" + k] = enc(v.grad)
    return {"name": name, "op": op, "args": args, "tensors": tensors}


def conv_cases():
    cs = []

    def conv(name, dim, x, w, bias, stride, padding, dilation, groups):
        fn = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}[dim]
        inputs = {"x": rand(*x), "w": rand(*w)}
        if bias:
            inputs["b"] = rand(w[0])
        args = {"stride": stride, "padding": padding, "dilation": dilation, "groups": groups}
        cs.append(case(name, "conv%dd" % dim, args, inputs,
                       lambda x, w, b=None: fn(x, w, b, stride=stride, padding=padding, dilation=dilation,
                                               groups=groups)))

    conv("conv2d_3x3_pad1", 2, [2, 3, 6, 5], [4, 3, 3, 3], True, [1, 1], [1, 1], [1, 1], 1)
    conv("conv2d_stride_dilation", 2, [2, 2, 9, 8], [3, 2, 3, 2], False, [2, 3], [1, 2], [2, 1], 1)
    conv("conv2d_groups", 2, [2, 4, 5, 5], [6, 2, 3, 3], True, [1, 1], [0, 1], [1, 1], 2)
    conv("conv2d_depthwise", 2, [1, 3, 6, 6], [6, 1, 3, 3], True, [2, 2], [1, 1], [1, 1], 3)
    conv("conv2d_1x1", 2, [2, 5, 4, 3], [3, 5, 1, 1], True, [1, 1], [0, 0], [1, 1], 1)
    conv("conv2d_same_even", 2, [1, 2, 5, 6], [3, 2, 2, 4], True, [1, 1], "same", [1, 1], 1)
    conv("conv1d_stride2", 1, [2, 3, 10], [5, 3, 3], True, [2], [1], [1], 1)
    conv("conv1d_same_dilated", 1, [1, 2, 9], [2, 2, 4], True, [1], "same", [2], 1)
    conv("conv3d", 3, [1, 2, 4, 5, 4], [3, 2, 2, 3, 2], True, [1, 2, 1], [1, 0, 1], [1, 1, 2], 1)

    def transpose(name, dim, x, w, groups, stride, padding, output_padding, dilation):
        fn = {1: F.conv_transpose1d, 2: F.conv_transpose2d}[dim]
        inputs = {"x": rand(*x), "w": rand(*w), "b": rand(w[1] * groups)}
        args = {"stride": stride, "padding": padding, "padding_out": output_padding, "dilation": dilation,
                "groups": groups}
        cs.append(case(name, "conv_transpose%dd" % dim, args, inputs,
                       lambda x, w, b: fn(x, w, b, stride=stride, padding=padding, output_padding=output_padding,
                                          groups=groups, dilation=dilation)))

    transpose("conv_transpose2d_stride2", 2, [2, 3, 4, 3], [3, 2, 3, 3], 1, [2, 2], [1, 1], [1, 1], [1, 1])
    transpose("conv_transpose2d_groups", 2, [1, 4, 3, 3], [4, 1, 2, 2], 2, [1, 2], [0, 1], [0, 1], [2, 1])
    transpose("conv_transpose1d", 1, [2, 3, 5], [3, 4, 3], 1, [3], [1], [2], [1])
    return cs


def pool_cases():
    cs = []

    def maxpool(name, dim, x, k, s, p, d, ceil):
        inputs = {"x": rand(*x)}
        args = {"kernel_size": k, "stride": s, "padding": p, "dilation": d, "ceil_mode": ceil}
        fn = {1: F.max_pool1d, 2: F.max_pool2d}[dim]
        cs.append(case(name, "max_pool%dd" % dim, args, inputs,
                       lambda x: fn(x, k, s, p, d, ceil_mode=ceil, return_indices=True)))

    maxpool("max_pool2d_2x2", 2, [2, 3, 6, 6], [2, 2], [2, 2], [0, 0], [1, 1], False)
    maxpool("max_pool2d_3x3_pad_dilation_ceil", 2, [1, 2, 9, 8], [3, 2], [2, 2], [1, 1], [2, 1], True)
    maxpool("max_pool1d", 1, [2, 3, 11], [3], [2], [1], [1], False)

    def avgpool(name, dim, x, k, s, p, include, ceil):
        inputs = {"x": rand(*x)}
        args = {"kernel_size": k, "stride": s, "padding": p, "count_include_pad": include, "ceil_mode": ceil}
        fn = {1: F.avg_pool1d, 2: F.avg_pool2d}[dim]
        cs.append(case(name, "avg_pool%dd" % dim, args, inputs,
                       lambda x: fn(x, k, s, p, ceil_mode=ceil, count_include_pad=include)))

    avgpool("avg_pool2d_include_pad", 2, [2, 3, 7, 6], [3, 3], [2, 2], [1, 1], True, False)
    avgpool("avg_pool2d_exclude_pad", 2, [2, 3, 7, 6], [3, 2], [2, 1], [1, 1], False, False)
    avgpool("avg_pool2d_ceil", 2, [1, 2, 6, 7], [2, 3], [2, 2], [1, 1], True, True)
    avgpool("avg_pool1d", 1, [2, 3, 10], [3], [2], [1], True, False)

    def adaptive(name, dim, x, out):
        inputs = {"x": rand(*x)}
        fn = {1: F.adaptive_avg_pool1d, 2: F.adaptive_avg_pool2d}[dim]
        cs.append(case(name, "adaptive_avg_pool%dd" % dim, {"output_size": out}, inputs, lambda x: fn(x, out)))

    adaptive("adaptive_avg_pool2d_3x2", 2, [2, 3, 7, 5], [3, 2])
    adaptive("adaptive_avg_pool2d_global", 2, [2, 3, 5, 4], [1, 1])
    adaptive("adaptive_avg_pool2d_up", 2, [1, 2, 3, 4], [5, 7])
    adaptive("adaptive_avg_pool1d", 1, [2, 3, 10], [4])
    return cs


def resample_cases():
    cs = []

    def interp(name, x, size, mode, align):
        inputs = {"x": rand(*x)}
        kwargs = {} if mode == "nearest" else {"align_corners": align}
        args = {"output_size": size, "mode": mode, "align_corners": align}
        cs.append(case(name, "interpolate", args, inputs, lambda x: F.interpolate(x, size=size, mode=mode, **kwargs)))

    interp("nearest_up", [1, 2, 3, 4], [7, 5], "nearest", False)
    interp("nearest_down", [2, 1, 8, 7], [3, 4], "nearest", False)
    interp("nearest_2x", [1, 2, 3, 3], [6, 6], "nearest", False)
    for align in (False, True):
        tag = "align" if align else "half_pixel"
        interp("bilinear_up_" + tag, [1, 2, 3, 4], [7, 5], "bilinear", align)
        interp("bilinear_down_" + tag, [2, 1, 8, 7], [3, 4], "bilinear", align)
        interp("bicubic_up_" + tag, [1, 2, 4, 3], [7, 8], "bicubic", align)
        interp("bicubic_down_" + tag, [1, 1, 9, 8], [4, 3], "bicubic", align)
    inputs = {"x": rand(2, 8, 2, 3)}
    cs.append(case("pixel_shuffle", "pixel_shuffle", {"upscale_factor": 2}, inputs, lambda x: F.pixel_shuffle(x, 2)))
    return cs


def write(name, cases):
    path = os.path.join(OUT, name + ".json")
    doc = {"generator": "scripts/gen_conv_fixtures.py, torch " + torch.__version__, "cases": cases}
    with open(path, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
        f.write("\n")
    print(path, len(cases), "cases")


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    write("conv", conv_cases())
    write("pool", pool_cases())
    write("resample", resample_cases())
