#!/usr/bin/python3
"""Writes the fixtures of PytorchStore::load_config (tests/fixtures/store/): a checkpoint holding a
model's hyper-parameters beside its state dict, as torch.save writes it in the zip format
(checkpoint_config.pt) and in the legacy format (checkpoint_config_legacy.pt):

  {"config": {"d_model": 64, "layers": 2, "dropout": 0.1, "name": "tiny", "use_bias": True,
              "sizes": [3, 5, 8]},
   "meta": {"betas": (0.9, 0.999), "none": None, "steps": {1: "warmup", 100: "decay"}, "big": -2**40},
   "model": {"w": tensor([1., 2.])}}

Run once with Debian's python3-torch (1.13):  /usr/bin/python3 scripts/gen_config_store_fixture.py
"""
import os

import torch

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures", "store")


def main():
    obj = {
        "config": {"d_model": 64, "layers": 2, "dropout": 0.1, "name": "tiny", "use_bias": True, "sizes": [3, 5, 8]},
        "meta": {"betas": (0.9, 0.999), "none": None, "steps": {1: "warmup", 100: "decay"}, "big": -2 ** 40},
        "model": {"w": torch.tensor([1.0, 2.0])},
    }
    os.makedirs(OUT, exist_ok=True)
    torch.save(obj, os.path.join(OUT, "checkpoint_config.pt"))
    torch.save(obj, os.path.join(OUT, "checkpoint_config_legacy.pt"), _use_new_zipfile_serialization=False)


if __name__ == "__main__":
    main()
