#!/usr/bin/python3
"""Writes the fixtures of map_indices_contiguous (tests/fixtures/store/):

  sequential.pt            torch.save of an nn.Sequential's state_dict inside a model: Linear, ReLU, Linear,
                           ReLU, Linear under "fc", so its keys are fc.0, fc.2 and fc.4 (ReLU has no
                           parameters), and two blocks of Sequential(Linear, Tanh, Linear) under
                           "blocks.1" and "blocks.3" (indices at two levels)
  sequential_expected.pt   the same tensors under the names a module with lists of Linears has:
                           fc.0, fc.1, fc.2, blocks.0.0, blocks.0.1, blocks.1.0, blocks.1.1

Run once with Debian's python3-torch (1.13):  /usr/bin/python3 scripts/gen_sequential_store_fixture.py
"""
import os

import torch
import torch.nn as nn

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures", "store")


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 3), nn.ReLU(), nn.Linear(3, 2))
        self.blocks = nn.Sequential(nn.Identity(), nn.Sequential(nn.Linear(2, 2), nn.Tanh(), nn.Linear(2, 2)),
                                    nn.ReLU(), nn.Sequential(nn.Linear(2, 2), nn.Tanh(), nn.Linear(2, 2)))


def main():
    torch.manual_seed(7)
    sd = Model().state_dict()
    rename = {"fc.0": "fc.0", "fc.2": "fc.1", "fc.4": "fc.2", "blocks.1.0": "blocks.0.0", "blocks.1.2": "blocks.0.1",
              "blocks.3.0": "blocks.1.0", "blocks.3.2": "blocks.1.1"}
    expected = {}
    for k, v in sd.items():
        prefix, leaf = k.rsplit(".", 1)
        expected[rename[prefix] + "." + leaf] = v.clone()
    assert len(expected) == len(sd) == 14
    os.makedirs(OUT, exist_ok=True)
    torch.save(sd, os.path.join(OUT, "sequential.pt"))
    torch.save(expected, os.path.join(OUT, "sequential_expected.pt"))


if __name__ == "__main__":
    main()
