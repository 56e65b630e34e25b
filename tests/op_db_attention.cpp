// Op-database entries of the attention rows (scaled dot-product attention) against a naive float64
// loop: per query, the scaled scores over the keys, the masks (a Bool mask broadcast to the scores, and
// the causal rule j > i + Lk - Lq) at -inf, a softmax, the weighted sum of the values; the row's
// logsumexp (attention_lse); and the adjoint (attention_backward: dq, dk, dv from an output gradient).
#include <cmath>
#include <limits>
#include <optional>

#include "op_db.hpp"
#include "ops/attention.hpp"
#include "reference.hpp"

namespace burn::opdb {
namespace {

using V = const std::vector<TensorAny>&;
using In = const std::vector<TensorData>&;
using A = const Args&;

// args.ints = {causal, has_mask}; args.reals = {scale} (0: the default 1 / sqrt(D)); inputs {q, k, v,
// (mask)}; attention_backward: {g, q, k, v, (mask)}.

/// Everything the entries compare, in float64: out, lse and (with g) dq, dk, dv.
struct RefAttn {
    std::vector<double> out, lse, dq, dk, dv;
};

/// q, k, v (and mask) are in[first..]; g is in[0] when first == 1.
RefAttn attention_ref(In in, A a, std::size_t first) {
    const ref::Host q = ref::host(in[first]), k = ref::host(in[first + 1]), v = ref::host(in[first + 2]);
    const bool causal = a.ints.at(0) != 0, has_mask = a.ints.at(1) != 0;
    const int r = q.rank();
    const int64_t lq = q.shape[r - 2], d = q.shape[r - 1], lk = k.shape[r - 2], dv = v.shape[r - 1];
    const double scale = a.reals.at(0) != 0 ? a.reals[0] : 1 / std::sqrt(static_cast<double>(d));
    int64_t batch = 1;
    for (int i = 0; i + 2 < r; ++i) batch *= q.shape[i];
    // the mask broadcast (right-aligned) to the scores [..., Lq, Lk]
    std::vector<bool> hidden_by_mask;
    if (has_mask) {
        const ref::Host m = ref::host(in[first + 3]);
        Dims full = q.shape;
        full[r - 1] = lk;
        const int mr = m.rank();
        hidden_by_mask.resize(static_cast<std::size_t>(full.numel()));
        for (int64_t flat = 0; flat < full.numel(); ++flat) {
            int64_t rest = flat, off = 0, stride = 1;
            for (int dim = r - 1, md = mr - 1; dim >= 0; --dim, --md) {
                const int64_t c = rest % full[dim];
                rest /= full[dim];
                if (md < 0) continue;
                if (m.shape[md] != 1) off += c * stride;
                stride *= m.shape[md];
            }
            hidden_by_mask[static_cast<std::size_t>(flat)] = m.v[static_cast<std::size_t>(off)] != 0;
        }
    }
    const bool grads = first == 1;
    const ref::Host g = grads ? ref::host(in[0]) : ref::Host{};
    RefAttn out;
    out.out.assign(static_cast<std::size_t>(batch * lq * dv), 0.0);
    out.lse.assign(static_cast<std::size_t>(batch * lq), 0.0);
    if (grads) {
        out.dq.assign(q.v.size(), 0.0);
        out.dk.assign(k.v.size(), 0.0);
        out.dv.assign(v.v.size(), 0.0);
    }
    auto at = [](int64_t i) { return static_cast<std::size_t>(i); };
    const double inf = std::numeric_limits<double>::infinity();
    std::vector<double> s(at(lk)), dp(at(lk));
    for (int64_t b = 0; b < batch; ++b)
        for (int64_t i = 0; i < lq; ++i) {
            const int64_t row = b * lq + i;
            double mx = -inf;
            for (int64_t j = 0; j < lk; ++j) {
                double dot = 0;
                for (int64_t t = 0; t < d; ++t) dot += q.v[at(row * d + t)] * k.v[at((b * lk + j) * d + t)];
                bool hidden = causal && j > i + lk - lq;
                if (has_mask) hidden = hidden || hidden_by_mask[at(row * lk + j)];
                s[at(j)] = hidden ? -inf : dot * scale;
                mx = std::max(mx, s[at(j)]);
            }
            double sum = 0;
            for (auto& x : s) sum += (x = std::exp(x - mx));  // a row of -inf only: NaN, as the kernels
            out.lse[at(row)] = mx + std::log(sum);
            for (auto& x : s) x /= sum;
            for (int64_t t = 0; t < dv; ++t) {
                double acc = 0;
                for (int64_t j = 0; j < lk; ++j) acc += s[at(j)] * v.v[at((b * lk + j) * dv + t)];
                out.out[at(row * dv + t)] = acc;
            }
            if (!grads) continue;
            // ds_j = p_j (g . v_j - g . out); dq = scale sum_j ds_j k_j; dk_j += scale ds_j q; dv_j += p_j g
            double delta = 0;
            for (int64_t t = 0; t < dv; ++t) delta += g.v[at(row * dv + t)] * out.out[at(row * dv + t)];
            for (int64_t j = 0; j < lk; ++j) {
                double gv = 0;
                for (int64_t t = 0; t < dv; ++t) gv += g.v[at(row * dv + t)] * v.v[at((b * lk + j) * dv + t)];
                const double ds = s[at(j)] * (gv - delta) * scale;
                for (int64_t t = 0; t < d; ++t) {
                    out.dq[at(row * d + t)] += ds * k.v[at((b * lk + j) * d + t)];
                    out.dk[at((b * lk + j) * d + t)] += ds * q.v[at(row * d + t)];
                }
                for (int64_t t = 0; t < dv; ++t)
                    out.dv[at((b * lk + j) * dv + t)] += s[at(j)] * g.v[at(row * dv + t)];
            }
        }
    return out;
}

TensorData as_data(const std::vector<double>& v) {
    return ref::make_data(Dims{static_cast<int64_t>(v.size())}, v, DType::f64);
}

TensorData attention_reference(In in, A a) {
    const ref::Host q = ref::host(in[0]), v = ref::host(in[2]);
    Dims shape = q.shape;
    shape[q.rank() - 1] = v.shape[v.rank() - 1];
    return ref::make_data(shape, attention_ref(in, a, 0).out, value_dtype(a.dtype));
}

/// The samples of every entry: q, k, v (and mask), with g first for attention_backward.
std::vector<Sample> attention_samples(const char* name, DType dt, bool with_g) {
    InputGen g{name, dt};
    auto s = [&](Tag tag, Dims q, Dims k, Dims v, bool causal, std::optional<Dims> mask, double scale,
                 std::string desc, Domain dom = Domain::real) {
        std::vector<TensorData> in;
        if (with_g) {
            Dims o = q;
            o[o.rank() - 1] = v.back();
            in.push_back(g(o, dom));
        }
        in.push_back(g(q, dom));
        in.push_back(g(k, dom));
        in.push_back(g(v, dom));
        if (mask) {
            // keep key 0 visible to every query, so that no row is masked whole (NaN)
            TensorData m = g.mask(*mask);
            auto bits = m.to_vec<bool>();
            const int64_t lk = mask->back();
            for (std::size_t i = 0; i < bits.size(); i += static_cast<std::size_t>(lk)) bits[i] = false;
            in.push_back(TensorData(bits, *mask));
        }
        return sample(tag, std::move(in), {causal ? 1 : 0, mask ? 1 : 0}, {scale}, std::move(desc));
    };
    const Domain sm = Domain::small;
    return {s(Tag::basic, {2, 3, 4}, {2, 5, 4}, {2, 5, 3}, false, std::nullopt, 0, "plain, default scale"),
            s(Tag::basic, {1, 2, 4, 8}, {1, 2, 4, 8}, {1, 2, 4, 8}, true, std::nullopt, 0.3, "causal, heads"),
            s(Tag::basic, {2, 3, 4}, {2, 6, 4}, {2, 6, 2}, true, std::nullopt, 0, "causal, Lk > Lq"),
            s(Tag::basic, {2, 2, 3, 4}, {2, 2, 5, 4}, {2, 2, 5, 4}, false, Dims{2, 1, 1, 5}, 0,
              "padding mask [B, 1, 1, Lk]"),
            s(Tag::basic, {1, 2, 4, 4}, {1, 2, 4, 4}, {1, 2, 4, 4}, true, Dims{4, 4}, 0.5, "causal and mask"),
            s(Tag::basic, {3, 1, 6}, {3, 7, 6}, {3, 7, 5}, false, std::nullopt, 0, "one query"),
            // the CUDA tiles: 64 queries x 64 keys, head dims padded to 64 or 128
            s(Tag::basic, {1, 2, 70, 64}, {1, 2, 70, 64}, {1, 2, 70, 64}, true, std::nullopt, 0,
              "causal, D 64, two tiles", sm),
            s(Tag::basic, {2, 1, 40, 128}, {2, 1, 90, 128}, {2, 1, 90, 128}, false, Dims{2, 1, 40, 90}, 0,
              "mask [B, 1, Lq, Lk], D 128, Lq < Lk", sm),
            s(Tag::basic, {1, 2, 100, 40}, {1, 2, 67, 40}, {1, 2, 67, 40}, false, std::nullopt, 0,
              "D 40, Lq > Lk", sm),
            s(Tag::basic, {2, 67, 40}, {2, 100, 40}, {2, 100, 40}, true, std::nullopt, 0,
              "causal, D 40, Lk > Lq", sm),
            s(Tag::basic, {1, 3, 33, 24}, {1, 3, 65, 24}, {1, 3, 65, 16}, false, Dims{65}, 0.2,
              "key mask [Lk], D 24, Dv 16", sm),
            s(Tag::basic, {1, 1, 20, 100}, {1, 1, 20, 100}, {1, 1, 20, 72}, true, std::nullopt, 0,
              "causal, D 100, Dv 72", sm)};
}

/// Tolerances: bf16/f16 run p (and ds) through the tensor cores in 16 bits.
Tol attention_tol(DType d) {
    if (d == DType::f32) return {2e-5, 2e-5};
    if (d == DType::bf16) return {3e-2, 3e-2};
    if (d == DType::f16) return {1e-2, 1e-2};
    return default_tol(d);
}

std::optional<TensorAny> mask_of(V in, A a, std::size_t first) {
    std::optional<TensorAny> mask;
    if (a.ints[1]) mask = in[first + 3];
    return mask;
}

std::optional<double> scale_of(A a) {
    std::optional<double> scale;
    if (a.reals[0] != 0) scale = a.reals[0];
    return scale;
}

void add_attention(std::vector<OpEntry>& db) {
    OpEntry e = entry("attention", {OpId::attention}, kFloat);
    e.samples = [](DType dt) { return attention_samples("attention", dt, false); };
    e.forward = [](V in, A a) {
        return ops::attention(in[0], in[1], in[2], mask_of(in, a, 0), a.ints[0] != 0, scale_of(a));
    };
    e.reference = attention_reference;
    e.tol = attention_tol;
    e.differentiable = true;
    e.grad_inputs = {0, 1, 2};
    const auto t = [](const Device& d, Dims s, DType dt = DType::f32) { return ops::full(s, 1, dt, d); };
    e.bad = {bad("k of another dim", "[attention]",
                 [=](const Device& d) {
                     ops::attention(t(d, {2, 3, 4}), t(d, {2, 3, 5}), t(d, {2, 3, 4}));
                 }),
             bad("v of another length", "[attention]",
                 [=](const Device& d) {
                     ops::attention(t(d, {2, 3, 4}), t(d, {2, 3, 4}), t(d, {2, 2, 4}));
                 }),
             bad("batch dims differ", "[attention]",
                 [=](const Device& d) {
                     ops::attention(t(d, {2, 3, 4}), t(d, {1, 3, 4}), t(d, {1, 3, 4}));
                 }),
             bad("float mask", "[attention]",
                 [=](const Device& d) {
                     ops::attention(t(d, {2, 3, 4}), t(d, {2, 3, 4}), t(d, {2, 3, 4}), t(d, {3, 3}));
                 }),
             bad("mask of the wrong shape", "[attention]",
                 [=](const Device& d) {
                     ops::attention(t(d, {2, 3, 4}), t(d, {2, 3, 4}), t(d, {2, 3, 4}),
                                    t(d, {2, 3}, DType::boolean));
                 }),
             bad("int inputs", "[attention]", [=](const Device& d) {
                 ops::attention(t(d, {2, 3, 4}, DType::i32), t(d, {2, 3, 4}, DType::i32),
                                t(d, {2, 3, 4}, DType::i32));
             })};
    db.push_back(std::move(e));

    // The logsumexp output (f32 for f16/bf16); its gradient is composed by the rule.
    OpEntry l = entry("attention_lse", {OpId::attention}, kFloat);
    l.samples = [](DType dt) { return attention_samples("attention_lse", dt, false); };
    l.forward = [](V in, A a) {
        return ops::attention_lse(in[0], in[1], in[2], mask_of(in, a, 0), a.ints[0] != 0, scale_of(a))[1];
    };
    l.reference = [](In in, A a) {
        const ref::Host q = ref::host(in[0]);
        Dims rows = Dims::filled(q.rank() - 1, 1);
        for (int i = 0; i + 1 < q.rank(); ++i) rows[i] = q.shape[i];
        return ref::make_data(rows, attention_ref(in, a, 0).lse, DType::f64);
    };
    l.out_dtype = [](A a) { return a.dtype == DType::f64 ? DType::f64 : DType::f32; };
    l.tol = [](DType d) { return d == DType::f64 ? default_tol(d) : Tol{1e-4, 1e-4}; };
    l.differentiable = true;
    l.grad_inputs = {0, 1};
    l.bad = {bad("undefined q", "[attention]", [](const Device& d) {
        const TensorAny t = ops::full(Dims{2, 3, 4}, 1, DType::f32, d);
        ops::attention_lse(TensorAny(), t, t);
    })};
    db.push_back(std::move(l));
}

// ---- attention_backward: inputs {g, q, k, v, (mask)}; out and lse from attention itself

void add_attention_backward(std::vector<OpEntry>& db) {
    OpEntry e = entry("attention_backward", {OpId::attention_backward}, kFloat);
    e.samples = [](DType dt) { return attention_samples("attention_backward", dt, true); };
    e.forward = [](V in, A a) {
        std::optional<TensorAny> mask = mask_of(in, a, 1);
        if (mask && mask->rank() < in[1].rank()) {  // the row's mask has the scores' rank
            Dims padded = Dims::filled(in[1].rank() - mask->rank(), 1);
            for (int i = 0; i < mask->rank(); ++i) padded.push_back(mask->shape()[i]);
            mask = ops::reshape(*mask, padded);
        }
        const bool causal = a.ints[0] != 0;
        const double scale = a.reals[0] != 0 ? a.reals[0] : 1 / std::sqrt(double(in[1].shape().back()));
        auto f = ops::attention_lse(in[1], in[2], in[3], mask, causal, scale);
        auto r = ops::attention_backward(in[0], in[1], in[2], in[3], f[0], f[1], mask, causal, scale);
        return ops::cat({flat(r[0]), flat(r[1]), flat(r[2])}, 0);
    };
    e.reference = [](In in, A a) {
        RefAttn r = attention_ref(in, a, 1);
        std::vector<double> v = r.dq;
        v.insert(v.end(), r.dk.begin(), r.dk.end());
        v.insert(v.end(), r.dv.begin(), r.dv.end());
        return as_data(v);
    };
    // gradients sum over the keys: a looser bound for 16-bit inputs
    e.tol = [](DType d) {
        if (d == DType::bf16) return Tol{5e-2, 5e-2};
        if (d == DType::f16) return Tol{2e-2, 2e-2};
        return attention_tol(d);
    };
    const auto t = [](const Device& d, Dims s) { return ops::full(s, 1, DType::f32, d); };
    e.bad = {bad("lse of the wrong shape", "[attention_backward]",
                 [=](const Device& d) {
                     ops::attention_backward(t(d, {2, 3, 4}), t(d, {2, 3, 4}), t(d, {2, 3, 4}),
                                             t(d, {2, 3, 4}), t(d, {2, 3, 4}), t(d, {2, 4}), std::nullopt,
                                             false, 0.5);
                 }),
             bad("gradient of the wrong shape", "[attention_backward]", [=](const Device& d) {
                 ops::attention_backward(t(d, {2, 3, 5}), t(d, {2, 3, 4}), t(d, {2, 3, 4}), t(d, {2, 3, 4}),
                                         t(d, {2, 3, 4}), t(d, {2, 3}), std::nullopt, false, 0.5);
             })};
    db.push_back(std::move(e));
}

}  // namespace

void add_attention_entries(std::vector<OpEntry>& db) {
    add_attention(db);
    add_attention_backward(db);
}

}  // namespace burn::opdb
