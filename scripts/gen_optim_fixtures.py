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


def adan_step(p, g, state, lr, c, wd):
    """Adan as burn 0.22 writes it (burn-optim adan.rs): betas are decay rates, proximal weight decay
    p = (p - lr * update) / (1 + lr * wd) unless no_prox (then p * (1 - lr * wd) - lr * update)."""
    b1, b2, b3, eps = c["beta_1"], c["beta_2"], c["beta_3"], c["epsilon"]
    with torch.no_grad():
        s = state.setdefault(id(p), {"t": 0, "m": torch.zeros_like(p), "n": torch.zeros_like(p),
                                     "diff": torch.zeros_like(p), "prev": g.clone()})
        diff = g - s["prev"]
        s["m"] = b1 * s["m"] + (1 - b1) * g
        s["diff"] = b2 * s["diff"] + (1 - b2) * diff
        s["n"] = b3 * s["n"] + (1 - b3) * (g + b2 * diff) ** 2
        s["prev"] = g.clone()
        s["t"] += 1
        t = s["t"]
        denom = s["n"].sqrt() / math.sqrt(1 - b3 ** t) + eps
        update = s["m"] / (1 - b1 ** t) / denom + b2 * s["diff"] / (1 - b2 ** t) / denom
        if c.get("no_prox", False):
            p.copy_(p * (1 - lr * wd) - lr * update)
        else:
            p.copy_((p - lr * update) / (1 + lr * wd))


def adamw_cautious_step(p, g, state, lr, c, wd):
    """AdamW with burn's cautious weight decay (arXiv 2510.12402): the decay applies only where the
    parameter and the new first moment have the same sign (x >= 0 counts as positive)."""
    b1, b2, eps = c["beta_1"], c["beta_2"], c["epsilon"]
    with torch.no_grad():
        s = state.setdefault(id(p), {"t": 0, "m": torch.zeros_like(p), "v": torch.zeros_like(p)})
        s["t"] += 1
        t = s["t"]
        s["m"] = b1 * s["m"] + (1 - b1) * g
        s["v"] = b2 * s["v"] + (1 - b2) * g * g
        same = (p >= 0) == (s["m"] >= 0)
        decayed = p - torch.where(same, p * (lr * wd), torch.zeros_like(p))
        update = (s["m"] / (1 - b1 ** t)) / ((s["v"] / (1 - b2 ** t)).sqrt() + eps)
        p.copy_(decayed - lr * update)


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
    manual = ("lion", "adan", "adamw_cautious")  # not in torch 1.13: the functions above
    opt = None if optimizer in manual else make_optimizer(optimizer, config, params, group)
    lion_state = {}
    clipped = False
    group_lrs = None
    if group is not None and "schedule" in group:  # the group's own LinearLR schedule
        sc = group["schedule"]
        group_lrs = schedule(lambda o: torch.optim.lr_scheduler.LinearLR(
            o, start_factor=sc["initial_lr"] / sc["final_lr"], end_factor=1.0, total_iters=sc["num_iters"]),
            sc["final_lr"], STEPS)
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
        elif optimizer in ("adan", "adamw_cautious"):
            lr_of = [lrs[k], lrs[k] * (group["lr_factor"] if group else 1.0), lrs[k]]
            wd_of = [config["weight_decay"], group["weight_decay"] if group else config["weight_decay"],
                     config["weight_decay"]]
            fn = adan_step if optimizer == "adan" else adamw_cautious_step
            for p, lr, wd in zip(params, lr_of, wd_of):
                fn(p, p.grad, lion_state, lr, config, wd)
        else:
            opt.param_groups[0]["lr"] = lrs[k]
            if group is not None:
                group_lr = group_lrs[k] if group_lrs else lrs[k]
                opt.param_groups[1]["lr"] = group_lr * group["lr_factor"]
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
    adan = {"beta_1": 0.98, "beta_2": 0.92, "beta_3": 0.99, "epsilon": 1e-8, "weight_decay": 0.0, "no_prox": False}
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
        # burn 0.22's Adan (absent from torch 1.13): burn's formulas in float64.
        run_case("adan", "adan", adan, 24),
        run_case("adan_prox_weight_decay", "adan", dict(adan, weight_decay=0.5, epsilon=1e-6), 25),
        run_case("adan_no_prox_weight_decay", "adan", dict(adan, beta_1=0.9, beta_2=0.8, beta_3=0.95,
                                                           weight_decay=0.5, no_prox=True), 26),
        run_case("group_adan", "adan", dict(adan, weight_decay=0.1), 27, group={"lr_factor": 0.5, "weight_decay": 0.0}),
        # AdamW with burn's cautious weight decay (a large decay so that the mask matters).
        # A group with its own learning-rate schedule (LinearLR) instead of the step's lr.
        run_case("group_schedule_sgd_momentum", "sgd", dict(sgd, momentum=0.9), 29,
                 group={"lr_factor": 0.5, "weight_decay": 0.0,
                        "schedule": {"initial_lr": 0.01, "final_lr": 0.1, "num_iters": 5}}),
        run_case("adamw_cautious", "adamw_cautious", dict(adam, weight_decay=2.0, cautious_weight_decay=True), 28),
    ]
    return {"generator": "scripts/gen_optim_fixtures.py", "torch": torch.__version__, "cases": cases}


