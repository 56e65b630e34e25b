// Op-database entries of the pools and interpolate: max_pool2d (values, indices, backward), avg_pool2d,
// adaptive_avg_pool2d and interpolate with their backwards. The linear ops share one reference: a list
// of (input position, weight) terms per output position, applied forwards (y = sum w x) or backwards
// (dx += w g), written from PyTorch's window and coordinate rules.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "op_db.hpp"
#include "ops/module_ops_internal.hpp"
#include "reference.hpp"

namespace burn::opdb {

namespace {

using V = const std::vector<TensorAny>&;
using In = const std::vector<TensorData>&;
using A = const Args&;

struct Term {
    int64_t in;  // h * W + w in the input plane
    double w;
};
/// Terms of output (i, j) of a plane, given input [h, w] and output [oh, ow].
using TermFn =
    std::function<std::vector<Term>(int64_t i, int64_t j, int64_t h, int64_t w, int64_t oh, int64_t ow)>;

/// Forward (y = sum w x) or backward (dx = sum w g) of a linear plane op from its terms.
ref::Host apply_terms(const ref::Host& src, const Dims& out_shape, const TermFn& terms, bool backward) {
    ref::Host out = ref::filled(out_shape, 0.0);
    const Dims& xs = backward ? out_shape : src.shape;
    const Dims& ys = backward ? src.shape : out_shape;
    const int64_t planes = xs[0] * xs[1], h = xs[2], w = xs[3], oh = ys[2], ow = ys[3];
    for (int64_t p = 0; p < planes; ++p)
        for (int64_t i = 0; i < oh; ++i)
            for (int64_t j = 0; j < ow; ++j)
                for (const Term& t : terms(i, j, h, w, oh, ow)) {
                    if (backward)
                        out.v[static_cast<std::size_t>(p * h * w + t.in)] +=
                            t.w * src.v[static_cast<std::size_t>((p * oh + i) * ow + j)];
                    else
                        out.v[static_cast<std::size_t>((p * oh + i) * ow + j)] +=
                            t.w * src.v[static_cast<std::size_t>(p * h * w + t.in)];
                }
    return out;
}

int64_t out_size(int64_t in, int64_t k, int64_t s, int64_t p, int64_t d, bool ceil_mode) {
    const int64_t span = in + 2 * p - d * (k - 1) - 1 + (ceil_mode ? s - 1 : 0);
    int64_t out = span / s + 1;
    if (ceil_mode && (out - 1) * s >= in + p) --out;
    return out;
}

// ---------------------------------------------------------------- max pool
// ints = {kh, kw, sh, sw, ph, pw, dh, dw, ceil_mode}

Dims max_out_shape(const Dims& x, const std::vector<int64_t>& a) {
    return {x[0], x[1], out_size(x[2], a[0], a[2], a[4], a[6], a[8] != 0),
            out_size(x[3], a[1], a[3], a[5], a[7], a[8] != 0)};
}

/// Values and indices by PyTorch's loop: the first maximum wins, a NaN replaces whatever came before.
std::pair<ref::Host, ref::Host> max_pool_reference(const ref::Host& x, const std::vector<int64_t>& a) {
    const Dims ys = max_out_shape(x.shape, a);
    ref::Host v = ref::filled(ys, 0.0), ind = ref::filled(ys, 0.0);
    const int64_t h = x.shape[2], w = x.shape[3];
    for (int64_t p = 0; p < ys[0] * ys[1]; ++p)
        for (int64_t i = 0; i < ys[2]; ++i)
            for (int64_t j = 0; j < ys[3]; ++j) {
                double best = -std::numeric_limits<double>::infinity();
                int64_t at = -1;
                for (int64_t u = 0; u < a[0]; ++u)
                    for (int64_t q = 0; q < a[1]; ++q) {
                        const int64_t hh = i * a[2] - a[4] + u * a[6], ww = j * a[3] - a[5] + q * a[7];
                        if (hh < 0 || hh >= h || ww < 0 || ww >= w) continue;
                        const double val = x.v[static_cast<std::size_t>(p * h * w + hh * w + ww)];
                        if (at < 0 || val > best || std::isnan(val)) {
                            best = val;
                            at = hh * w + ww;
                        }
                    }
                const auto o = static_cast<std::size_t>((p * ys[2] + i) * ys[3] + j);
                v.v[o] = best;
                ind.v[o] = static_cast<double>(at);
            }
    return {v, ind};
}

TensorAny max_forward(V in, A a, bool indices) {
    auto r = ops::max_pool2d_with_indices(
        in[0], {static_cast<std::size_t>(a.ints[0]), static_cast<std::size_t>(a.ints[1])},
        {static_cast<std::size_t>(a.ints[2]), static_cast<std::size_t>(a.ints[3])},
        {static_cast<std::size_t>(a.ints[4]), static_cast<std::size_t>(a.ints[5])},
        {static_cast<std::size_t>(a.ints[6]), static_cast<std::size_t>(a.ints[7])}, a.ints[8] != 0);
    return indices ? r.second : r.first;
}

std::vector<Sample> max_samples(const std::string& name, DType dt, Domain dom) {
    InputGen g{name, dt};
    auto s = [&](Tag t, Dims x, std::vector<int64_t> ints, std::string desc) {
        return sample(t, {g(x, dom)}, std::move(ints), {}, std::move(desc));
    };
    std::vector<Sample> v{
        s(Tag::basic, {2, 3, 6, 6}, {2, 2, 2, 2, 0, 0, 1, 1, 0}, "2x2 stride 2"),
        s(Tag::basic, {1, 2, 7, 5}, {3, 3, 2, 2, 1, 1, 1, 1, 0}, "3x3 stride 2 pad 1"),
        s(Tag::basic, {1, 2, 7, 7}, {3, 2, 1, 2, 1, 0, 2, 3, 0}, "dilation 2x3"),
        s(Tag::basic, {2, 1, 5, 6}, {2, 3, 2, 2, 1, 1, 1, 1, 1}, "ceil_mode"),
        s(Tag::basic, {1, 3, 1, 9}, {1, 3, 1, 2, 0, 1, 1, 1, 0}, "one row (max_pool1d's path)"),
        s(Tag::empty, {0, 2, 4, 4}, {2, 2, 2, 2, 0, 0, 1, 1, 0}, "no images"),
        s(Tag::scalar, {1, 1, 1, 1}, {1, 1, 1, 1, 0, 0, 1, 1, 0}, "1x1")};
    const double nan = std::numeric_limits<double>::quiet_NaN();
    v.push_back(sample(Tag::special, {data_of({1, 1, 2, 4}, {1, nan, 3, 2, 5, 0, nan, nan}, dt)},
                       {2, 2, 2, 2, 0, 0, 1, 1, 0}, {}, "NaN wins"));
    return v;
}

std::vector<BadCase> pool_bad(const std::string& name, const std::function<void(TensorAny, int)>& run) {
    const std::string e = "[" + name + "]";
    return {bad("input of rank 3", e,
                [run](const Device& d) {
                    run(ops::full({2, 3, 4}, 1, DType::f32, d), 0);
                }),
            bad("int input", e,
                [run](const Device& d) {
                    run(ops::full({1, 1, 4, 4}, 1, DType::i32, d), 0);
                }),
            bad("kernel size 0", e,
                [run](const Device& d) {
                    run(ops::full({1, 1, 4, 4}, 1, DType::f32, d), 1);
                }),
            bad("padding above half the kernel", e,
                [run](const Device& d) {
                    run(ops::full({1, 1, 4, 4}, 1, DType::f32, d), 2);
                }),
            bad("window larger than the input", e, [run](const Device& d) {
                run(ops::full({1, 1, 2, 2}, 1, DType::f32, d), 3);
            })};
}

/// kernel, padding for the bad cases: 0 fine, 1 kernel 0, 2 padding 2 for kernel 2, 3 kernel 3 on 2x2.
std::array<std::size_t, 2> bad_kernel(int k) {
    return k == 1   ? std::array<std::size_t, 2>{0, 2}
           : k == 3 ? std::array<std::size_t, 2>{3, 3}
                    : std::array<std::size_t, 2>{2, 2};
}
std::array<std::size_t, 2> bad_pad(int k) {
    return k == 2 ? std::array<std::size_t, 2>{2, 0} : std::array<std::size_t, 2>{0, 0};
}

void add_max_pool(std::vector<OpEntry>& db) {
    for (bool indices : {false, true}) {
        const std::string name = indices ? "max_pool2d_indices" : "max_pool2d";
        OpEntry e = entry(name, {OpId::max_pool2d}, kFloat);
        const Domain dom = indices ? Domain::ties : Domain::real;
        e.samples = [name, dom](DType dt) { return max_samples(name, dt, dom); };
        e.forward = [indices](V in, A a) { return max_forward(in, a, indices); };
        e.reference = [indices](In in, A a) {
            auto [v, i] = max_pool_reference(ref::host(in[0]), a.ints);
            return indices ? ref::to_data(i, DType::i32) : ref::to_data(v, value_dtype(a.dtype));
        };
        if (indices) e.out_dtype = [](A) { return DType::i32; };
        e.differentiable = !indices;
        if (!indices) e.grad_inputs = {0};
        e.bad = pool_bad("max_pool2d_with_indices", [](TensorAny x, int k) {
            ops::max_pool2d_with_indices(x, bad_kernel(k), {1, 1}, bad_pad(k));
        });
        for (auto& b : e.bad) b.expect += "|[max_pool2d]";
        db.push_back(std::move(e));
    }
    OpEntry e = entry("max_pool2d_backward", {OpId::max_pool2d_backward}, kFloat);
    e.samples = [](DType dt) {
        InputGen g{"max_pool2d_backward", dt};
        auto s = [&](Tag t, Dims x, Dims y, std::string desc) {
            return sample(t, {g(y, Domain::small), g.index(y, x[2] * x[3])}, {x[2], x[3]}, {},
                          std::move(desc));
        };
        return std::vector<Sample>{s(Tag::basic, {2, 3, 4, 4}, {2, 3, 2, 2}, "2x2"),
                                   s(Tag::basic, {1, 2, 5, 3}, {1, 2, 4, 3}, "overlapping windows"),
                                   s(Tag::empty, {0, 2, 4, 4}, {0, 2, 2, 2}, "no images"),
                                   s(Tag::scalar, {1, 1, 1, 1}, {1, 1, 1, 1}, "1x1")};
    };
    e.forward = [](V in, A a) {
        return ops::detail::max_pool2d_backward(
            in[0], in[1],
            attrs::MaxPool2dBackward{std::nullopt,
                                     Dims{in[0].shape()[0], in[0].shape()[1], a.ints[0], a.ints[1]}});
    };
    e.reference = [](In in, A a) {
        ref::Host gy = ref::host(in[0]), ind = ref::host(in[1]);
        const Dims& s = gy.shape;
        ref::Host dx = ref::filled(Dims{s[0], s[1], a.ints[0], a.ints[1]}, 0.0);
        const int64_t plane = a.ints[0] * a.ints[1], oplane = s[2] * s[3];
        for (int64_t i = 0; i < gy.numel(); ++i)
            dx.v[static_cast<std::size_t>((i / oplane) * plane +
                                          static_cast<int64_t>(ind.v[static_cast<std::size_t>(i)]))] +=
                gy.v[static_cast<std::size_t>(i)];
        return ref::to_data(dx, value_dtype(a.dtype));
    };
    e.differentiable = true;
    e.grad_inputs = {0};
    e.bad = {bad("float indices", "[max_pool2d_backward]",
                 [](const Device& d) {
                     auto g = ops::full({1, 1, 2, 2}, 1, DType::f32, d);
                     ops::detail::max_pool2d_backward(
                         g, g, attrs::MaxPool2dBackward{std::nullopt, Dims{1, 1, 4, 4}});
                 }),
             bad("indices of another shape", "[max_pool2d_backward]", [](const Device& d) {
                 ops::detail::max_pool2d_backward(ops::full({1, 1, 2, 2}, 1, DType::f32, d),
                                                  ops::full({1, 1, 2, 3}, 0, DType::i32, d),
                                                  attrs::MaxPool2dBackward{std::nullopt, Dims{1, 1, 4, 4}});
             })};
    db.push_back(std::move(e));
}

// ---------------------------------------------------------------- linear plane ops

/// avg_pool2d terms; a = {kh, kw, sh, sw, ph, pw, count_include_pad, ceil_mode}.
TermFn avg_terms(std::vector<int64_t> a) {
    return [a](int64_t i, int64_t j, int64_t h, int64_t w, int64_t, int64_t) {
        int64_t h0 = i * a[2] - a[4], w0 = j * a[3] - a[5];
        int64_t h1 = std::min(h0 + a[0], h + a[4]), w1 = std::min(w0 + a[1], w + a[5]);
        const double padded = static_cast<double>((h1 - h0) * (w1 - w0));
        h0 = std::max<int64_t>(h0, 0);
        w0 = std::max<int64_t>(w0, 0);
        h1 = std::min(h1, h);
        w1 = std::min(w1, w);
        const double divisor = a[6] ? padded : static_cast<double>((h1 - h0) * (w1 - w0));
        std::vector<Term> t;
        for (int64_t u = h0; u < h1; ++u)
            for (int64_t q = w0; q < w1; ++q) t.push_back({u * w + q, 1.0 / divisor});
        return t;
    };
}

TermFn adaptive_terms() {
    return [](int64_t i, int64_t j, int64_t h, int64_t w, int64_t oh, int64_t ow) {
        const int64_t h0 =
            static_cast<int64_t>(std::floor(static_cast<double>(i * h) / static_cast<double>(oh)));
        const int64_t h1 =
            static_cast<int64_t>(std::ceil(static_cast<double>((i + 1) * h) / static_cast<double>(oh)));
        const int64_t w0 =
            static_cast<int64_t>(std::floor(static_cast<double>(j * w) / static_cast<double>(ow)));
        const int64_t w1 =
            static_cast<int64_t>(std::ceil(static_cast<double>((j + 1) * w) / static_cast<double>(ow)));
        std::vector<Term> t;
        const double n = static_cast<double>((h1 - h0) * (w1 - w0));
        for (int64_t u = h0; u < h1; ++u)
            for (int64_t q = w0; q < w1; ++q) t.push_back({u * w + q, 1.0 / n});
        return t;
    };
}

/// One axis of interpolate: (input index, weight) taps of output o. mode 0 nearest, 1 bilinear, 2 bicubic,
/// 3 nearest-exact (the input pixel whose centre is nearest the output pixel's centre).
std::vector<std::pair<int64_t, double>> axis_taps(int mode, bool align, int64_t o, int64_t in, int64_t out) {
    if (mode == 0 || mode == 3) {
        const float scale = static_cast<float>(in) / static_cast<float>(out);
        const float src = (static_cast<float>(o) + (mode == 3 ? 0.5f : 0.0f)) * scale;
        return {{std::min(static_cast<int64_t>(std::floor(src)), in - 1), 1.0}};
    }
    const double scale = align ? (out > 1 ? static_cast<double>(in - 1) / static_cast<double>(out - 1) : 0.0)
                               : static_cast<double>(in) / static_cast<double>(out);
    double src = align ? scale * static_cast<double>(o) : scale * (static_cast<double>(o) + 0.5) - 0.5;
    if (mode == 1) {
        src = std::max(src, 0.0);
        const int64_t i0 = std::min(static_cast<int64_t>(std::floor(src)), in - 1);
        const int64_t i1 = std::min(i0 + 1, in - 1);
        const double l = std::min(src - static_cast<double>(i0), 1.0);
        return {{i0, 1 - l}, {i1, l}};
    }
    const int64_t i0 = static_cast<int64_t>(std::floor(src));
    const double t = src - static_cast<double>(i0), A = -0.75;
    auto near = [A](double x) { return ((A + 2) * x - (A + 3)) * x * x + 1; };       // |x| <= 1
    auto far = [A](double x) { return ((A * x - 5 * A) * x + 8 * A) * x - 4 * A; };  // 1 < |x| < 2
    const double w[4] = {far(t + 1), near(t), near(1 - t), far(2 - t)};
    std::vector<std::pair<int64_t, double>> taps;
    for (int k = 0; k < 4; ++k) taps.push_back({std::min(std::max<int64_t>(i0 - 1 + k, 0), in - 1), w[k]});
    return taps;
}

TermFn interp_terms(int mode, bool align) {
    return [mode, align](int64_t i, int64_t j, int64_t h, int64_t w, int64_t oh, int64_t ow) {
        std::vector<Term> t;
        for (auto [hi, hw] : axis_taps(mode, align, i, h, oh))
            for (auto [wi, ww] : axis_taps(mode, align, j, w, ow)) t.push_back({hi * w + wi, hw * ww});
        return t;
    };
}

/// A forward/backward entry pair of a linear plane op. `out_of(x_shape, ints)` gives the output shape,
/// `terms(ints)` the terms; the backward entry takes ints + {H, W} and the gradient as input.
struct LinearSpec {
    std::string name;
    OpId fwd, bwd;
    std::function<Dims(const Dims&, const std::vector<int64_t>&)> out_of;
    std::function<TermFn(const std::vector<int64_t>&)> terms;
    std::function<TensorAny(TensorAny, const std::vector<int64_t>&)> forward;
    std::function<TensorAny(TensorAny, const std::vector<int64_t>&, const Dims&)> backward;
    std::vector<std::pair<Dims, std::vector<int64_t>>> cases;  // (x shape, ints); first is the scalar-like
    std::vector<BadCase> bad, bad_backward;
};

/// f32 sums of a few terms with cancellation (bicubic weights are negative at the ends).
Tol linear_tol(DType dt) {
    return dt == DType::f32 ? Tol{1e-5, 1e-5} : default_tol(dt);
}

void add_linear(std::vector<OpEntry>& db, const LinearSpec& spec) {
    OpEntry f = entry(spec.name, {spec.fwd}, kFloat);
    f.samples = [spec](DType dt) {
        InputGen g{spec.name, dt};
        std::vector<Sample> v;
        for (std::size_t i = 0; i < spec.cases.size(); ++i)
            v.push_back(sample(i == 0                        ? Tag::scalar
                               : spec.cases[i].first[0] == 0 ? Tag::empty
                                                             : Tag::basic,
                               {g(spec.cases[i].first, Domain::real)}, spec.cases[i].second));
        return v;
    };
    f.forward = [spec](V in, A a) { return spec.forward(in[0], a.ints); };
    f.reference = [spec](In in, A a) {
        ref::Host x = ref::host(in[0]);
        return ref::to_data(apply_terms(x, spec.out_of(x.shape, a.ints), spec.terms(a.ints), false),
                            value_dtype(a.dtype));
    };
    f.tol = linear_tol;
    f.differentiable = true;
    f.grad_inputs = {0};
    f.bad = spec.bad;
    db.push_back(std::move(f));

    const std::string bname = spec.name + "_backward";
    OpEntry b = entry(bname, {spec.bwd}, kFloat);
    b.samples = [spec, bname](DType dt) {
        InputGen g{bname, dt};
        std::vector<Sample> v;
        for (std::size_t i = 0; i < spec.cases.size(); ++i) {
            const Dims& xs = spec.cases[i].first;
            std::vector<int64_t> ints = spec.cases[i].second;
            ints.push_back(xs[2]);
            ints.push_back(xs[3]);
            v.push_back(sample(i == 0       ? Tag::scalar
                               : xs[0] == 0 ? Tag::empty
                                            : Tag::basic,
                               {g(spec.out_of(xs, spec.cases[i].second), Domain::real)}, ints));
        }
        return v;
    };
    auto split = [](const std::vector<int64_t>& ints) {
        return std::vector<int64_t>(ints.begin(), ints.end() - 2);
    };
    b.forward = [spec, split](V in, A a) {
        const Dims& s = in[0].shape();
        return spec.backward(in[0], split(a.ints),
                             Dims{s[0], s[1], a.ints[a.ints.size() - 2], a.ints.back()});
    };
    b.reference = [spec, split](In in, A a) {
        ref::Host gy = ref::host(in[0]);
        const Dims xs{gy.shape[0], gy.shape[1], a.ints[a.ints.size() - 2], a.ints.back()};
        return ref::to_data(apply_terms(gy, xs, spec.terms(split(a.ints)), true), value_dtype(a.dtype));
    };
    b.tol = linear_tol;
    b.differentiable = true;
    b.grad_inputs = {0};
    b.bad = spec.bad_backward;
    db.push_back(std::move(b));
}

std::array<std::size_t, 2> pair_of(int64_t a, int64_t b) {
    return {static_cast<std::size_t>(a), static_cast<std::size_t>(b)};
}

BadCase bad_backward_shape(const std::string& name, std::function<void(TensorAny, const Dims&)> run) {
    return bad("input shape of another batch", "[" + name + "]", [run](const Device& d) {
        run(ops::full({1, 2, 2, 2}, 1, DType::f32, d), Dims{2, 2, 4, 4});
    });
}

void add_linear_entries(std::vector<OpEntry>& db) {
    LinearSpec avg;
    avg.name = "avg_pool2d";
    avg.fwd = OpId::avg_pool2d;
    avg.bwd = OpId::avg_pool2d_backward;
    avg.out_of = [](const Dims& x, const std::vector<int64_t>& a) {
        return Dims{x[0], x[1], out_size(x[2], a[0], a[2], a[4], 1, a[7] != 0),
                    out_size(x[3], a[1], a[3], a[5], 1, a[7] != 0)};
    };
    avg.terms = [](const std::vector<int64_t>& a) { return avg_terms(a); };
    avg.forward = [](TensorAny x, const std::vector<int64_t>& a) {
        return ops::avg_pool2d(x, pair_of(a[0], a[1]), pair_of(a[2], a[3]), pair_of(a[4], a[5]), a[6] != 0,
                               a[7] != 0);
    };
    avg.backward = [](TensorAny g, const std::vector<int64_t>& a, const Dims& xs) {
        return ops::detail::avg_pool2d_backward(
            g, attrs::AvgPool2d{{a[0], a[1]}, {a[2], a[3]}, {a[4], a[5]}, {a[4], a[5]}, a[6] != 0, xs});
    };
    avg.cases = {{{1, 1, 1, 1}, {1, 1, 1, 1, 0, 0, 1, 0}}, {{2, 3, 6, 6}, {2, 2, 2, 2, 0, 0, 1, 0}},
                 {{1, 2, 5, 7}, {3, 3, 2, 2, 1, 1, 1, 0}}, {{1, 2, 5, 7}, {3, 2, 2, 1, 1, 1, 0, 0}},
                 {{2, 1, 5, 6}, {2, 3, 2, 2, 1, 1, 1, 1}}, {{1, 1, 6, 5}, {3, 3, 2, 2, 1, 0, 0, 1}},
                 {{0, 2, 4, 4}, {2, 2, 2, 2, 0, 0, 1, 0}}};
    avg.bad = pool_bad("avg_pool2d", [](TensorAny x, int k) {
        ops::avg_pool2d(x, bad_kernel(k), {1, 1}, bad_pad(k));
    });
    avg.bad_backward = {bad_backward_shape("avg_pool2d_backward", [](TensorAny g, const Dims& xs) {
        ops::detail::avg_pool2d_backward(g, attrs::AvgPool2d{{2, 2}, {2, 2}, {0, 0}, {0, 0}, true, xs});
    })};
    add_linear(db, avg);

    LinearSpec ad;
    ad.name = "adaptive_avg_pool2d";
    ad.fwd = OpId::adaptive_avg_pool2d;
    ad.bwd = OpId::adaptive_avg_pool2d_backward;
    ad.out_of = [](const Dims& x, const std::vector<int64_t>& a) { return Dims{x[0], x[1], a[0], a[1]}; };
    ad.terms = [](const std::vector<int64_t>&) { return adaptive_terms(); };
    ad.forward = [](TensorAny x, const std::vector<int64_t>& a) {
        return ops::adaptive_avg_pool2d(x, pair_of(a[0], a[1]));
    };
    ad.backward = [](TensorAny g, const std::vector<int64_t>&, const Dims& xs) {
        return ops::detail::adaptive_avg_pool2d_backward(g, xs);
    };
    ad.cases = {{{1, 1, 1, 1}, {1, 1}}, {{2, 3, 6, 6}, {3, 2}}, {{1, 2, 5, 7}, {3, 4}},
                {{1, 2, 3, 4}, {5, 7}}, {{2, 1, 7, 5}, {1, 1}}, {{0, 2, 4, 4}, {2, 2}}};
    ad.bad = {bad("output size 0", "[adaptive_avg_pool2d]",
                  [](const Device& d) {
                      ops::adaptive_avg_pool2d(ops::full({1, 1, 4, 4}, 1, DType::f32, d), {0, 2});
                  }),
              bad("input of rank 3", "[adaptive_avg_pool2d]",
                  [](const Device& d) {
                      ops::adaptive_avg_pool2d(ops::full({1, 4, 4}, 1, DType::f32, d), {2, 2});
                  }),
              bad("empty spatial input", "[adaptive_avg_pool2d]", [](const Device& d) {
                  ops::adaptive_avg_pool2d(ops::full({1, 1, 0, 4}, 1, DType::f32, d), {2, 2});
              })};
    ad.bad_backward = {bad_backward_shape("adaptive_avg_pool2d_backward", [](TensorAny g, const Dims& xs) {
        ops::detail::adaptive_avg_pool2d_backward(g, xs);
    })};
    add_linear(db, ad);

    LinearSpec in;
    in.name = "interpolate";
    in.fwd = OpId::interpolate;
    in.bwd = OpId::interpolate_backward;
    in.out_of = [](const Dims& x, const std::vector<int64_t>& a) { return Dims{x[0], x[1], a[0], a[1]}; };
    in.terms = [](const std::vector<int64_t>& a) { return interp_terms(static_cast<int>(a[2]), a[3] != 0); };
    in.forward = [](TensorAny x, const std::vector<int64_t>& a) {
        return ops::interpolate(x, pair_of(a[0], a[1]),
                                InterpolateOptions{static_cast<InterpolateMode>(a[2]), a[3] != 0});
    };
    in.backward = [](TensorAny g, const std::vector<int64_t>& a, const Dims& xs) {
        return ops::detail::interpolate_backward(g, attrs::Interpolate{a[2], a[3] != 0, xs});
    };
    in.cases = {{{1, 1, 1, 1}, {1, 1, 1, 0}}};
    for (int64_t mode = 0; mode < 4; ++mode)
        for (int64_t align = 0; align < 2; ++align) {
            if ((mode == 0 || mode == 3) && align == 1) continue;
            in.cases.push_back({{2, 2, 3, 4}, {7, 5, mode, align}});  // up
            in.cases.push_back({{1, 2, 8, 7}, {3, 4, mode, align}});  // down
            in.cases.push_back({{1, 1, 4, 3}, {8, 6, mode, align}});  // exactly 2x
        }
    in.cases.push_back({{0, 2, 3, 3}, {4, 4, 1, 0}});
    in.bad = {
        bad("output size 0", "[interpolate]",
            [](const Device& d) {
                ops::interpolate(ops::full({1, 1, 4, 4}, 1, DType::f32, d), {0, 2}, InterpolateOptions{});
            }),
        bad("input of rank 3", "[interpolate]", [](const Device& d) {
            ops::interpolate(ops::full({1, 4, 4}, 1, DType::f32, d), {2, 2}, InterpolateOptions{});
        })};
    in.bad_backward = {bad_backward_shape("interpolate_backward", [](TensorAny g, const Dims& xs) {
        ops::detail::interpolate_backward(g, attrs::Interpolate{1, false, xs});
    })};
    add_linear(db, in);
}

/// interpolate1d (a composite over interpolate on [N, C, 1, L]): each lane of the last dim through
/// axis_taps. ints: output length, mode (0 nearest, 1 linear, 2 cubic, 3 nearest-exact), align.
void add_interpolate1d(std::vector<OpEntry>& db) {
    OpEntry e = entry("interpolate1d", {}, kFloat);
    e.samples = [](DType dt) {
        InputGen g{"interpolate1d", dt};
        std::vector<Sample> s;
        for (int64_t mode = 0; mode < 4; ++mode)
            for (int64_t align = 0; align < 2; ++align) {
                if ((mode == 0 || mode == 3) && align == 1) continue;
                s.push_back(sample(Tag::basic, {g({2, 2, 5})}, {8, mode, align}));  // up
                s.push_back(sample(Tag::basic, {g({1, 3, 7})}, {3, mode, align}));  // down
            }
        s.push_back(sample(Tag::scalar, {g({1, 1, 1})}, {1, 1, 0}));
        s.push_back(sample(Tag::empty, {g({0, 2, 4})}, {6, 1, 0}));
        return s;
    };
    e.forward = [](V in, A a) {
        return ops::interpolate1d(
            in[0], static_cast<std::size_t>(a.ints[0]),
            InterpolateOptions{static_cast<InterpolateMode>(a.ints[1]), a.ints[2] != 0});
    };
    e.reference = [](In in, A a) {
        ref::Host x = ref::host(in[0]);
        const int64_t n = x.shape[2], out_len = a.ints[0];
        return out(ref::map_lanes(x, 2, out_len,
                                  [&](const std::vector<double>& l) {
                                      std::vector<double> y(static_cast<std::size_t>(out_len), 0.0);
                                      for (int64_t o = 0; o < out_len; ++o)
                                          for (auto [i, w] : axis_taps(static_cast<int>(a.ints[1]),
                                                                       a.ints[2] != 0, o, n, out_len))
                                              y[static_cast<std::size_t>(o)] +=
                                                  w * l[static_cast<std::size_t>(i)];
                                      return y;
                                  }),
                   in[0].dtype());
    };
    e.bad.push_back(bad("input of rank 4", "[interpolate1d]", [](const Device& d) {
        ops::interpolate1d(ops::full({1, 1, 4, 4}, 1, DType::f32, d), 2, InterpolateOptions{});
    }));
    e.bad.push_back(bad("output length 0", "[interpolate1d]", [](const Device& d) {
        ops::interpolate1d(ops::full({1, 1, 4}, 1, DType::f32, d), 0, InterpolateOptions{});
    }));
    e.differentiable = true;
    e.grad_inputs = {0};
    db.push_back(std::move(e));
}

}  // namespace

void add_pool_entries(std::vector<OpEntry>& db) {
    add_max_pool(db);
    add_linear_entries(db);
    add_interpolate1d(db);
}

}  // namespace burn::opdb
