#!/usr/bin/python3
"""Generates the optimizer and learning-rate-scheduler fixtures under tests/fixtures/optim/.

Run with Debian's python3-torch (1.13):  /usr/bin/python3 scripts/gen_optim_fixtures.py

optimizers.json: for every case, three float64 parameters (paths "weight" [3, 4], "bias" [5] and
"extra" [2, 3, 2]), ten steps of given gradients and learning rates, and the parameters after every
step as torch.optim computes them (Lion, absent from torch 1.13, follows the paper's algorithm).
Clipping is applied to the gradients before optimizer.step(), with torch.nn.utils.clip_grad_*.
Groups give the parameters whose path ends with "bias" their own lr factor and weight decay.

schedulers.json: the learning rate of 100 epochs of torch.optim.lr_scheduler schedules
(lrs[k] is the optimizer's lr during epoch k: read before the k-th scheduler.step()).

Numbers are written by json with repr precision, so they read back as the same doubles.
"""
import json
import math
import os
import warnings

import torch

# SequentialLR calls scheduler.step(0) at a milestone, which torch 1.13 warns about; the value is right.
warnings.filterwarnings("ignore", message="The epoch parameter")

torch.set_default_dtype(torch.float64)
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures", "optim")
STEPS = 10
SHAPES = {"weight": [3, 4], "bias": [5], "extra": [2, 3, 2]}
NAMES = ["weight", "bias", "extra"]


def flat(t):
    return [float(v) for v in t.detach().reshape(-1).tolist()]


def lion_step(params, grads, state, lr, beta1, beta2, wd):
    """Lion (Chen et al. 2023, Algorithm 2), as lucidrains/lion-pytorch writes it."""
    with torch.no_grad():
        for p, g in zip(params, grads):
            m = state.setdefault(id(p), torch.zeros_like(p))
            p.mul_(1 - lr * wd)
            update = (m * beta1 + g * (1 - beta1)).sign()
            p.add_(update, alpha=-lr)
            m.mul_(beta2).add_(g, alpha=1 - beta2)


def clip(params, clipping):
    """Clips the params' .grad in place (torch.nn.utils works on parameters, not on gradients)."""
    if clipping is None:
        return
    kind, threshold = clipping["kind"], clipping["threshold"]
    if kind == "value":
        torch.nn.utils.clip_grad_value_(params, threshold)
    elif kind == "norm":  # burn's Norm: each tensor on its own
        for p in params:
            torch.nn.utils.clip_grad_norm_([p], threshold)
    elif kind == "global_norm":
        torch.nn.utils.clip_grad_norm_(params, threshold)
    else:
        raise ValueError(kind)


def make_optimizer(name, config, params, group):
    """torch optimizer over params with the bias in its own group when group is given."""
    if group is None:
        groups = [{"params": params}]
    else:
        groups = [{"params": [params[0], params[2]]},
                  {"params": [params[1]], "weight_decay": group["weight_decay"]}]
    if name == "sgd":
        return torch.optim.SGD(groups, lr=1.0, momentum=config["momentum"], dampening=config["dampening"],
                               nesterov=config["nesterov"], weight_decay=config["weight_decay"])
    if name in ("adam", "adamw"):
        cls = torch.optim.Adam if name == "adam" else torch.optim.AdamW
        return cls(groups, lr=1.0, betas=(config["beta_1"], config["beta_2"]), eps=config["epsilon"],
                   weight_decay=config["weight_decay"], amsgrad=config.get("amsgrad", False))
    if name == "rmsprop":
        return torch.optim.RMSprop(groups, lr=1.0, alpha=config["alpha"], eps=config["epsilon"],
                                   weight_decay=config["weight_decay"], momentum=config["momentum"],
                                   centered=config["centered"])
    if name == "adagrad":
        return torch.optim.Adagrad(groups, lr=1.0, lr_decay=config["lr_decay"], eps=config["epsilon"],
                                   weight_decay=config["weight_decay"])
    raise ValueError(name)


