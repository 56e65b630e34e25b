#!/usr/bin/python3
"""Writes the PyTorch fixtures of the losses added for issue 20 (tests/fixtures/nn_layers/losses_extra.json):
PoissonNLL, GaussianNLL, HingeEmbedding, MarginRanking, SoftMargin, MultiMargin, TripletMargin, burn's
Lp loss (|p - q|^p, written with torch ops) and cross-entropy with probability targets.

Run once with Debian's python3-torch (1.13):  /usr/bin/python3 scripts/gen_loss_extra_fixtures.py

Same format as scripts/gen_layer_fixtures.py: {"config": {...}, "tensors": {"name": {"shape", "data"}}}.
Inputs are named "<loss>.<input>"; for a case "<loss>.<case>" the loss is stored under that key (shape
[1] once reduced, the per-element shape for "none") and the gradient of the summed loss with respect
to each differentiable input under "g.<loss>.<case>.<input>". Losses are computed in float64 from the
float32 inputs.
"""
import json
import os

import torch
import torch.nn.functional as F

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures", "nn_layers")

tensors = {}


def t(x):
    x = x.detach()
    return {"shape": list(x.shape), "data": [float(v) for v in x.reshape(-1).tolist()]}


def put(key, value):
    tensors[key] = value.to(torch.float32) if value.dtype != torch.float32 else value


def case(loss, name, fn, inputs, diff):
    """fn(*inputs) with the inputs named in diff made float64 leaves; stores the loss and the grads."""
    xs = {k: v.to(torch.float64).requires_grad_(k in diff) if v.is_floating_point() else v
          for k, v in inputs.items()}
    out = fn(**xs)
    put(loss + "." + name, out.detach().reshape(-1) if out.dim() == 0 else out.detach())
    gs = torch.autograd.grad(out.sum(), [xs[k] for k in diff])
    for k, g in zip(diff, gs):
        put("g." + loss + "." + name + "." + k, g)


def signs(*shape):
    return torch.randint(0, 2, shape).to(torch.float32) * 2 - 1