MUON_SHAPES = {"wide": [3, 4], "tall": [5, 2]}


def newton_schulz(g, coefficients, steps, eps):
    """burn's zeropower_via_newtonschulz: the quintic iteration on the wide orientation."""
    a, b, c = coefficients
    x = g.t() if g.shape[0] > g.shape[1] else g
    x = x / max(float(x.pow(2).sum().sqrt()), eps)
    for _ in range(steps):
        A = x @ x.t()
        B = b * A + c * (A @ A)
        x = a * x + B @ x
    return x.t() if g.shape[0] > g.shape[1] else x


def run_muon_case(name, config, seed):
    """Muon as burn 0.22 writes it (burn-optim muon.rs), in float64: SGD momentum (first step: the
    gradient itself), Newton-Schulz orthogonalisation, shape-adjusted lr for the update, decoupled
    weight decay with the plain lr."""
    gen = torch.Generator().manual_seed(seed)
    names = list(MUON_SHAPES)
    params = [torch.randn(MUON_SHAPES[n], generator=gen) for n in names]
    initial = [flat(p) for p in params]
    lrs = [0.05 * (0.9 ** k) for k in range(STEPS)]
    velocity = [None] * len(params)
    grads_all, expected = [], []
    mom, damp, nesterov = config["momentum"], config["dampening"], config["nesterov"]
    for k in range(STEPS):
        grads = [torch.randn(MUON_SHAPES[n], generator=gen) for n in names]
        grads_all.append([flat(g) for g in grads])
        for i, (p, g) in enumerate(zip(params, grads)):
            velocity[i] = g.clone() if velocity[i] is None else g * (1 - damp) + velocity[i] * mom
            update = velocity[i] * mom + g if nesterov else velocity[i]
            update = newton_schulz(update, config["ns_coefficients"], config["ns_steps"], config["epsilon"])
            rows, cols = p.shape
            if config["adjust_lr_fn"] == "original":
                ratio = math.sqrt(max(1.0, rows / cols))
            else:
                ratio = 0.2 * math.sqrt(max(rows, cols))
            params[i] = p * (1 - lrs[k] * config["weight_decay"]) - update * (lrs[k] * ratio)
        expected.append([flat(p) for p in params])
    return {"name": name, "optimizer": "muon", "config": config, "lrs": lrs,
            "params": [{"path": n, "shape": MUON_SHAPES[n], "data": d} for n, d in zip(names, initial)],
            "grads": grads_all, "expected": expected}


