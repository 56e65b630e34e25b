#!/usr/bin/python3
"""Writes the PyTorch fixtures of the nn layer tests (tests/fixtures/nn_layers/*.json).

Run once with Debian's python3-torch (1.13):  /usr/bin/python3 scripts/gen_layer_fixtures.py

Each file is one JSON object:
    {"config": {...}, "tensors": {"name": {"shape": [...], "data": [...]}, ...}}
Tensor names: inputs ("x", "h0", ...), expected outputs ("y", ...), the module's parameters under
"param.<burn path>" (already mapped from PyTorch's names and layouts, see MAPPINGS below: the C++ test
loads every parameter of the burn module from these keys, so a wrong path fails the test), and
gradients of a scalar loss under "grad.<input name>" / "grad.param.<burn path>".
Bool tensors are written as 0/1 numbers. Data is float32 values written in full precision.

MAPPINGS (PyTorch -> burn C++), also in docs/nn.md:
    LSTM:  weight_ih_l0 [4H, I] -> weight_ih, weight_hh_l0 [4H, H] -> weight_hh, bias_ih_l0 -> bias_ih,
           bias_hh_l0 -> bias_hh (gate order i, f, g, o in both); bidirectional *_reverse -> reverse_lstm.*,
           the forward direction -> forward_lstm.*
    GRU:   same names, gate order r, z, n; bidirectional *_reverse -> reverse_gru.*, forward -> forward_gru.*
    RNN:   same names (one gate); bidirectional *_reverse -> reverse_rnn.*, forward -> forward_rnn.*
    MultiheadAttention: in_proj_weight[0:d] -> query.weight, [d:2d] -> key.weight, [2d:3d] -> value.weight,
           in_proj_bias likewise -> {query,key,value}.bias, out_proj.{weight,bias} -> output.{weight,bias}
    Transformer{Encoder,Decoder}Layer i: layers.i.{self_attn -> mha (encoder) / self_attn (decoder),
           multihead_attn -> cross_attn, linear1 -> pwff.linear_inner, linear2 -> pwff.linear_outer,
           norm1/2/3 -> norm_1/2/3 (weight -> gamma, bias -> beta)}
    GroupNorm / InstanceNorm: weight -> gamma, bias -> beta.  PReLU: weight -> alpha.
"""
import json
import math
import os

import torch
import torch.nn.functional as F

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures", "nn_layers")


def t(x):
    x = x.detach()
    if x.dtype == torch.bool:
        x = x.to(torch.float32)
    return {"shape": list(x.shape), "data": x.reshape(-1).tolist()}


def write(name, config, tensors):
    os.makedirs(OUT, exist_ok=True)
    body = {"config": config, "tensors": {k: t(v) for k, v in tensors.items()}}
    with open(os.path.join(OUT, name + ".json"), "w") as f:
        json.dump(body, f, separators=(",", ":"))
        f.write("\n")


def randn(*shape):
    return torch.randn(*shape, dtype=torch.float32)


def grads_of(loss, named):
    """{"grad.<name>": grad} for every named leaf tensor."""
    keys = list(named.keys())
    gs = torch.autograd.grad(loss, [named[k] for k in keys], allow_unused=True)
    return {"grad." + k: g for k, g in zip(keys, gs) if g is not None}


# ------------------------------------------------------------------ normalisation

def gen_norms():
    x = randn(2, 6, 4, 5)
    gn = torch.nn.GroupNorm(3, 6)
    with torch.no_grad():
        gn.weight.copy_(randn(6))
        gn.bias.copy_(randn(6))
    x3 = randn(2, 6, 7)
    write("group_norm", {"num_groups": 3, "num_channels": 6, "epsilon": 1e-5},
          {"x": x, "y": gn(x), "x3": x3, "y3": gn(x3), "param.gamma": gn.weight, "param.beta": gn.bias})

    x = randn(2, 4, 3, 5)
    inorm = torch.nn.InstanceNorm2d(4, affine=True)
    with torch.no_grad():
        inorm.weight.copy_(randn(4))
        inorm.bias.copy_(randn(4))
    x1 = randn(3, 4, 6)
    y1 = torch.nn.functional.instance_norm(x1, weight=inorm.weight, bias=inorm.bias)
    write("instance_norm", {"num_channels": 4, "epsilon": 1e-5},
          {"x": x, "y": inorm(x), "x1": x1, "y1": y1, "param.gamma": inorm.weight, "param.beta": inorm.bias})

    # PyTorch 1.13 has no RMSNorm: the formula (as torch.nn.RMSNorm computes it).
    x = randn(2, 3, 8) * 3
    gamma = randn(8)
    y = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-5) * gamma
    write("rms_norm", {"d_model": 8, "epsilon": 1e-5}, {"x": x, "y": y, "param.gamma": gamma})