def gen():
    torch.manual_seed(2020)
    # Poisson NLL: log-rates (log_input) or rates, and count targets (some 0, 1 and > 1).
    inp = torch.randn(3, 5)
    rate = torch.rand(3, 5) + 0.1
    target = torch.randint(0, 6, (3, 5)).to(torch.float32)
    for k, v in {"input": inp, "rate": rate, "target": target}.items():
        put("pois." + k, v)
    for red in ("mean", "sum", "none"):
        case("pois", "log." + red, lambda input, target: F.poisson_nll_loss(input, target, reduction=red),
             {"input": inp, "target": target}, ["input"])
    case("pois", "rate.mean", lambda input, target: F.poisson_nll_loss(input, target, log_input=False),
         {"input": rate, "target": target}, ["input"])
    case("pois", "full.mean", lambda input, target: F.poisson_nll_loss(input, target, full=True),
         {"input": inp, "target": target}, ["input"])
    case("pois", "rate_full.sum",
         lambda input, target: F.poisson_nll_loss(input, target, log_input=False, full=True, reduction="sum"),
         {"input": rate, "target": target}, ["input"])

    # Gaussian NLL: one variance below eps (clamped, still differentiated as the identity).
    mu, y = torch.randn(4, 3), torch.randn(4, 3)
    var = torch.rand(4, 3) + 0.05
    var[1, 2] = 1e-8
    var_row = torch.rand(4, 1) + 0.2
    for k, v in {"input": mu, "target": y, "var": var, "var_row": var_row}.items():
        put("gnll." + k, v)
    args = {"input": mu, "target": y, "var": var}
    for red in ("mean", "sum", "none"):
        case("gnll", red, lambda input, target, var: F.gaussian_nll_loss(input, target, var, reduction=red),
             args, ["input", "var"])
    case("gnll", "full.mean", lambda input, target, var: F.gaussian_nll_loss(input, target, var, full=True),
         args, ["input", "var"])
    case("gnll", "row.mean", lambda input, target, var: F.gaussian_nll_loss(input, target, var),
         {"input": mu, "target": y, "var": var_row}, ["input", "var"])

    # Hinge embedding and soft margin: scores [3, 5] and targets 1 / -1.
    x, s = torch.randn(3, 5) * 1.5, signs(3, 5)
    put("hinge.x", x)
    put("hinge.y", s)
    for red in ("mean", "sum", "none"):
        case("hinge", red, lambda x, y: F.hinge_embedding_loss(x, y, reduction=red), {"x": x, "y": s}, ["x"])
        case("soft", red, lambda x, y: F.soft_margin_loss(x, y, reduction=red), {"x": x, "y": s}, ["x"])
    case("hinge", "m2.mean", lambda x, y: F.hinge_embedding_loss(x, y, margin=2.0), {"x": x, "y": s}, ["x"])

    # Margin ranking: pairs of scores [6].
    x1, x2, r = torch.randn(6), torch.randn(6), signs(6)
    for k, v in {"x1": x1, "x2": x2, "y": r}.items():
        put("rank." + k, v)
    for red in ("mean", "sum", "none"):
        case("rank", red, lambda x1, x2, y: F.margin_ranking_loss(x1, x2, y, reduction=red),
             {"x1": x1, "x2": x2, "y": r}, ["x1", "x2"])
    case("rank", "m03.mean", lambda x1, x2, y: F.margin_ranking_loss(x1, x2, y, margin=0.3),
         {"x1": x1, "x2": x2, "y": r}, ["x1", "x2"])

    # Multi margin: scores [4, 5], classes [4].
    xm, tm = torch.randn(4, 5), torch.tensor([0, 3, 4, 3])
    w = torch.tensor([0.5, 1.0, 2.0, 1.5, 0.25])
    put("multi.x", xm)
    put("multi.t", tm.to(torch.float32))
    put("multi.w", w)
    for red in ("mean", "sum", "none"):
        case("multi", red, lambda x, t: F.multi_margin_loss(x, t, reduction=red), {"x": xm, "t": tm}, ["x"])
    case("multi", "p2.sum", lambda x, t: F.multi_margin_loss(x, t, p=2, margin=0.5, reduction="sum"),
         {"x": xm, "t": tm}, ["x"])
    case("multi", "w.mean", lambda x, t: F.multi_margin_loss(x, t, weight=w.to(torch.float64)),
         {"x": xm, "t": tm}, ["x"])

    # Triplet margin: [5, 4] anchors, positives, negatives.
    a, p, n = torch.randn(5, 4), torch.randn(5, 4), torch.randn(5, 4)
    for k, v in {"a": a, "p": p, "n": n}.items():
        put("triplet." + k, v)
    trip = {"a": a, "p": p, "n": n}
    for red in ("mean", "sum", "none"):
        case("triplet", red, lambda a, p, n: F.triplet_margin_loss(a, p, n, reduction=red), trip, ["a", "p", "n"])
    case("triplet", "p1m05.sum",
         lambda a, p, n: F.triplet_margin_loss(a, p, n, margin=0.5, p=1, reduction="sum"), trip, ["a", "p", "n"])
    case("triplet", "swap.mean", lambda a, p, n: F.triplet_margin_loss(a, p, n, swap=True), trip, ["a", "p", "n"])
    case("triplet", "p3.mean", lambda a, p, n: F.triplet_margin_loss(a, p, n, p=3), trip, ["a", "p", "n"])

    # Lp loss (burn's): |pred - target|^p, [2, 3, 4] so that per-sample reductions have dims to reduce.
    pr, tg = torch.randn(2, 3, 4), torch.randn(2, 3, 4)
    put("lp.pred", pr)
    put("lp.target", tg)
    for pw in (1.0, 2.0, 3.0, 0.5):
        for red in ("mean", "sum"):
            fn = (lambda pred, target: (pred - target).abs().pow(pw).mean()) if red == "mean" else (
                lambda pred, target: (pred - target).abs().pow(pw).sum())
            case("lp", "p%g.%s" % (pw, red), fn, {"pred": pr, "target": tg}, ["pred"])
    case("lp", "p3.none", lambda pred, target: (pred - target).abs().pow(3.0), {"pred": pr, "target": tg}, ["pred"])
    case("lp", "p2.dims12", lambda pred, target: (pred - target).pow(2).mean(dim=(1, 2), keepdim=True),
         {"pred": pr, "target": tg}, ["pred"])

    # Cross-entropy with probability targets [4, 5].
    logits, probs = torch.randn(4, 5), F.softmax(torch.randn(4, 5) * 2, dim=1)
    cw = torch.tensor([1.0, 2.0, 0.5, 1.5, 3.0])
    for k, v in {"logits": logits, "probs": probs, "w": cw, "inputs": F.softmax(logits, dim=1)}.items():
        put("ce." + k, v)
    ce = {"logits": logits, "probs": probs}
    case("ce", "mean", lambda logits, probs: F.cross_entropy(logits, probs), ce, ["logits"])
    case("ce", "none", lambda logits, probs: F.cross_entropy(logits, probs, reduction="none"), ce, ["logits"])
    case("ce", "w.mean", lambda logits, probs: F.cross_entropy(logits, probs, weight=cw.to(torch.float64)), ce,
         ["logits"])
    case("ce", "s.mean", lambda logits, probs: F.cross_entropy(logits, probs, label_smoothing=0.1), ce, ["logits"])
    case("ce", "ws.sum",
         lambda logits, probs: F.cross_entropy(logits, probs, weight=cw.to(torch.float64), label_smoothing=0.2,
                                               reduction="sum"), ce, ["logits"])
    # logits = false: the inputs are probabilities.
    case("ce", "probs_in.mean", lambda inputs, probs: -(probs * inputs.log()).sum(1).mean(),
         {"inputs": F.softmax(logits, dim=1), "probs": probs}, ["inputs"])


def main():
    gen()
    os.makedirs(OUT, exist_ok=True)
    body = {"config": {}, "tensors": {k: t(v) for k, v in tensors.items()}}
    with open(os.path.join(OUT, "losses_extra.json"), "w") as f:
        json.dump(body, f, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