def muon_cases():
    muon = {"momentum": 0.95, "dampening": 0.0, "nesterov": True, "weight_decay": 0.0,
            "ns_coefficients": [3.4445, -4.775, 2.0315], "epsilon": 1e-7, "ns_steps": 5, "adjust_lr_fn": "original"}
    cases = [
        run_muon_case("muon", muon, 31),
        run_muon_case("muon_match_rms_adamw_weight_decay", dict(muon, adjust_lr_fn="match_rms_adamw",
                                                                weight_decay=0.1), 32),
        run_muon_case("muon_plain_momentum_dampening", dict(muon, momentum=0.9, dampening=0.1, nesterov=False,
                                                            ns_steps=3), 33),
    ]
    return {"generator": "scripts/gen_optim_fixtures.py", "reference": "burn 0.22 muon.rs formulas, float64",
            "cases": cases}


LBFGS_X = [6, 4]


def lbfgs_case(name, config, seed, steps):
    """torch.optim.LBFGS on loss = mean((tanh(x @ weight^T + bias) - y)^2): the parameters after each
    step() and the loss step() returned (the closure's first evaluation)."""
    gen = torch.Generator().manual_seed(seed)
    x = torch.randn(LBFGS_X, generator=gen)
    y = torch.randn([LBFGS_X[0], 3], generator=gen) * 0.5
    weight = (torch.randn([3, LBFGS_X[1]], generator=gen) * 0.5).requires_grad_(True)
    bias = (torch.randn([3], generator=gen) * 0.5).requires_grad_(True)
    initial = [flat(weight), flat(bias)]
    kwargs = dict(config)
    kwargs["line_search_fn"] = kwargs.pop("line_search", None)
    opt = torch.optim.LBFGS([weight, bias], **kwargs)
    evals = [0]

    def closure():
        opt.zero_grad()
        loss = (torch.tanh(x @ weight.t() + bias) - y).pow(2).mean()
        loss.backward()
        evals[0] += 1
        return loss

    losses, expected, func_evals = [], [], []
    for _ in range(steps):
        losses.append(float(opt.step(closure)))
        expected.append([flat(weight), flat(bias)])
        func_evals.append(evals[0])
    return {"name": name, "config": config, "x": flat(x), "x_shape": LBFGS_X, "y": flat(y),
            "params": [{"path": "weight", "shape": [3, LBFGS_X[1]], "data": initial[0]},
                       {"path": "bias", "shape": [3], "data": initial[1]}],
            "losses": losses, "expected": expected, "func_evals": func_evals}


def lbfgs_cases():
    cases = [
        lbfgs_case("lbfgs_defaults", {}, 41, 3),
        lbfgs_case("lbfgs_short_history", {"lr": 0.5, "max_iter": 5, "history_size": 3}, 42, 4),
        lbfgs_case("lbfgs_max_eval", {"lr": 0.8, "max_iter": 10, "max_eval": 6, "history_size": 4}, 43, 3),
        lbfgs_case("lbfgs_strong_wolfe", {"line_search": "strong_wolfe"}, 44, 3),
        lbfgs_case("lbfgs_strong_wolfe_short", {"lr": 2.0, "max_iter": 6, "history_size": 2,
                                                "line_search": "strong_wolfe"}, 45, 4),
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
    return {"generator": "scripts/gen_optim_fixtures.py", "torch": torch.__version__,
            "cases": cases + composed_scheduler_cases() + momentum_scheduler_cases()}


def plateau(metrics, **kwargs):
    p = torch.nn.Parameter(torch.zeros(1))
    opt = torch.optim.SGD([p], lr=kwargs.pop("lr"))
    sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, **kwargs)
    lrs = []
    for m in metrics:
        lrs.append(opt.param_groups[0]["lr"])
        opt.step()
        sched.step(m)
    return lrs


