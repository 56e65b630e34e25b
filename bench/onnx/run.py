#!/usr/bin/python3
"""The driver of bench/onnx/run.sh (which builds and installs what it needs first): for each model and
batch, the median latency of burn (burn_onnx_bench), onnxruntime (onnxruntime-node, ort_bench.js) and
PyTorch eager (this file's --torch-worker mode: torch 1.13, no_grad, the same seeded weights as the
exported model) on the CPU with the same thread count, each in its own process, one after the other on
the same input; then checks that the three outputs agree and prints a markdown table.

    /usr/bin/python3 bench/onnx/run.py --real-dir DIR --burn-bench BIN --ort-dir DIR --work-dir DIR
        [--models resnet18,mobilenet_v2] [--batches 1,8] [--threads 2] [--opset 17] [--warmup 3]
        [--runs 20] [--rounds 3]

With --rounds N every configuration runs N times, the rounds one after the other over all of them
(burn, onnxruntime, torch per configuration), and the lowest median counts: on a shared machine a
passing load hits one round of a configuration, not all. Ratios: onnxruntime ms / burn ms and torch
ms / burn ms (above 1: burn is faster)."""
import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def torch_worker(args):
    """Times PyTorch eager on the input and writes its output (runs in its own process)."""
    import numpy as np
    import torch

    sys.dont_write_bytecode = True  # no __pycache__ in the source tree
    sys.path.insert(0, os.path.join(ROOT, "tests", "fixtures", "onnx"))
    import make_real_models

    torch.set_num_threads(args.threads)
    model, _, _ = make_real_models.build(args.model)
    dev = torch.device(args.device)
    model = model.to(dev)
    x = torch.from_numpy(np.load(args.input)).to(dev)
    sync = torch.cuda.synchronize if dev.type == "cuda" else (lambda: None)
    ms = []
    with torch.no_grad():
        for _ in range(args.warmup):
            y = model(x)
        sync()
        for _ in range(args.runs):
            t0 = time.perf_counter()
            y = model(x)
            sync()
            ms.append((time.perf_counter() - t0) * 1e3)
    ms.sort()
    np.save(args.out, y.cpu().numpy())
    print(json.dumps({"median_ms": ms[len(ms) // 2], "min_ms": ms[0], "runs": len(ms),
                      "threads": torch.get_num_threads(), "version": torch.__version__}))


def run_json(cmd, env=None):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    if p.returncode != 0:
        sys.exit(f"run.py: {' '.join(cmd)} failed ({p.returncode}):\n{p.stderr[-3000:]}")
    return json.loads(p.stdout.strip().splitlines()[-1])


def rel_err(a, b):
    import numpy as np

    if a.shape != b.shape:
        return float("inf")
    return float(np.abs(a.astype(np.float64) - b).max() / max(float(np.abs(b).max()), 1e-6))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--torch-worker", action="store_true")
    ap.add_argument("--model")
    ap.add_argument("--input")
    ap.add_argument("--out")
    ap.add_argument("--real-dir")
    ap.add_argument("--burn-bench")
    ap.add_argument("--ort-dir")
    ap.add_argument("--work-dir")
    ap.add_argument("--models", default="resnet18,mobilenet_v2")
    ap.add_argument("--batches", default="1,8")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--device", default="cpu", help="cpu or cuda (onnxruntime-node is CPU-only: left out on cuda)")
    ap.add_argument("--opset", type=int, default=17)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    if args.torch_worker:
        return torch_worker(args)

    import numpy as np

    os.makedirs(args.work_dir, exist_ok=True)
    n = str(args.threads)
    # every side gets the same thread count; OpenMP/OpenBLAS pools of the three read these too
    env = dict(os.environ, OMP_NUM_THREADS=n, OPENBLAS_NUM_THREADS=n, BURN_NUM_THREADS=n,
               NODE_PATH=os.path.join(args.ort_dir, "node_modules"))
    configs = []  # (model, batch, output file by side, command by side)
    for model in args.models.split(","):
        onnx_file = os.path.join(args.real_dir, f"{model}_opset{args.opset}.onnx")
        for batch in (int(b) for b in args.batches.split(",")):
            inp = os.path.join(args.work_dir, f"x_b{batch}.npy")
            np.save(inp, np.random.default_rng(batch).uniform(-1, 1, (batch, 3, 224, 224)).astype(np.float32))
            sides = ("burn", "ort", "torch") if args.device == "cpu" else ("burn", "torch")
            out = {s: os.path.join(args.work_dir, f"{model}_b{batch}_{s}.npy") for s in sides}
            cmds = {
                "burn": [args.burn_bench, onnx_file, inp, "--out", out["burn"], "--device", args.device, "--threads",
                         n, "--warmup", str(args.warmup), "--runs", str(args.runs)],
                "ort": ["node", os.path.join(HERE, "ort_bench.js"), onnx_file, inp, out.get("ort", ""), n, str(args.warmup),
                        str(args.runs)],
                "torch": [sys.executable, os.path.abspath(__file__), "--torch-worker", "--model", model, "--input",
                          inp, "--out", out["torch"], "--device", args.device, "--threads", n, "--warmup",
                          str(args.warmup), "--runs", str(args.runs)],
            }
            if "ort" not in sides:
                del cmds["ort"]
            configs.append((model, batch, out, cmds))
    # Rounds go over every configuration in turn, so that a passing load on a shared machine does not
    # hit all the rounds of one configuration.
    best = {}
    for rnd in range(args.rounds):
        for model, batch, _, cmds in configs:
            for side, cmd in cmds.items():
                key = (model, batch, side)
                best[key] = min(best.get(key, float("inf")), run_json(cmd, env)["median_ms"])
            so_far = ", ".join(f"{s} {best[(model, batch, s)]:.2f} ms" for s in cmds)
            print(f"run.py: round {rnd + 1}: {model} batch {batch}: {so_far} (best so far)", file=sys.stderr)
    if args.device != "cpu":
        return report_device(args, configs, best)
    rows = []
    for model, batch, out, _ in configs:
        ys = {s: np.load(p) for s, p in out.items()}
        rows.append((model, batch, best[(model, batch, "burn")], best[(model, batch, "ort")],
                     best[(model, batch, "torch")], rel_err(ys["burn"], ys["torch"]), rel_err(ys["ort"], ys["torch"])))
    print(f"\nCPU, {args.threads} threads, opset {args.opset}, median of {args.runs} runs after {args.warmup} "
          f"warm-up runs{f', best of {args.rounds} rounds' if args.rounds > 1 else ''}; "
          "ratios above 1: burn is faster; errors: max |a - torch| / max |torch|\n")
    print("| model | batch | burn ms | onnxruntime ms | torch ms | ort / burn | torch / burn | burn err | ort err |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    bad = False
    for model, batch, b, o, t, eb, eo in rows:
        print(f"| {model} | {batch} | {b:.2f} | {o:.2f} | {t:.2f} | {o / b:.2f} | {t / b:.2f} | {eb:.1e} | {eo:.1e} |")
        bad = bad or eb > 1e-4 or eo > 1e-4
    if bad:
        sys.exit("run.py: the outputs disagree (relative error above 1e-4)")


def report_device(args, configs, best):
    """The table of a GPU run: burn against PyTorch eager on the same device."""
    import numpy as np

    print(f"\n{args.device}, opset {args.opset}, median of {args.runs} runs after {args.warmup} warm-up runs"
          f"{f', best of {args.rounds} rounds' if args.rounds > 1 else ''}; ratio above 1: burn is faster; "
          "error: max |burn - torch| / max |torch|, both with their default TF32 convolutions\n")
    print("| model | batch | burn ms | torch ms | torch / burn | burn err |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    bad = False
    for model, batch, out, _ in configs:
        b, t = best[(model, batch, "burn")], best[(model, batch, "torch")]
        err = rel_err(np.load(out["burn"]), np.load(out["torch"]))
        print(f"| {model} | {batch} | {b:.2f} | {t:.2f} | {t / b:.2f} | {err:.1e} |")
        bad = bad or err > 2e-3  # TF32 (10-bit mantissa) on both sides: a few 1e-4 apart
    if bad:
        sys.exit("run.py: the outputs disagree (relative error above 2e-3)")


if __name__ == "__main__":
    main()
