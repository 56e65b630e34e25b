#!/usr/bin/env python3
"""Prints the reference values of src/vision/vision_ops_test.cpp: torchvision.ops.nms for the boxes
below, colorsys's HSV of the pixels below, and torch's conv2d of a padded image (filter2d).
usage: /usr/bin/python3 scripts/vision_reference.py   (Debian's python3-torch 1.13 and torchvision)"""
import colorsys

import torch
import torch.nn.functional as F
import torchvision

# NMS: 8 boxes (x1, y1, x2, y2) in two clusters plus loners, distinct scores.
boxes = torch.tensor(
    [[0, 0, 10, 10], [1, 1, 11, 11], [20, 20, 30, 30], [21, 19, 31, 29], [0, 0, 5, 5],
     [50, 50, 60, 70], [52, 55, 61, 72], [2, 0, 12, 9]], dtype=torch.float32)
scores = torch.tensor([0.9, 0.8, 0.75, 0.95, 0.3, 0.6, 0.65, 0.85])
for thr in (0.6, 0.5, 0.1):
    print(f"nms iou={thr}:", torchvision.ops.nms(boxes, scores, thr).tolist())

# HSV: colorsys gives h in [0, 1); the ops use degrees.
pixels = [(0.2, 0.6, 0.9), (0.78, 0.0, 0.45), (0.5, 0.5, 0.5), (1.0, 0.0, 0.0), (0.1, 0.9, 0.9),
          (0.3, 0.3, 0.7), (0.9, 0.9, 0.1), (0.0, 0.0, 0.0), (0.25, 0.75, 0.25)]
print("hsv:", ", ".join(f"{{{h * 360:.10g}, {s:.10g}, {v:.10g}}}" for h, s, v in
                         (colorsys.rgb_to_hsv(*p) for p in pixels)))

# filter2d: a 1 x 2 x 4 x 5 image, a 3 x 3 and a 2 x 4 kernel, reflect and edge (replicate) padding.
img = torch.arange(40, dtype=torch.float64).reshape(1, 2, 4, 5)
img = (img * 7 % 11) - 3
k33 = torch.tensor([[1, 2, 0], [-1, 3, 1], [0.5, 0, -2]], dtype=torch.float64)
k24 = torch.tensor([[1, 0, -1, 2], [0.5, 1, 1, -1]], dtype=torch.float64)
for name, k, mode in (("k33 reflect", k33, "reflect"), ("k24 replicate", k24, "replicate")):
    kh, kw = k.shape
    padded = F.pad(img, (kw // 2, (kw - 1) // 2, kh // 2, (kh - 1) // 2), mode=mode)
    out = F.conv2d(padded, k.reshape(1, 1, kh, kw).repeat(2, 1, 1, 1), groups=2)
    print(f"filter2d {name}:", ", ".join(f"{v:g}" for v in out.flatten().tolist()))