def schedule_momentum(make, base_lr, optimizer="sgd", epochs=100):
    """The learning rate and the momentum (SGD's momentum, Adam's beta_1) of each step, cycle_momentum on."""
    p = torch.nn.Parameter(torch.zeros(1))
    opt = torch.optim.SGD([p], lr=base_lr, momentum=0.9) if optimizer == "sgd" else torch.optim.Adam([p], lr=base_lr)
    sched = make(opt)
    lrs, momentums = [], []
    for _ in range(epochs):
        group = opt.param_groups[0]
        lrs.append(group["lr"])
        momentums.append(group["momentum"] if optimizer == "sgd" else group["betas"][0])
        opt.step()
        sched.step()
    return lrs, momentums


def momentum_scheduler_cases():
    """One-cycle and cyclic schedules with cycle_momentum (torch's default): the momentum each step."""
    S = torch.optim.lr_scheduler
    cases = []
    for name, kind, config, make, base_lr, optimizer in [
        ("one_cycle_momentum_cos", "one_cycle", {"max_lr": 0.1, "total_steps": 100, "cycle_momentum": True},
         lambda o: S.OneCycleLR(o, max_lr=0.1, total_steps=100), 0.1, "sgd"),
        ("one_cycle_momentum_adam_linear_three_phase", "one_cycle",
         {"max_lr": 0.05, "total_steps": 100, "pct_start": 0.25, "anneal_strategy": "linear", "three_phase": True,
          "cycle_momentum": True, "base_momentum": 0.8, "max_momentum": 0.92},
         lambda o: S.OneCycleLR(o, max_lr=0.05, total_steps=100, pct_start=0.25, anneal_strategy="linear",
                                three_phase=True, base_momentum=0.8, max_momentum=0.92), 0.05, "adam"),
        ("cyclic_momentum_triangular2", "cyclic",
         {"base_lr": 0.001, "max_lr": 0.05, "step_size_up": 5, "step_size_down": 10, "mode": "triangular2",
          "cycle_momentum": True},
         lambda o: S.CyclicLR(o, base_lr=0.001, max_lr=0.05, step_size_up=5, step_size_down=10, mode="triangular2"),
         0.001, "sgd"),
        ("cyclic_momentum_exp_range", "cyclic",
         {"base_lr": 0.002, "max_lr": 0.02, "step_size_up": 6, "mode": "exp_range", "gamma": 0.97,
          "cycle_momentum": True, "base_momentum": 0.85, "max_momentum": 0.95},
         lambda o: S.CyclicLR(o, base_lr=0.002, max_lr=0.02, step_size_up=6, mode="exp_range", gamma=0.97,
                              base_momentum=0.85, max_momentum=0.95), 0.002, "sgd"),
    ]:
        lrs, momentums = schedule_momentum(make, base_lr, optimizer)
        cases.append({"name": name, "kind": kind, "config": config, "lrs": lrs, "momentums": momentums})
    return cases