# ------------------------------------------------------------------ position encodings

def gen_positions():
    d, max_len = 8, 16
    pos = torch.arange(max_len, dtype=torch.float64).unsqueeze(1)
    div = torch.exp(torch.arange(0, d, 2, dtype=torch.float64) * (-math.log(10000.0) / d))
    pe = torch.zeros(max_len, d, dtype=torch.float64)
    pe[:, 0::2] = torch.sin(pos * div)
    pe[:, 1::2] = torch.cos(pos * div)
    x = randn(2, 5, d)
    write("positional_encoding", {"d_model": d, "max_sequence_size": max_len},
          {"x": x, "y": x + pe[:5].to(torch.float32).unsqueeze(0)})

    # RoPE on interleaved pairs (x[2i], x[2i+1]) rotated by pos * theta^(-2i/d), as burn and Meta's Llama.
    theta = 10000.0
    freqs = 1.0 / (theta ** (torch.arange(0, d, 2, dtype=torch.float64) / d))

    def rope(x, start):
        seq = x.shape[-2]
        ang = torch.arange(start, start + seq, dtype=torch.float64).unsqueeze(1) * freqs  # [seq, d/2]
        cos, sin = torch.cos(ang).to(torch.float32), torch.sin(ang).to(torch.float32)
        xr = x.reshape(*x.shape[:-1], d // 2, 2)
        xe, xo = xr[..., 0], xr[..., 1]
        out = torch.stack([xe * cos - xo * sin, xe * sin + xo * cos], dim=-1)
        return out.reshape(x.shape)

    x = randn(2, 3, 5, d)
    write("rotary_encoding", {"d_model": d, "max_sequence_length": max_len, "theta": theta},
          {"x": x, "y": rope(x, 0), "y_start3": rope(x, 3)})


# ------------------------------------------------------------------ recurrent

def rnn_params(m, suffix, prefix):
    out = {}
    for name in ["weight_ih", "weight_hh", "bias_ih", "bias_hh"]:
        out["param." + prefix + name] = getattr(m, name + "_l0" + suffix)
    return out


def gen_recurrent():
    I, H, B, T = 5, 4, 2, 6
    lstm = torch.nn.LSTM(I, H, batch_first=True)
    x = randn(B, T, I).requires_grad_()
    h0, c0 = randn(B, H).requires_grad_(), randn(B, H).requires_grad_()
    y, (hn, cn) = lstm(x, (h0.unsqueeze(0), c0.unsqueeze(0)))
    r = randn(B, T, H)
    params = rnn_params(lstm, "", "")
    loss = (y * r).sum() + (hn[0] * r[:, 0]).sum() + (cn[0] * r[:, 1]).sum()
    named = {"x": x, "h0": h0, "c0": c0, **{k: v for k, v in params.items()}}
    write("lstm", {"d_input": I, "d_hidden": H},
          {"x": x, "h0": h0, "c0": c0, "y": y, "hn": hn[0], "cn": cn[0], "r": r, **params,
           **grads_of(loss, named)})

    bilstm = torch.nn.LSTM(I, H, batch_first=True, bidirectional=True)
    x = randn(B, T, I).requires_grad_()
    y, (hn, cn) = bilstm(x)
    r = randn(B, T, 2 * H)
    params = {**rnn_params(bilstm, "", "forward_lstm."), **rnn_params(bilstm, "_reverse", "reverse_lstm.")}
    loss = (y * r).sum()
    write("bilstm", {"d_input": I, "d_hidden": H},
          {"x": x, "y": y, "hn": hn, "cn": cn, "r": r, **params, **grads_of(loss, {"x": x, **params})})

    gru = torch.nn.GRU(I, H, batch_first=True)
    x = randn(B, T, I).requires_grad_()
    h0 = randn(B, H)
    y, _ = gru(x, h0.unsqueeze(0))
    r = randn(B, T, H)
    params = rnn_params(gru, "", "")
    loss = (y * r).sum()
    write("gru", {"d_input": I, "d_hidden": H},
          {"x": x, "h0": h0, "y": y, "r": r, **params, **grads_of(loss, {"x": x, **params})})


def gen_recurrent_more():
    """Elman RNN (tanh, relu), bidirectional RNN and GRU. Seeded on their own (and run last) so that
    adding them left every other fixture as it was."""
    torch.manual_seed(20)
    I, H, B, T = 5, 4, 2, 6
    for act in ("tanh", "relu"):
        rnn = torch.nn.RNN(I, H, nonlinearity=act, batch_first=True)
        x = randn(B, T, I).requires_grad_()
        h0 = randn(B, H).requires_grad_()
        y, hn = rnn(x, h0.unsqueeze(0))
        r = randn(B, T, H)
        params = rnn_params(rnn, "", "")
        loss = (y * r).sum() + (hn[0] * r[:, 0]).sum()
        write("rnn_" + act, {"d_input": I, "d_hidden": H, "nonlinearity": act},
              {"x": x, "h0": h0, "y": y, "hn": hn[0], "r": r, **params,
               **grads_of(loss, {"x": x, "h0": h0, **params})})

    birnn = torch.nn.RNN(I, H, batch_first=True, bidirectional=True)
    x = randn(B, T, I).requires_grad_()
    h0 = randn(2, B, H).requires_grad_()
    y, hn = birnn(x, h0)
    r = randn(B, T, 2 * H)
    params = {**rnn_params(birnn, "", "forward_rnn."), **rnn_params(birnn, "_reverse", "reverse_rnn.")}
    loss = (y * r).sum() + (hn * r[:, :2, :H].transpose(0, 1)).sum()
    write("birnn", {"d_input": I, "d_hidden": H},
          {"x": x, "h0": h0, "y": y, "hn": hn, "r": r, **params, **grads_of(loss, {"x": x, "h0": h0, **params})})

    bigru = torch.nn.GRU(I, H, batch_first=True, bidirectional=True)
    x = randn(B, T, I).requires_grad_()
    h0 = randn(2, B, H).requires_grad_()
    y, hn = bigru(x, h0)
    r = randn(B, T, 2 * H)
    params = {**rnn_params(bigru, "", "forward_gru."), **rnn_params(bigru, "_reverse", "reverse_gru.")}
    loss = (y * r).sum() + (hn * r[:, :2, :H].transpose(0, 1)).sum()
    write("bigru", {"d_input": I, "d_hidden": H},
          {"x": x, "h0": h0, "y": y, "hn": hn, "r": r, **params, **grads_of(loss, {"x": x, "h0": h0, **params})})


# ------------------------------------------------------------------ attention

def mha_params(m, prefix):
    d = m.embed_dim
    w, b = m.in_proj_weight, m.in_proj_bias
    return {
        prefix + "query.weight": w[0:d], prefix + "key.weight": w[d:2 * d], prefix + "value.weight": w[2 * d:],
        prefix + "query.bias": b[0:d], prefix + "key.bias": b[d:2 * d], prefix + "value.bias": b[2 * d:],
        prefix + "output.weight": m.out_proj.weight, prefix + "output.bias": m.out_proj.bias,
    }


def leaf_params(m, prefix):
    """The mapped parameters as leaves; returns (dict for the fixture, dict of leaves)."""
    return {("param." + k): v for k, v in mha_params(m, prefix).items()}


def causal(t):
    return torch.triu(torch.ones(t, t, dtype=torch.bool), diagonal=1)


def gen_attention():
    d, h, B, TQ, TK = 8, 2, 2, 4, 5
    mha = torch.nn.MultiheadAttention(d, h, batch_first=True)
    with torch.no_grad():  # non-zero biases, so a bias mix-up shows
        mha.in_proj_bias.copy_(randn(3 * d) * 0.5)
        mha.out_proj.bias.copy_(randn(d) * 0.5)
    q, k, v = randn(B, TQ, d).requires_grad_(), randn(B, TK, d).requires_grad_(), randn(B, TK, d).requires_grad_()
    pad = torch.tensor([[False, False, False, True, True], [False, False, False, False, False]])
    attn = torch.zeros(B, TQ, TK, dtype=torch.bool)
    attn[0, 1, 0] = True
    attn[1, 2, 3] = True
    attn[1, 0, 4] = True
    torch_attn = attn.repeat_interleave(h, dim=0)  # PyTorch wants [B * h, TQ, TK]
    ctx, weights = mha(q, k, v, key_padding_mask=pad, attn_mask=torch_attn, need_weights=True,
                       average_attn_weights=False)
    r = randn(B, TQ, d)
    loss = (ctx * r).sum()
    # Gradients with respect to the packed in_proj are split back into the burn paths.
    gw, gb, gow, gob, gq, gk, gv = torch.autograd.grad(
        loss, [mha.in_proj_weight, mha.in_proj_bias, mha.out_proj.weight, mha.out_proj.bias, q, k, v])
    grads = {"grad.query": gq, "grad.key": gk, "grad.value": gv,
             "grad.param.query.weight": gw[:d], "grad.param.key.weight": gw[d:2 * d],
             "grad.param.value.weight": gw[2 * d:], "grad.param.query.bias": gb[:d],
             "grad.param.key.bias": gb[d:2 * d], "grad.param.value.bias": gb[2 * d:],
             "grad.param.output.weight": gow, "grad.param.output.bias": gob}
    write("mha", {"d_model": d, "n_heads": h},
          {"query": q, "key": k, "value": v, "mask_pad": pad, "mask_attn": attn, "context": ctx,
           "weights": weights, "r": r, **leaf_params(mha, ""), **grads})

    # Self-attention with a causal mask, plus the quiet softmax variant computed by hand.
    x = randn(B, 6, d)
    ctx, weights = mha(x, x, x, attn_mask=causal(6), need_weights=True, average_attn_weights=False)
    with torch.no_grad():
        dk = d // h
        p = mha_params(mha, "")

        def proj(z, name):
            return (z @ p[name + ".weight"].T + p[name + ".bias"]).reshape(B, -1, h, dk).transpose(1, 2)

        s = proj(x, "query") @ proj(x, "key").transpose(-1, -2) / math.sqrt(dk)
        s = s.masked_fill(causal(6), -1.0e4)
        m = s.max(-1, keepdim=True).values
        e = torch.exp(s - m)
        wq = e / (e.sum(-1, keepdim=True) + torch.exp(-m))
        cq = (wq @ proj(x, "value")).transpose(1, 2).reshape(B, -1, d) @ p["output.weight"].T + p["output.bias"]
    write("mha_causal", {"d_model": d, "n_heads": h},
          {"x": x, "context": ctx, "weights": weights, "context_quiet": cq, "weights_quiet": wq,
           **leaf_params(mha, "")})


# ------------------------------------------------------------------ transformer

def layer_params(layer, i, decoder):
    out = {}
    pre = "param.layers.%d." % i
    sa = "self_attn." if decoder else "mha."
    out.update({pre + k: v for k, v in mha_params(layer.self_attn, sa).items()})
    if decoder:
        out.update({pre + k: v for k, v in mha_params(layer.multihead_attn, "cross_attn.").items()})
    out[pre + "pwff.linear_inner.weight"] = layer.linear1.weight
    out[pre + "pwff.linear_inner.bias"] = layer.linear1.bias
    out[pre + "pwff.linear_outer.weight"] = layer.linear2.weight
    out[pre + "pwff.linear_outer.bias"] = layer.linear2.bias
    norms = ["norm1", "norm2", "norm3"] if decoder else ["norm1", "norm2"]
    for j, n in enumerate(norms):
        out[pre + "norm_%d.gamma" % (j + 1)] = getattr(layer, n).weight
        out[pre + "norm_%d.beta" % (j + 1)] = getattr(layer, n).bias
    return out


def perturb_norms(model):
    with torch.no_grad():
        for name, p in model.named_parameters():
            if "norm" in name:
                p.copy_(randn(*p.shape) * 0.3 + (1.0 if name.endswith("weight") else 0.0))


def gen_transformer():
    d, h, dff, n, B, T, S = 8, 2, 16, 2, 2, 5, 6
    for norm_first in [False, True]:
        tag = "pre" if norm_first else "post"
        layer = torch.nn.TransformerEncoderLayer(d, h, dff, dropout=0.0, activation="gelu", batch_first=True,
                                                 norm_first=norm_first)
        enc = torch.nn.TransformerEncoder(layer, n, enable_nested_tensor=False)
        perturb_norms(enc)
        enc.train()  # the fast path (eval) zeroes padded positions; dropout is 0 anyway
        x = randn(B, T, d)
        pad = torch.tensor([[False] * T, [False] * (T - 2) + [True] * 2])
        y = enc(x, mask=causal(T), src_key_padding_mask=pad)
        params = {}
        for i, l in enumerate(enc.layers):
            params.update(layer_params(l, i, False))
        write("transformer_encoder_" + tag,
              {"d_model": d, "n_heads": h, "d_ff": dff, "n_layers": n, "norm_first": norm_first},
              {"x": x, "mask_pad": pad, "y": y, **params})

        layer = torch.nn.TransformerDecoderLayer(d, h, dff, dropout=0.0, activation="gelu", batch_first=True,
                                                 norm_first=norm_first)
        dec = torch.nn.TransformerDecoder(layer, n)
        perturb_norms(dec)
        dec.train()
        tgt, mem = randn(B, T, d), randn(B, S, d)
        mem_pad = torch.tensor([[False] * S, [False] * (S - 1) + [True]])
        y = dec(tgt, mem, tgt_mask=causal(T), memory_key_padding_mask=mem_pad)
        params = {}
        for i, l in enumerate(dec.layers):
            params.update(layer_params(l, i, True))
        write("transformer_decoder_" + tag,
              {"d_model": d, "n_heads": h, "d_ff": dff, "n_layers": n, "norm_first": norm_first},
              {"target": tgt, "memory": mem, "memory_mask_pad": mem_pad, "y": y, **params})


def gen_feed_forward():
    d, dff = 6, 10
    l1, l2 = torch.nn.Linear(d, dff), torch.nn.Linear(dff, d)
    x = randn(2, 3, d)
    write("pwff", {"d_model": d, "d_ff": dff},
          {"x": x, "y": l2(F.gelu(l1(x))), "param.linear_inner.weight": l1.weight,
           "param.linear_inner.bias": l1.bias, "param.linear_outer.weight": l2.weight,
           "param.linear_outer.bias": l2.bias})
    a, b = torch.nn.Linear(d, dff), torch.nn.Linear(d, dff)
    write("swiglu", {"d_input": d, "d_output": dff},
          {"x": x, "y": F.silu(a(x)) * b(x), "param.linear_inner.weight": a.weight,
           "param.linear_inner.bias": a.bias, "param.linear_outer.weight": b.weight,
           "param.linear_outer.bias": b.bias})


# ------------------------------------------------------------------ activations

def gen_activations():
    # Values away from the kinks (0, +-1, +-3, 6) so that one-sided gradients agree.
    x = randn(3, 4, 5) * 4
    x = torch.where((x.abs() < 0.05) | ((x.abs() - 1).abs() < 0.05) | ((x.abs() - 3).abs() < 0.05) |
                    ((x - 6).abs() < 0.05), x + 0.2, x)
    x[0, 0, 0], x[0, 0, 1], x[0, 0, 2] = 30.0, -30.0, 8.0
    tensors = {"x": x}
    acts = {
        "relu6": torch.nn.ReLU6(), "hard_sigmoid": torch.nn.Hardsigmoid(), "hard_swish": torch.nn.Hardswish(),
        "mish": torch.nn.Mish(), "elu": torch.nn.ELU(), "elu_a": torch.nn.ELU(0.5), "selu": torch.nn.SELU(),
        "celu": torch.nn.CELU(), "celu_a": torch.nn.CELU(2.0), "softsign": torch.nn.Softsign(),
        "log_sigmoid": torch.nn.LogSigmoid(), "hardtanh": torch.nn.Hardtanh(),
        "hardtanh_a": torch.nn.Hardtanh(-2.0, 1.5), "softmin": torch.nn.Softmin(dim=1),
        "tanhshrink": torch.nn.Tanhshrink(),
    }
    r = randn(3, 4, 5)
    tensors["r"] = r
    for name, m in acts.items():
        xi = x.clone().requires_grad_()
        y = m(xi)
        (g,) = torch.autograd.grad((y * r).sum(), [xi])
        tensors["y." + name] = y
        tensors["g." + name] = g
    prelu = torch.nn.PReLU(4)
    with torch.no_grad():
        prelu.weight.copy_(torch.tensor([0.25, -0.5, 0.1, 2.0]))
    xi = x.clone().requires_grad_()
    y = prelu(xi)
    gx, ga = torch.autograd.grad((y * r).sum(), [xi, prelu.weight])
    tensors.update({"y.prelu": y, "g.prelu": gx, "param.alpha": prelu.weight, "grad.param.alpha": ga})
    write("activations", {}, tensors)


# ------------------------------------------------------------------ losses

def gen_losses():
    tensors = {}
    # Binary cross-entropy, [batch] and multi-label [batch, classes] inputs.
    logits1, t1 = randn(8), torch.randint(0, 2, (8,))
    logits2, t2 = randn(4, 3), torch.randint(0, 2, (4, 3))
    w2 = torch.tensor([0.5, 1.0, 2.0])
    w1 = torch.tensor([0.3, 1.7])
    tensors.update({"bce.logits1": logits1, "bce.t1": t1, "bce.logits2": logits2, "bce.t2": t2})

    def bce_case(name, x, tgt, logits, weight=None, smoothing=None):
        xi = x.clone().requires_grad_()
        tf = tgt.float()
        if smoothing is not None:
            tf = tf * (1 - smoothing) + smoothing / 2
        if logits:
            loss = F.binary_cross_entropy_with_logits(xi, tf, weight=weight)
        else:
            loss = F.binary_cross_entropy(torch.sigmoid(xi), tf, weight=weight)
        (g,) = torch.autograd.grad(loss, [xi])
        tensors["bce.loss." + name] = loss.reshape(1)
        tensors["bce.g." + name] = g  # gradient with respect to the logits x

    bce_case("logits1", logits1, t1, True)
    bce_case("probs1", logits1, t1, False)  # inputs sigmoid(x): the gradient includes sigmoid'
    bce_case("logits2", logits2, t2, True)
    bce_case("logits2_w", logits2, t2, True, weight=w2)
    bce_case("logits1_w", logits1, t1, True, weight=w1[t1])
    bce_case("logits2_s", logits2, t2, True, smoothing=0.2)
    bce_case("probs2_ws", logits2, t2, False, weight=w2, smoothing=0.1)

    p, q = randn(3, 5), randn(3, 5)
    tensors.update({"p": p, "q": q})

    def case(name, fn):
        pi = p.clone().requires_grad_()
        loss = fn(pi)
        (g,) = torch.autograd.grad(loss.sum(), [pi])
        tensors[name] = loss.reshape(-1) if loss.dim() == 0 else loss
        tensors["g." + name] = g

    for red in ["mean", "sum"]:
        case("huber." + red, lambda z: F.huber_loss(z, q, reduction=red, delta=0.7))
        case("smooth_l1." + red, lambda z: F.smooth_l1_loss(z, q, reduction=red, beta=0.5))
        case("l1." + red, lambda z: F.l1_loss(z, q, reduction=red))
    case("huber.none", lambda z: F.huber_loss(z, q, reduction="none", delta=0.7))

    logp = F.log_softmax(randn(3, 5), dim=1)
    target = F.softmax(randn(3, 5), dim=1)
    target[0, 1] = 0.0  # a zero target contributes nothing (PyTorch's xlogy)
    tensors.update({"kl.input": logp, "kl.target": target, "kl.log_target": target.clamp_min(1e-8).log()})
    for red in ["mean", "sum", "batchmean", "none"]:
        for log_target in [False, True]:
            xi = logp.clone().requires_grad_()
            tg = tensors["kl.log_target"] if log_target else target
            loss = F.kl_div(xi, tg, reduction=red, log_target=log_target)
            (g,) = torch.autograd.grad(loss.sum(), [xi])
            key = "kl.%s.%s" % (red, "log" if log_target else "prob")
            tensors[key] = loss.reshape(-1) if loss.dim() == 0 else loss
            tensors["g." + key] = g

    x1, x2 = randn(6, 4), randn(6, 4)
    y = torch.tensor([1, -1, 1, -1, -1, 1])
    tensors.update({"cos.x1": x1, "cos.x2": x2, "cos.y": y})
    for red in ["mean", "sum", "none"]:
        a = x1.clone().requires_grad_()
        b = x2.clone().requires_grad_()
        loss = F.cosine_embedding_loss(a, b, y, margin=0.2, reduction=red)
        ga, gb = torch.autograd.grad(loss.sum(), [a, b])
        tensors["cos." + red] = loss.reshape(-1) if loss.dim() == 0 else loss
        tensors["cos.g1." + red] = ga
        tensors["cos.g2." + red] = gb
    write("losses", {"huber_delta": 0.7, "smooth_l1_beta": 0.5, "cos_margin": 0.2}, tensors)


if __name__ == "__main__":
    torch.manual_seed(0)
    gen_norms()
    gen_positions()
    gen_recurrent()
    gen_attention()
    gen_transformer()
    gen_feed_forward()
    gen_activations()
    gen_losses()
    gen_recurrent_more()
    print("wrote", sorted(os.listdir(OUT)))