def run_case(name, optimizer, config, seed, clipping=None, group=None, grad_scale=None):
    gen = torch.Generator().manual_seed(seed)
    params = [torch.randn(SHAPES[n], generator=gen).requires_grad_(True) for n in NAMES]
    initial = [flat(p) for p in params]
    lrs = [0.05 * (0.9 ** k) for k in range(STEPS)]
    grads_all, expected = [], []
    opt = None if optimizer == "lion" else make_optimizer(optimizer, config, params, group)
    lion_state = {}
    clipped = False
    for k in range(STEPS):
        scale = 1.0 if grad_scale is None else grad_scale[k]
        grads = [torch.randn(SHAPES[n], generator=gen) * scale for n in NAMES]
        grads_all.append([flat(g) for g in grads])
        for p, g in zip(params, grads):
            p.grad = g.clone()
        clip(params, clipping)
        clipped = clipped or any(not torch.equal(p.grad, g) for p, g in zip(params, grads))
        if optimizer == "lion":
            lr_of = [lrs[k], lrs[k] * (group["lr_factor"] if group else 1.0), lrs[k]]
            wd_of = [config["weight_decay"], group["weight_decay"] if group else config["weight_decay"],
                     config["weight_decay"]]
            for p, lr, wd in zip(params, lr_of, wd_of):
                lion_step([p], [p.grad], lion_state, lr, config["beta_1"], config["beta_2"], wd)
        else:
            opt.param_groups[0]["lr"] = lrs[k]
            if group is not None:
                opt.param_groups[1]["lr"] = lrs[k] * group["lr_factor"]
            opt.step()
        expected.append([flat(p) for p in params])
    assert clipped == (clipping is not None), name + ": the clipping must change the gradients"
    case = {"name": name, "optimizer": optimizer, "config": config, "lrs": lrs,
            "params": [{"path": n, "shape": SHAPES[n], "data": d} for n, d in zip(NAMES, initial)],
            "grads": grads_all, "expected": expected}
    if clipping is not None:
        case["clip"] = clipping
    if group is not None:
        case["group"] = group
    return case


def optimizer_cases():
    sgd = {"momentum": 0.0, "dampening": 0.0, "nesterov": False, "weight_decay": 0.0}
    adam = {"beta_1": 0.9, "beta_2": 0.999, "epsilon": 1e-8, "weight_decay": 0.0}
    rms = {"alpha": 0.99, "epsilon": 1e-8, "centered": False, "momentum": 0.0, "weight_decay": 0.0}
    ada = {"lr_decay": 0.0, "epsilon": 1e-10, "weight_decay": 0.0}
    lion = {"beta_1": 0.9, "beta_2": 0.99, "weight_decay": 0.0}
    # Large gradients first, then small ones: the AMSGrad maximum differs from exp_avg_sq.
    shrinking = [3.0, 3.0, 3.0, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1]
    cases = [
        run_case("sgd", "sgd", sgd, 1),
        run_case("sgd_weight_decay", "sgd", dict(sgd, weight_decay=0.01), 2),
        run_case("sgd_momentum_dampening", "sgd", dict(sgd, momentum=0.9, dampening=0.1), 3),
        run_case("sgd_nesterov_weight_decay", "sgd", dict(sgd, momentum=0.9, nesterov=True, weight_decay=1e-3), 4),
        run_case("adam", "adam", adam, 5),
        run_case("adam_weight_decay", "adam", dict(adam, beta_1=0.8, beta_2=0.99, epsilon=1e-6, weight_decay=0.05), 6),
        run_case("adamw", "adamw", dict(adam, weight_decay=0.01, amsgrad=False), 7),
        run_case("adamw_amsgrad", "adamw", dict(adam, weight_decay=0.1, amsgrad=True), 8, grad_scale=shrinking),
        run_case("rmsprop", "rmsprop", rms, 9),
        run_case("rmsprop_momentum_weight_decay", "rmsprop", dict(rms, alpha=0.9, momentum=0.5, weight_decay=0.01), 10),
        run_case("rmsprop_centered_momentum", "rmsprop", dict(rms, centered=True, momentum=0.9, weight_decay=0.01), 11),
        run_case("rmsprop_centered", "rmsprop", dict(rms, centered=True, epsilon=1e-5), 12),
        run_case("adagrad", "adagrad", ada, 13),
        run_case("adagrad_lr_decay_weight_decay", "adagrad", dict(ada, lr_decay=0.05, weight_decay=0.02, epsilon=1e-6), 14),
        run_case("lion", "lion", lion, 15),
        run_case("lion_weight_decay", "lion", dict(lion, beta_1=0.8, beta_2=0.95, weight_decay=0.5), 16),
        # Clipping (gradients scaled up so that it bites).
        run_case("clip_value_sgd", "sgd", sgd, 17, clipping={"kind": "value", "threshold": 0.5}),
        run_case("clip_norm_sgd", "sgd", sgd, 18, clipping={"kind": "norm", "threshold": 1.0}),
        run_case("clip_global_norm_sgd", "sgd", sgd, 19, clipping={"kind": "global_norm", "threshold": 2.0}),
        run_case("clip_global_norm_adam_weight_decay", "adam", dict(adam, weight_decay=0.1), 20,
                 clipping={"kind": "global_norm", "threshold": 1.5}, grad_scale=[4.0] * STEPS),
        # Parameter groups: the bias gets its own lr factor and weight decay.
        run_case("group_adamw", "adamw", dict(adam, weight_decay=0.05, amsgrad=False), 21,
                 group={"lr_factor": 0.1, "weight_decay": 0.0}),
        run_case("group_sgd_momentum", "sgd", dict(sgd, momentum=0.9, weight_decay=0.01), 22,
                 group={"lr_factor": 2.0, "weight_decay": 0.1}),
        run_case("group_lion", "lion", dict(lion, weight_decay=0.2), 23, group={"lr_factor": 0.5, "weight_decay": 0.0}),
    ]
    return {"generator": "scripts/gen_optim_fixtures.py", "torch": torch.__version__, "cases": cases}


