// Op-database entry of the attention row (scaled dot-product attention) against a naive float64 loop:
// per query, the scaled scores over the keys, the masks (a Bool mask broadcast to the scores, and the
// causal rule j > i + Lk - Lq) at -inf, a softmax, the weighted sum of the values.
#include <cmath>
#include <limits>
#include <optional>

#include "op_db.hpp"
#include "reference.hpp"

namespace burn::opdb {
namespace {

using V = const std::vector<TensorAny>&;
using In = const std::vector<TensorData>&;
using A = const Args&;

// args.ints = {causal, has_mask}; args.reals = {scale} (0: the default 1 / sqrt(D)); inputs {q, k, v,
// (mask)}.

TensorData attention_reference(In in, A a) {
    const ref::Host q = ref::host(in[0]), k = ref::host(in[1]), v = ref::host(in[2]);
    const bool causal = a.ints.at(0) != 0, has_mask = a.ints.at(1) != 0;
    const int r = q.rank();
    const int64_t lq = q.shape[r - 2], d = q.shape[r - 1], lk = k.shape[r - 2], dv = v.shape[r - 1];
    const double scale = a.reals.at(0) != 0 ? a.reals[0] : 1 / std::sqrt(static_cast<double>(d));
    int64_t batch = 1;
    for (int i = 0; i + 2 < r; ++i) batch *= q.shape[i];
    // the mask broadcast (right-aligned) to the scores [..., Lq, Lk]
    std::vector<bool> hidden_by_mask;
    if (has_mask) {
        const ref::Host m = ref::host(in[3]);
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
    Dims out_shape = q.shape;
    out_shape[r - 1] = dv;
    ref::Host out = ref::filled(out_shape, 0.0);
    const double inf = std::numeric_limits<double>::infinity();
    std::vector<double> s(static_cast<std::size_t>(lk));
    for (int64_t b = 0; b < batch; ++b)
        for (int64_t i = 0; i < lq; ++i) {
            double mx = -inf;
            for (int64_t j = 0; j < lk; ++j) {
                double dot = 0;
                for (int64_t t = 0; t < d; ++t)
                    dot += q.v[static_cast<std::size_t>((b * lq + i) * d + t)] *
                           k.v[static_cast<std::size_t>((b * lk + j) * d + t)];
                bool hidden = causal && j > i + lk - lq;
                if (has_mask)
                    hidden = hidden || hidden_by_mask[static_cast<std::size_t>((b * lq + i) * lk + j)];
                s[static_cast<std::size_t>(j)] = hidden ? -inf : dot * scale;
                mx = std::max(mx, s[static_cast<std::size_t>(j)]);
            }
            double sum = 0;
            for (auto& x : s) sum += (x = std::exp(x - mx));  // a row of -inf only: NaN, as the kernels
            for (int64_t t = 0; t < dv; ++t) {
                double acc = 0;
                for (int64_t j = 0; j < lk; ++j)
                    acc += s[static_cast<std::size_t>(j)] / sum *
                           v.v[static_cast<std::size_t>((b * lk + j) * dv + t)];
                out.v[static_cast<std::size_t>((b * lq + i) * dv + t)] = acc;
            }
        }
    return ref::to_data(out, value_dtype(a.dtype));
}

void add_attention(std::vector<OpEntry>& db) {
    OpEntry e = entry("attention", {OpId::attention}, kFloat);
    e.samples = [](DType dt) {
        InputGen g{"attention", dt};
        auto s = [&](Tag tag, Dims q, Dims k, Dims v, bool causal, std::optional<Dims> mask, double scale,
                     std::string desc) {
            std::vector<TensorData> in{g(q), g(k), g(v)};
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
        return std::vector<Sample>{
            s(Tag::basic, {2, 3, 4}, {2, 5, 4}, {2, 5, 3}, false, std::nullopt, 0, "plain, default scale"),
            s(Tag::basic, {1, 2, 4, 8}, {1, 2, 4, 8}, {1, 2, 4, 8}, true, std::nullopt, 0.3, "causal, heads"),
            s(Tag::basic, {2, 3, 4}, {2, 6, 4}, {2, 6, 2}, true, std::nullopt, 0, "causal, Lk > Lq"),
            s(Tag::basic, {2, 2, 3, 4}, {2, 2, 5, 4}, {2, 2, 5, 4}, false, Dims{2, 1, 1, 5}, 0,
              "padding mask [B, 1, 1, Lk]"),
            s(Tag::basic, {1, 2, 4, 4}, {1, 2, 4, 4}, {1, 2, 4, 4}, true, Dims{4, 4}, 0.5, "causal and mask"),
            s(Tag::basic, {3, 1, 6}, {3, 7, 6}, {3, 7, 5}, false, std::nullopt, 0, "one query")};
    };
    e.forward = [](V in, A a) {
        std::optional<TensorAny> mask;
        if (a.ints[1]) mask = in[3];
        std::optional<double> scale;
        if (a.reals[0] != 0) scale = a.reals[0];
        return ops::attention(in[0], in[1], in[2], mask, a.ints[0] != 0, scale);
    };
    e.reference = attention_reference;
    e.tol = [](DType d) { return d == DType::f32 ? Tol{2e-5, 2e-5} : default_tol(d); };
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
}

}  // namespace

void add_attention_entries(std::vector<OpEntry>& db) {
    add_attention(db);
}

}  // namespace burn::opdb
