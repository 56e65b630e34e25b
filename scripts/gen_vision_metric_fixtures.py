#!/usr/bin/python3
"""Writes tests/fixtures/train/vision_metrics.json: SSIM, MS-SSIM and PSNR of generated image pairs, computed
in float64 with PyTorch the standard way, independently of burn. src/train/metric_vision_test.cpp makes the
same images from the same integer recipe and compares burn's SsimMetric, MsSsimMetric and PsnrMetric.

SSIM (Wang et al. 2004) as pytorch-msssim and scikit-image (gaussian_weights=True) compute it: a normalised
Gaussian window applied with conv2d and no padding ('valid': only windows inside the image), per channel
    cs   = (2 s_xy + C2) / (s_x^2 + s_y^2 + C2)
    ssim = (2 m_x m_y + C1) / (m_x^2 + m_y^2 + C1) * cs
with s_x^2 = G*(x^2) - m_x^2 (no clamping) and C1 = (K1 L)^2, C2 = (K2 L)^2; an image's SSIM is the mean over
its channels and window positions. MS-SSIM (Wang, Simoncelli, Bovik 2003) as pytorch-msssim: five scales
weighted (0.0448, 0.2856, 0.3001, 0.2363, 0.1333), cs at the first four and SSIM at the last, relu'd, raised
to the weights and multiplied; between scales avg_pool2d(kernel 2, padding = size % 2 per side); per image the
mean over channels.

Images: item n, channel c, row i, column j hold the integer
    base = ((i // 4) * 37 + (j // 3) * 23 + c * 61 + n * 17) % 200 + 20           (the target)
    pred = clamp(base + hash(n, c, i, j) % (2 a + 1) - a, 0, 255), a = 8 + 16 n   (the prediction)
with hash below (32-bit arithmetic); pixel values are those integers / 255 as float32 unless a case says
data_range 255 (then the integers themselves).

    /usr/bin/python3 scripts/gen_vision_metric_fixtures.py   (Debian's python3-torch 1.13, python3-numpy)
"""
import json
import math
import os

import numpy as np
import torch
import torch.nn.functional as F

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures", "train")
M32 = 0xFFFFFFFF


def mix(n, c, i, j):
    h = (n * 73856093 ^ c * 19349663 ^ i * 83492791 ^ j * 2654435761) & M32
    h = ((h ^ (h >> 15)) * 2246822519) & M32
    return h ^ (h >> 13)


