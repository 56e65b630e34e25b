#!/usr/bin/python3
"""Storage benchmark, PyTorch side: writes 12 x Linear(2048, 2048) (201 MB of f32) as torch.save zip,
legacy pickle and SafeTensors into DIR, and times torch.load of each (best of 3).
The C++ side is the disabled test StoreBench.Load12Linear:
  /usr/bin/python3 scripts/bench_store.py /tmp/burn-bench
  BURN_STORE_BENCH_DIR=/tmp/burn-bench ./build/tests/burn_tests --gtest_also_run_disabled_tests \\
      --gtest_filter='StoreBench.*'
"""
import os
import sys
import time

import torch
import torch.nn as nn

sys.path.insert(0, os.path.dirname(__file__))
from gen_store_fixtures import save_safetensors  # noqa: E402

out = sys.argv[1] if len(sys.argv) > 1 else "/tmp/burn-bench"
os.makedirs(out, exist_ok=True)
torch.manual_seed(0)
model = nn.Module()
model.layers = nn.ModuleList([nn.Linear(2048, 2048) for _ in range(12)])
sd = model.state_dict()
nbytes = sum(t.numel() * t.element_size() for t in sd.values())
torch.save(sd, os.path.join(out, "model.pt"))
torch.save(sd, os.path.join(out, "model_legacy.pt"), _use_new_zipfile_serialization=False)
save_safetensors(os.path.join(out, "model.safetensors"), sd)

for name in ("model.pt", "model_legacy.pt"):
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        torch.load(os.path.join(out, name))
        best = min(best, time.perf_counter() - t0)
    print(f"torch.load {name}: {best * 1e3:.1f} ms, {nbytes / best / 1e6:.0f} MB/s")