def composed_scheduler_cases():
    """One-cycle, cyclic, chained and reduce-on-plateau schedules (torch's cycle_momentum off: only the
    learning rate is scheduled)."""
    S = torch.optim.lr_scheduler
    gen = torch.Generator().manual_seed(51)
    noise = (torch.rand(100, generator=gen) * 0.02).tolist()
    # A loss that falls, then stalls with noise (plateaus), then falls again.
    falling = [1.0 / (1 + k) if k < 30 else 1.0 / 31 + noise[k] for k in range(70)]
    falling += [falling[-1] * 0.9 ** (k + 1) for k in range(30)]
    accuracy = [min(0.9, 0.1 + 0.02 * k) + noise[k] for k in range(100)]
    return [
        {"name": "one_cycle_cos", "kind": "one_cycle",
         "config": {"max_lr": 0.1, "total_steps": 100},
         "lrs": schedule(lambda o: S.OneCycleLR(o, max_lr=0.1, total_steps=100, cycle_momentum=False), 0.1)},
        {"name": "one_cycle_linear_three_phase", "kind": "one_cycle",
         "config": {"max_lr": 0.05, "total_steps": 100, "pct_start": 0.25, "anneal_strategy": "linear",
                    "div_factor": 10.0, "final_div_factor": 100.0, "three_phase": True},
         "lrs": schedule(lambda o: S.OneCycleLR(o, max_lr=0.05, total_steps=100, pct_start=0.25,
                                                anneal_strategy="linear", div_factor=10.0, final_div_factor=100.0,
                                                three_phase=True, cycle_momentum=False), 0.05)},
        {"name": "cyclic_triangular", "kind": "cyclic",
         "config": {"base_lr": 0.01, "max_lr": 0.1, "step_size_up": 7},
         "lrs": schedule(lambda o: S.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=7, cycle_momentum=False), 0.01)},
        {"name": "cyclic_triangular2_asymmetric", "kind": "cyclic",
         "config": {"base_lr": 0.001, "max_lr": 0.05, "step_size_up": 5, "step_size_down": 10, "mode": "triangular2"},
         "lrs": schedule(lambda o: S.CyclicLR(o, base_lr=0.001, max_lr=0.05, step_size_up=5, step_size_down=10,
                                              mode="triangular2", cycle_momentum=False), 0.001)},
        {"name": "cyclic_exp_range", "kind": "cyclic",
         "config": {"base_lr": 0.002, "max_lr": 0.02, "step_size_up": 6, "mode": "exp_range", "gamma": 0.97},
         "lrs": schedule(lambda o: S.CyclicLR(o, base_lr=0.002, max_lr=0.02, step_size_up=6, mode="exp_range",
                                              gamma=0.97, cycle_momentum=False), 0.002)},
        {"name": "chained_linear_exponential", "kind": "chained_linear_exponential",
         "config": {"factor": {"initial_lr": 0.25, "final_lr": 1.0, "num_iters": 8},
                    "base": {"initial_lr": 0.1, "gamma": 0.95}},
         "lrs": schedule(lambda o: S.ChainedScheduler([S.LinearLR(o, start_factor=0.25, end_factor=1.0, total_iters=8),
                                                       S.ExponentialLR(o, gamma=0.95)]), 0.1)},
        {"name": "chained_step_exponential", "kind": "chained_step_exponential",
         "config": {"factor": {"initial_lr": 1.0, "step_size": 10, "gamma": 0.5},
                    "base": {"initial_lr": 0.2, "gamma": 0.98}},
         "lrs": schedule(lambda o: S.ChainedScheduler([S.StepLR(o, step_size=10, gamma=0.5),
                                                       S.ExponentialLR(o, gamma=0.98)]), 0.2)},
        {"name": "plateau_min_rel_cooldown", "kind": "plateau", "metrics": falling,
         "config": {"initial_lr": 0.1, "mode": "min", "factor": 0.5, "patience": 3, "threshold": 1e-2,
                    "threshold_mode": "rel", "cooldown": 2, "min_lr": 0.01},
         "lrs": plateau(falling, lr=0.1, mode="min", factor=0.5, patience=3, threshold=1e-2,
                        threshold_mode="rel", cooldown=2, min_lr=0.01)},
        {"name": "plateau_max_abs", "kind": "plateau", "metrics": accuracy,
         "config": {"initial_lr": 0.05, "mode": "max", "factor": 0.2, "patience": 2, "threshold": 0.01,
                    "threshold_mode": "abs", "cooldown": 0, "min_lr": 0.0},
         "lrs": plateau(accuracy, lr=0.05, mode="max", factor=0.2, patience=2, threshold=0.01,
                        threshold_mode="abs")},
    ]


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, data in (("optimizers.json", optimizer_cases()), ("schedulers.json", scheduler_cases()),
                       ("muon.json", muon_cases()), ("lbfgs.json", lbfgs_cases())):
        path = os.path.join(OUT, name)
        with open(path, "w") as f:
            json.dump(data, f, separators=(",", ":"))
            f.write("\n")
        print("wrote", os.path.normpath(path), os.path.getsize(path), "bytes")


if __name__ == "__main__":
    main()