def images(shape):
    """The target and prediction integer images of a shape [N, C, H, W] (numpy int64)."""
    n_, c_, h_, w_ = shape
    target = np.zeros(shape, dtype=np.int64)
    pred = np.zeros(shape, dtype=np.int64)
    for n in range(n_):
        a = 8 + 16 * n
        for c in range(c_):
            for i in range(h_):
                for j in range(w_):
                    base = ((i // 4) * 37 + (j // 3) * 23 + c * 61 + n * 17) % 200 + 20
                    target[n, c, i, j] = base
                    pred[n, c, i, j] = min(255, max(0, base + mix(n, c, i, j) % (2 * a + 1) - a))
    return pred, target


def as_input(v, data_range):
    """float32 pixel values (as the C++ side stores them), then float64 for the computation."""
    x = v.astype(np.float64) / 255.0 if data_range == 1.0 else v.astype(np.float64)
    return torch.from_numpy(x.astype(np.float32).astype(np.float64))


def window(size, sigma):
    coords = torch.arange(size, dtype=torch.float64) - size // 2
    g = torch.exp(-(coords ** 2) / (2 * sigma ** 2))
    return g / g.sum()


def filt(x, g):
    c = x.shape[1]
    k = g.numel()
    x = F.conv2d(x, g.view(1, 1, 1, k).repeat(c, 1, 1, 1), groups=c)
    return F.conv2d(x, g.view(1, 1, k, 1).repeat(c, 1, 1, 1), groups=c)


def ssim_parts(x, y, data_range, size=11, sigma=1.5, k1=0.01, k2=0.03):
    """(ssim, cs) per [batch, channel]."""
    g = window(size, sigma)
    c1, c2 = (k1 * data_range) ** 2, (k2 * data_range) ** 2
    mx, my = filt(x, g), filt(y, g)
    vx = filt(x * x, g) - mx * mx
    vy = filt(y * y, g) - my * my
    cov = filt(x * y, g) - mx * my
    cs = (2 * cov + c2) / (vx + vy + c2)
    ssim = (2 * mx * my + c1) / (mx * mx + my * my + c1) * cs
    return ssim.flatten(2).mean(-1), cs.flatten(2).mean(-1)


def ms_ssim(x, y, data_range, betas=(0.0448, 0.2856, 0.3001, 0.2363, 0.1333)):
    assert min(x.shape[-2:]) > 10 * 2 ** (len(betas) - 1)
    factors = []
    for level, beta in enumerate(betas):
        ssim, cs = ssim_parts(x, y, data_range)
        if level + 1 < len(betas):
            factors.append(torch.relu(cs) ** beta)
            pad = [s % 2 for s in x.shape[2:]]
            x = F.avg_pool2d(x, kernel_size=2, padding=pad)
            y = F.avg_pool2d(y, kernel_size=2, padding=pad)
        else:
            factors.append(torch.relu(ssim) ** beta)
    out = factors[0]
    for f in factors[1:]:
        out = out * f
    return out.mean(1)  # per image


def psnr(x, y, max_value, eps=1e-10):
    mse = ((x - y) ** 2).flatten(1).mean(1).clamp_min(eps)
    return 10 * torch.log10(max_value ** 2 / mse)


def main():
    cases = {}
    shape = [2, 3, 24, 20]
    p, t = images(shape)
    x, y = as_input(p, 1.0), as_input(t, 1.0)
    ssim, cs = ssim_parts(x, y, 1.0)
    cases["ssim"] = {"shape": shape, "data_range": 1.0, "per_image": ssim.mean(1).tolist(),
                     "channel0": {"ssim": ssim[0, 0].item(), "cs": cs[0, 0].item()},
                     "psnr_per_image": psnr(x, y, 1.0).tolist()}

    shape = [2, 1, 16, 18]
    p, t = images(shape)
    x, y = as_input(p, 255.0), as_input(t, 255.0)
    ssim, _ = ssim_parts(x, y, 255.0, size=7, sigma=1.0, k1=0.02, k2=0.05)
    cases["ssim_options"] = {"shape": shape, "data_range": 255.0, "window_size": 7, "sigma": 1.0, "k1": 0.02,
                             "k2": 0.05, "per_image": ssim.mean(1).tolist(),
                             "psnr_per_image": psnr(x, y, 255.0).tolist()}

    shape = [2, 2, 165, 171]  # odd sides: the average pooling pads
    p, t = images(shape)
    x, y = as_input(p, 1.0), as_input(t, 1.0)
    cases["ms_ssim"] = {"shape": shape, "data_range": 1.0, "per_image": ms_ssim(x, y, 1.0).tolist()}

    # a few pixels, so that the test can tell its image recipe matches this one
    samples = []
    for n, c, i, j in [(0, 0, 0, 0), (1, 2, 23, 19), (1, 1, 7, 11), (0, 2, 13, 5)]:
        pi, ti = images([n + 1, c + 1, i + 1, j + 1])
        samples.append([n, c, i, j, int(pi[n, c, i, j]), int(ti[n, c, i, j])])
    cases["samples"] = samples

    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, "vision_metrics.json"), "w") as f:
        json.dump(cases, f, indent=1)
        f.write("\n")
    assert math.isfinite(cases["ms_ssim"]["per_image"][0])


if __name__ == "__main__":
    main()
