// Decompositions of the convolution rows (conv, conv_backward_input, conv_backward_weight) for 1 to 3
// spatial dims, by kernel tap: tap k reads one strided slice of the zero-padded input, and the
// convolution is the sum over taps of a grouped matmul W[:, :, k] x slice. The adjoints run the same
// taps backwards: the input gradient adds W[:, :, k]^T g into the tap's slice of a padded buffer, the
// weight gradient of tap k is sum_n g x slice^T. Positions past the input read as zero, as in the
// kernels (backends/cpu/conv.cpp); f16/bf16 compute in f32.
#include <algorithm>
#include <cmath>

#include "ops/decompose.hpp"
#include "ops/decompose_prim.hpp"
#include "ops/module_ops_internal.hpp"

namespace burn::ops::detail {

namespace {

using namespace decomp;

/// The spatial sizes shared by the three rows: input X, kernel K, output L (S dims each).
struct Geometry {
    attrs::Conv spec;
    int64_t n = 0, c = 0, o = 0, groups = 1;
    std::vector<int64_t> in, k, out;
    std::vector<int> dims;  // 2, ..., S + 1
    int64_t out_vol = 1, taps = 1;

    Geometry(const attrs::Conv& a, const Dims& x, const Dims& w, const Dims& y)
        : spec(a), n(x[0]), c(x[1]), o(w[0]), groups(spec.groups) {
        for (int i = 0; i < spec.spatial; ++i) {
            in.push_back(x[i + 2]);
            k.push_back(w[i + 2]);
            out.push_back(y[i + 2]);
            dims.push_back(i + 2);
            out_vol *= y[i + 2];
            taps *= w[i + 2];
        }
    }
    /// Whether the result is all zeros (an empty operand or output).
    bool empty() const { return n == 0 || c == 0 || o == 0 || out_vol == 0 || taps == 0; }
    /// The padded extent of spatial dim i: the leading padding, the input, and zeros up to the end
    /// of the last tap's slice.
    int64_t padded(int i) const {
        const auto u = static_cast<std::size_t>(i);
        return std::max(spec.pad_begin[i] + in[u],
                        (out[u] - 1) * spec.stride[i] + (k[u] - 1) * spec.dilation[i] + 1);
    }
    /// Tap t's kernel position (row-major over K).
    std::vector<int64_t> tap(int64_t t) const {
        std::vector<int64_t> kk(k.size());
        for (int i = spec.spatial - 1; i >= 0; --i) {
            const auto u = static_cast<std::size_t>(i);
            kk[u] = t % k[u];
            t /= k[u];
        }
        return kk;
    }
    /// Tap kk's slice of the padded input: start kk * dilation, out positions, step stride.
    std::vector<int64_t> slice_start(const std::vector<int64_t>& kk) const {
        std::vector<int64_t> s;
        for (int i = 0; i < spec.spatial; ++i)
            s.push_back(kk[static_cast<std::size_t>(i)] * spec.dilation[i]);
        return s;
    }
    std::vector<int64_t> strides() const {
        return std::vector<int64_t>(spec.stride.begin(), spec.stride.begin() + spec.spatial);
    }
    std::vector<int64_t> ones() const { return std::vector<int64_t>(k.size(), 1); }
};

/// x zero-padded so that every tap's slice lies inside it.
TensorAny padded_input(const TensorAny& x, const Geometry& g) {
    TensorAny t = x;
    for (int i = 0; i < g.spec.spatial; ++i) {
        const int64_t before = g.spec.pad_begin[i];
        t = pad(t, i + 2, before, g.padded(i) - before - g.in[static_cast<std::size_t>(i)], 0);
    }
    return t;
}

/// Tap kk of the weight [O, C/G, *K] as [1, G, O/G, C/G].
TensorAny weight_tap(const TensorAny& w, const Geometry& g, const std::vector<int64_t>& kk) {
    TensorAny s = strided(w, g.dims, kk, g.ones(), g.ones());
    return reshape(s, Dims{1, g.groups, g.o / g.groups, g.c / g.groups});
}

/// Tap kk's slice of the padded input as [N, G, C/G, L].
TensorAny input_tap(const TensorAny& xp, const Geometry& g, const std::vector<int64_t>& kk) {
    TensorAny s = strided(xp, g.dims, g.slice_start(kk), g.out, g.strides());
    return reshape(s, Dims{g.n, g.groups, g.c / g.groups, g.out_vol});
}

TensorAny swap_last(const TensorAny& t) {
    return permute(t, Dims{0, 1, 3, 2});
}

Outputs conv(const OpCall& c, const Inputs& in) {
    TensorAny x = up(in[0]), w = up(in[1]);
    const Geometry g(c.attrs<attrs::Conv>(), x.shape(), w.shape(), c.shape);
    TensorAny y;
    if (g.empty()) {
        y = full(c.shape, 0, x.dtype(), x.device());
    } else {
        TensorAny xp = padded_input(x, g);
        for (int64_t t = 0; t < g.taps; ++t) {
            const auto kk = g.tap(t);
            TensorAny term = matmul(weight_tap(w, g, kk), input_tap(xp, g, kk));
            y = y.defined() ? add(y, term) : term;
        }
        y = reshape(y, c.shape);
    }
    if (in.size() > 2) {
        Dims bs = Dims::filled(c.shape.rank(), 1);
        bs[1] = g.o;
        y = add(y, reshape(up(in[2]), bs));
    }
    return {down(y, c.dtype)};
}

Outputs conv_backward_input(const OpCall& c, const Inputs& in) {
    TensorAny gy = up(in[0]), w = up(in[1]);
    const Geometry g(c.attrs<attrs::Conv>(), c.shape, w.shape(), gy.shape());
    if (g.empty()) return {full(c.shape, 0, c.dtype, gy.device())};
    Dims ps = c.shape;
    for (int i = 0; i < g.spec.spatial; ++i) ps[i + 2] = g.padded(i);
    TensorAny acc = full(ps, 0, gy.dtype(), gy.device());
    TensorAny gr = reshape(gy, Dims{g.n, g.groups, g.o / g.groups, g.out_vol});
    Dims slice_shape = ps;
    for (int i = 0; i < g.spec.spatial; ++i) slice_shape[i + 2] = g.out[static_cast<std::size_t>(i)];
    for (int64_t t = 0; t < g.taps; ++t) {
        const auto kk = g.tap(t);
        TensorAny d = reshape(matmul(swap_last(weight_tap(w, g, kk)), gr), slice_shape);
        acc = add_strided(acc, g.dims, g.slice_start(kk), g.out, g.strides(), d);
    }
    const std::vector<int64_t> begin(g.spec.pad_begin.begin(), g.spec.pad_begin.begin() + g.spec.spatial);
    return {down(strided(acc, g.dims, begin, g.in, g.ones()), c.dtype)};
}

Outputs conv_backward_weight(const OpCall& c, const Inputs& in) {
    TensorAny x = up(in[0]), gy = up(in[1]);
    const Geometry g(c.attrs<attrs::Conv>(), x.shape(), c.shape, gy.shape());
    if (g.empty()) return {full(c.shape, 0, c.dtype, x.device())};
    TensorAny xp = padded_input(x, g);
    TensorAny gr = reshape(gy, Dims{g.n, g.groups, g.o / g.groups, g.out_vol});
    std::vector<TensorAny> taps;
    for (int64_t t = 0; t < g.taps; ++t) {
        TensorAny dw = sum_dim(matmul(gr, swap_last(input_tap(xp, g, g.tap(t)))), 0);
        taps.push_back(reshape(dw, Dims{g.o, g.c / g.groups, 1}));
    }
    return {down(reshape(cat(taps, 2), c.shape), c.dtype)};
}

// conv_fused: conv's decomposition, then + residual, then clamp's (skipped for infinite bounds).
Outputs conv_fused(const OpCall& c, const Inputs& in) {
    const auto a = c.attrs<attrs::ConvFused>();
    OpCall conv_c = make_call(OpId::conv, a.conv);
    conv_c.dtype = c.dtype;
    TensorAny y = conv(conv_c, Inputs(in.begin(), in.end() - (a.residual ? 1 : 0)))[0];
    if (a.residual) y = add(y, in.back());
    if (!std::isinf(a.lo) || !std::isinf(a.hi)) {
        OpCall clamp_c = make_call(OpId::clamp, attrs::Clamp{a.lo, a.hi});
        clamp_c.dtype = c.dtype;
        clamp_c.shape = c.shape;
        y = decomposition(OpId::clamp)(clamp_c, {y})[0];
    }
    return {y};
}

}  // namespace

void add_conv_decompositions(DecompositionTable& t) {
    t.set(OpId::conv_fused, conv_fused);
    t.set(OpId::conv, conv);
    t.set(OpId::conv_backward_input, conv_backward_input);
    t.set(OpId::conv_backward_weight, conv_backward_weight);
}

}  // namespace burn::ops::detail