def schedule(make, base_lr, epochs=100):
    p = torch.nn.Parameter(torch.zeros(1))
    opt = torch.optim.SGD([p], lr=base_lr)
    sched = make(opt)
    lrs = []
    for _ in range(epochs):
        lrs.append(opt.param_groups[0]["lr"])
        opt.step()
        sched.step()
    return lrs


def scheduler_cases():
    S = torch.optim.lr_scheduler
    noam = lambda d, w: (lambda e: d ** -0.5 * min((e + 1) ** -0.5, (e + 1) * w ** -1.5))
    cases = [
        {"name": "linear_increasing", "kind": "linear", "config": {"initial_lr": 0.025, "final_lr": 0.1, "num_iters": 20},
         "lrs": schedule(lambda o: S.LinearLR(o, start_factor=0.25, end_factor=1.0, total_iters=20), 0.1)},
        {"name": "linear_decreasing", "kind": "linear", "config": {"initial_lr": 0.01, "final_lr": 0.001, "num_iters": 50},
         "lrs": schedule(lambda o: S.LinearLR(o, start_factor=1.0, end_factor=0.1, total_iters=50), 0.01)},
        {"name": "cosine_warm_restarts", "kind": "cosine",
         "config": {"initial_lr": 0.1, "num_iters": 15, "min_lr": 1e-4, "restarts": True, "period_mult": 1},
         "lrs": schedule(lambda o: S.CosineAnnealingWarmRestarts(o, T_0=15, T_mult=1, eta_min=1e-4), 0.1)},
        {"name": "cosine_warm_restarts_mult", "kind": "cosine",
         "config": {"initial_lr": 0.1, "num_iters": 5, "min_lr": 0.0, "restarts": True, "period_mult": 2},
         "lrs": schedule(lambda o: S.CosineAnnealingWarmRestarts(o, T_0=5, T_mult=2), 0.1)},
        {"name": "cosine_no_restart", "kind": "cosine",
         "config": {"initial_lr": 0.05, "num_iters": 99, "min_lr": 1e-3, "restarts": False, "period_mult": 1},
         "lrs": schedule(lambda o: S.CosineAnnealingLR(o, T_max=99, eta_min=1e-3), 0.05)},
        {"name": "exponential", "kind": "exponential", "config": {"initial_lr": 0.1, "gamma": 0.95},
         "lrs": schedule(lambda o: S.ExponentialLR(o, gamma=0.95), 0.1)},
        {"name": "step", "kind": "step", "config": {"initial_lr": 0.1, "step_size": 7, "gamma": 0.5},
         "lrs": schedule(lambda o: S.StepLR(o, step_size=7, gamma=0.5), 0.1)},
        {"name": "noam", "kind": "noam", "config": {"init_lr": 2.0, "warmup_steps": 20, "model_size": 64},
         "lrs": schedule(lambda o: S.LambdaLR(o, noam(64, 20)), 2.0)},
        {"name": "sequential_linear_cosine", "kind": "sequential_linear_cosine",
         "config": {"warmup": {"initial_lr": 0.001, "final_lr": 0.01, "num_iters": 10}, "milestone": 10,
                    "decay": {"initial_lr": 0.01, "num_iters": 90, "min_lr": 1e-5, "restarts": False, "period_mult": 1}},
         "lrs": schedule(lambda o: S.SequentialLR(o, [S.LinearLR(o, start_factor=0.1, end_factor=1.0, total_iters=10),
                                                      S.CosineAnnealingLR(o, T_max=90, eta_min=1e-5)], milestones=[10]),
                         0.01)},
        {"name": "sequential_linear_exponential", "kind": "sequential_linear_exponential",
         "config": {"warmup": {"initial_lr": 0.005, "final_lr": 0.05, "num_iters": 5}, "milestone": 8,
                    "decay": {"initial_lr": 0.05, "gamma": 0.9}},
         "lrs": schedule(lambda o: S.SequentialLR(o, [S.LinearLR(o, start_factor=0.1, end_factor=1.0, total_iters=5),
                                                      S.ExponentialLR(o, gamma=0.9)], milestones=[8]), 0.05)},
    ]
    return {"generator": "scripts/gen_optim_fixtures.py", "torch": torch.__version__, "cases": cases}


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, data in (("optimizers.json", optimizer_cases()), ("schedulers.json", scheduler_cases())):
        path = os.path.join(OUT, name)
        with open(path, "w") as f:
            json.dump(data, f, separators=(",", ":"))
            f.write("\n")
        print("wrote", os.path.normpath(path), os.path.getsize(path), "bytes")


if __name__ == "__main__":
    main()
