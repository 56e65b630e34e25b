// Op-database entries of the convolutions: conv (conv1d/2d/3d), conv_fused, conv_transpose (the
// conv_backward_input row) and conv_backward_weight, each against a naive float64 loop over every output and
// kernel tap. The pools and interpolate are in op_db_pool.cpp (registered from here).
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>

#include "op_db.hpp"
#include "ops/module_ops_internal.hpp"
#include "reference.hpp"

namespace burn::opdb {

void add_pool_entries(std::vector<OpEntry>& db);  // op_db_pool.cpp

namespace {

using V = const std::vector<TensorAny>&;
using In = const std::vector<TensorData>&;
using A = const Args&;

/// The geometry of a sample: args.ints = {s, stride[s], pad_a[s], pad_b[s], dilation[s], groups}, where
/// (pad_a, pad_b) are (begin, end) for conv and (padding, padding_out) for conv_transpose.
struct Geo {
    int s = 2;
    int64_t stride[3], pa[3], pb[3], dil[3], groups;
};

Geo geo_of(const std::vector<int64_t>& ints) {
    Geo g;
    g.s = static_cast<int>(ints[0]);
    int k = 1;
    for (int64_t* a : {g.stride, g.pa, g.pb, g.dil})
        for (int i = 0; i < g.s; ++i) a[i] = ints[static_cast<std::size_t>(k++)];
    g.groups = ints[static_cast<std::size_t>(k)];
    return g;
}

std::vector<int64_t> ints_of(int s, std::vector<int64_t> stride, std::vector<int64_t> pa,
                             std::vector<int64_t> pb, std::vector<int64_t> dil, int64_t groups) {
    std::vector<int64_t> v{s};
    for (const auto& a : {stride, pa, pb, dil}) v.insert(v.end(), a.begin(), a.end());
    v.push_back(groups);
    return v;
}

template <std::size_t N>
ConvOptions<N> conv_options(const Geo& g) {
    ConvOptions<N> o;
    std::array<std::size_t, N> end{};
    bool asym = false;
    for (std::size_t i = 0; i < N; ++i) {
        o.stride[i] = static_cast<std::size_t>(g.stride[i]);
        o.padding[i] = static_cast<std::size_t>(g.pa[i]);
        o.dilation[i] = static_cast<std::size_t>(g.dil[i]);
        end[i] = static_cast<std::size_t>(g.pb[i]);
        asym |= g.pa[i] != g.pb[i];
    }
    o.groups = static_cast<std::size_t>(g.groups);
    if (asym) o.padding_end = end;
    return o;
}

template <std::size_t N>
ConvTransposeOptions<N> transpose_options(const Geo& g) {
    ConvTransposeOptions<N> o;
    for (std::size_t i = 0; i < N; ++i) {
        o.stride[i] = static_cast<std::size_t>(g.stride[i]);
        o.padding[i] = static_cast<std::size_t>(g.pa[i]);
        o.padding_out[i] = static_cast<std::size_t>(g.pb[i]);
        o.dilation[i] = static_cast<std::size_t>(g.dil[i]);
    }
    o.groups = static_cast<std::size_t>(g.groups);
    return o;
}

std::optional<TensorAny> bias_of(V in) {
    return in.size() > 2 ? std::optional<TensorAny>(in[2]) : std::nullopt;
}

TensorAny conv_forward(V in, A a) {
    const Geo g = geo_of(a.ints);
    switch (g.s) {
        case 1:
            return ops::conv1d(in[0], in[1], bias_of(in), conv_options<1>(g));
        case 2:
            return ops::conv2d(in[0], in[1], bias_of(in), conv_options<2>(g));
        default:
            return ops::conv3d(in[0], in[1], bias_of(in), conv_options<3>(g));
    }
}

TensorAny transpose_forward(V in, A a) {
    const Geo g = geo_of(a.ints);
    switch (g.s) {
        case 1:
            return ops::conv_transpose1d(in[0], in[1], bias_of(in), transpose_options<1>(g));
        case 2:
            return ops::conv_transpose2d(in[0], in[1], bias_of(in), transpose_options<2>(g));
        default:
            return ops::conv_transpose3d(in[0], in[1], bias_of(in), transpose_options<3>(g));
    }
}

/// Spatial helpers over up to 3 dims of a [N, C, spatial...] host tensor.
int64_t spatial_numel(const Dims& s) {
    int64_t n = 1;
    for (int i = 2; i < s.rank(); ++i) n *= s[i];
    return n;
}
std::vector<int64_t> spatial_index(int64_t flat, const Dims& s) {
    std::vector<int64_t> idx(static_cast<std::size_t>(s.rank() - 2));
    for (int i = s.rank() - 1; i >= 2; --i) {
        idx[static_cast<std::size_t>(i - 2)] = flat % s[i];
        flat /= s[i];
    }
    return idx;
}
/// Flat offset of (n, c, pos) or -1 when pos lies outside the spatial extent.
int64_t offset_of(const Dims& s, int64_t n, int64_t c, const std::vector<int64_t>& pos) {
    int64_t off = n * s[1] + c;
    for (int i = 2; i < s.rank(); ++i) {
        const int64_t p = pos[static_cast<std::size_t>(i - 2)];
        if (p < 0 || p >= s[i]) return -1;
        off = off * s[i] + p;
    }
    return off;
}

/// Calls f(x_offset, w_offset, y_offset) for every (output position, kernel tap) pair of a convolution
/// x [N, C, in] (*) w [O, C/g, k] -> y [N, O, out] whose input position is inside x.
template <class F>
void conv_taps(const Geo& g, const Dims& xs, const Dims& ws, const Dims& ys, F&& f) {
    const int64_t cg = ws[1], og = ws[0] / g.groups, kn = spatial_numel(ws), on = spatial_numel(ys);
    for (int64_t n = 0; n < ys[0]; ++n)
        for (int64_t o = 0; o < ys[1]; ++o)
            for (int64_t op = 0; op < on; ++op) {
                const auto out = spatial_index(op, ys);
                const int64_t yo = offset_of(ys, n, o, out);
                for (int64_t c = 0; c < cg; ++c)
                    for (int64_t kp = 0; kp < kn; ++kp) {
                        const auto k = spatial_index(kp, ws);
                        std::vector<int64_t> pos(out.size());
                        for (std::size_t i = 0; i < out.size(); ++i)
                            pos[i] = out[i] * g.stride[i] - g.pa[i] + k[i] * g.dil[i];
                        const int64_t xo = offset_of(xs, n, (o / og) * cg + c, pos);
                        if (xo >= 0) f(xo, offset_of(ws, o, c, k), yo);
                    }
            }
}

Dims conv_out_shape(const Geo& g, const Dims& xs, const Dims& ws) {
    Dims ys = xs;
    ys[1] = ws[0];
    for (int i = 0; i < g.s; ++i)
        ys[i + 2] = (xs[i + 2] + g.pa[i] + g.pb[i] - g.dil[i] * (ws[i + 2] - 1) - 1) / g.stride[i] + 1;
    return ys;
}

TensorData conv_reference(In in, A a) {
    const Geo g = geo_of(a.ints);
    ref::Host x = ref::host(in[0]), w = ref::host(in[1]);
    ref::Host y = ref::filled(conv_out_shape(g, x.shape, w.shape), 0.0);
    if (in.size() > 2) {
        ref::Host b = ref::host(in[2]);
        const int64_t per = spatial_numel(y.shape);
        for (int64_t i = 0; i < y.numel(); ++i)
            y.v[static_cast<std::size_t>(i)] = b.v[static_cast<std::size_t>((i / per) % y.shape[1])];
    }
    conv_taps(g, x.shape, w.shape, y.shape, [&](int64_t xo, int64_t wo, int64_t yo) {
        y.v[static_cast<std::size_t>(yo)] +=
            x.v[static_cast<std::size_t>(xo)] * w.v[static_cast<std::size_t>(wo)];
    });
    return ref::to_data(y, value_dtype(a.dtype));
}

/// conv_transpose(x, w) is the adjoint of conv(., w) from the output's shape: scatter x through the taps.
TensorData transpose_reference(In in, A a) {
    Geo g = geo_of(a.ints);
    ref::Host x = ref::host(in[0]), w = ref::host(in[1]);
    Dims ys = x.shape;
    ys[1] = w.shape[1] * g.groups;
    for (int i = 0; i < g.s; ++i)
        ys[i + 2] =
            (x.shape[i + 2] - 1) * g.stride[i] - 2 * g.pa[i] + g.dil[i] * (w.shape[i + 2] - 1) + g.pb[i] + 1;
    ref::Host y = ref::filled(ys, 0.0);
    // The forward conv maps y's shape to x's shape with weight w read as [C_in(out of conv), C_out/g, k].
    conv_taps(g, ys, w.shape, x.shape, [&](int64_t yo, int64_t wo, int64_t xo) {
        y.v[static_cast<std::size_t>(yo)] +=
            x.v[static_cast<std::size_t>(xo)] * w.v[static_cast<std::size_t>(wo)];
    });
    if (in.size() > 2) {
        ref::Host b = ref::host(in[2]);
        const int64_t per = spatial_numel(ys);
        for (int64_t i = 0; i < y.numel(); ++i)
            y.v[static_cast<std::size_t>(i)] += b.v[static_cast<std::size_t>((i / per) % ys[1])];
    }
    return ref::to_data(y, value_dtype(a.dtype));
}

/// conv_backward_weight: args.ints = conv geometry followed by the kernel sizes.
Dims weight_shape(const Geo& g, const std::vector<int64_t>& ints, const Dims& xs, const Dims& gs) {
    Dims ws{gs[1], xs[1] / g.groups};
    for (int i = 0; i < g.s; ++i) ws.push_back(ints[ints.size() - static_cast<std::size_t>(g.s - i)]);
    return ws;
}

TensorData weight_grad_reference(In in, A a) {
    const Geo g = geo_of(a.ints);
    ref::Host x = ref::host(in[0]), dy = ref::host(in[1]);
    ref::Host dw = ref::filled(weight_shape(g, a.ints, x.shape, dy.shape), 0.0);
    conv_taps(g, x.shape, dw.shape, dy.shape, [&](int64_t xo, int64_t wo, int64_t yo) {
        dw.v[static_cast<std::size_t>(wo)] +=
            x.v[static_cast<std::size_t>(xo)] * dy.v[static_cast<std::size_t>(yo)];
    });
    return ref::to_data(dw, value_dtype(a.dtype));
}

Tol conv_tol(DType dt) {
    switch (dt) {
        case DType::f32:
            return {1e-5, 2e-5};
        case DType::f16:
            return {1e-2, 2e-2};
        case DType::bf16:
            return {2e-2, 5e-2};
        default:
            return default_tol(dt);
    }
}

void add_conv(std::vector<OpEntry>& db) {
    OpEntry e = entry("conv", {OpId::conv}, kFloat);
    e.samples = [](DType dt) {
        InputGen g{"conv", dt};
        auto s = [&](Tag t, Dims x, Dims w, bool bias, std::vector<int64_t> ints, std::string desc) {
            std::vector<TensorData> in{g(x, Domain::small), g(w, Domain::small)};
            if (bias) in.push_back(g(Dims{w[0]}, Domain::small));
            return sample(t, std::move(in), std::move(ints), {}, std::move(desc));
        };
        return std::vector<Sample>{
            s(Tag::basic, {2, 3, 5, 5}, {4, 3, 3, 3}, true, ints_of(2, {1, 1}, {1, 1}, {1, 1}, {1, 1}, 1),
              "3x3 pad 1"),
            s(Tag::basic, {1, 2, 7, 6}, {3, 2, 3, 2}, true, ints_of(2, {2, 3}, {0, 1}, {0, 1}, {1, 1}, 1),
              "stride 2x3"),
            s(Tag::basic, {1, 2, 7, 7}, {2, 2, 3, 3}, false, ints_of(2, {1, 1}, {2, 1}, {2, 1}, {2, 3}, 1),
              "dilation 2x3, no bias"),
            s(Tag::basic, {2, 4, 5, 4}, {6, 2, 2, 3}, true, ints_of(2, {1, 2}, {1, 0}, {1, 0}, {1, 1}, 2),
              "groups 2"),
            s(Tag::basic, {1, 4, 4, 4}, {4, 1, 3, 3}, true, ints_of(2, {1, 1}, {1, 1}, {1, 1}, {1, 1}, 4),
              "depthwise"),
            s(Tag::basic, {2, 3, 7, 6}, {6, 1, 3, 3}, true, ints_of(2, {2, 1}, {1, 2}, {0, 1}, {2, 1}, 3),
              "depthwise, 2 outputs per channel, stride, dilation, asymmetric padding"),
            s(Tag::basic, {2, 3, 4, 5}, {5, 3, 1, 1}, true, ints_of(2, {1, 1}, {0, 0}, {0, 0}, {1, 1}, 1),
              "1x1"),
            s(Tag::basic, {3, 4, 3, 2}, {2, 4, 1, 1}, false, ints_of(2, {1, 1}, {0, 0}, {0, 0}, {1, 1}, 1),
              "1x1, no bias"),
            s(Tag::basic, {1, 2, 5, 5}, {3, 2, 2, 2}, true, ints_of(2, {1, 1}, {0, 1}, {1, 0}, {1, 1}, 1),
              "asymmetric padding"),
            s(Tag::basic, {2, 3, 9}, {4, 3, 3}, true, ints_of(1, {2}, {1}, {1}, {1}, 1), "1-D stride 2"),
            s(Tag::basic, {1, 2, 4, 4, 5}, {3, 2, 2, 3, 2}, true,
              ints_of(3, {1, 2, 1}, {1, 0, 1}, {1, 0, 1}, {1, 1, 2}, 1), "3-D"),
            s(Tag::empty, {0, 3, 4, 4}, {2, 3, 3, 3}, true, ints_of(2, {1, 1}, {0, 0}, {0, 0}, {1, 1}, 1),
              "no images"),
            s(Tag::scalar, {1, 1, 1, 1}, {1, 1, 1, 1}, true, ints_of(2, {1, 1}, {0, 0}, {0, 0}, {1, 1}, 1),
              "1x1x1x1")};
    };
    e.forward = conv_forward;
    e.reference = conv_reference;
    e.tol = conv_tol;
    e.differentiable = true;
    e.grad_inputs = {0, 1, 2};
    const auto x4 = [](const Device& d, Dims s, DType dt = DType::f32) { return ops::full(s, 1, dt, d); };
    e.bad = {
        bad("input of rank 3 for conv2d", "[conv2d]",
            [=](const Device& d) {
                ops::conv2d(x4(d, {3, 4, 4}), x4(d, {2, 3, 3, 3}), std::nullopt, {});
            }),
        bad("channel mismatch", "[conv2d]",
            [=](const Device& d) {
                ops::conv2d(x4(d, {1, 4, 5, 5}), x4(d, {2, 3, 3, 3}), std::nullopt, {});
            }),
        bad("groups not dividing the channels", "[conv2d]",
            [=](const Device& d) {
                ConvOptions<2> o;
                o.groups = 2;
                ops::conv2d(x4(d, {1, 3, 5, 5}), x4(d, {2, 1, 3, 3}), std::nullopt, o);
            }),
        bad("kernel larger than the input", "[conv2d]",
            [=](const Device& d) {
                ops::conv2d(x4(d, {1, 1, 2, 2}), x4(d, {1, 1, 3, 3}), std::nullopt, {});
            }),
        bad("stride 0", "[conv1d]",
            [=](const Device& d) {
                ConvOptions<1> o;
                o.stride = {0};
                ops::conv1d(x4(d, {1, 1, 5}), x4(d, {1, 1, 3}), std::nullopt, o);
            }),
        bad("bias of the wrong size", "[conv3d]",
            [=](const Device& d) {
                ops::conv3d(x4(d, {1, 1, 3, 3, 3}), x4(d, {2, 1, 1, 1, 1}), x4(d, {3}), {});
            }),
        bad("int input", "[conv2d]",
            [=](const Device& d) {
                ops::conv2d(x4(d, {1, 1, 3, 3}, DType::i32), x4(d, {1, 1, 1, 1}), std::nullopt, {});
            }),
        bad("dtype mismatch", "[conv2d]",
            [=](const Device& d) {
                ops::conv2d(x4(d, {1, 1, 3, 3}, DType::f64), x4(d, {1, 1, 1, 1}), std::nullopt, {});
            }),
        bad("undefined weight", "[conv2d]",
            [=](const Device& d) {
                ops::conv2d(x4(d, {1, 1, 3, 3}), TensorAny(), std::nullopt, {});
            }),
    };
    db.push_back(std::move(e));
}

void add_conv_transpose(std::vector<OpEntry>& db) {
    OpEntry e = entry("conv_transpose", {OpId::conv_backward_input}, kFloat);
    e.samples = [](DType dt) {
        InputGen g{"conv_transpose", dt};
        auto s = [&](Tag t, Dims x, Dims w, bool bias, std::vector<int64_t> ints, std::string desc) {
            std::vector<TensorData> in{g(x, Domain::small), g(w, Domain::small)};
            if (bias) in.push_back(g(Dims{w[1] * ints.back()}, Domain::small));
            return sample(t, std::move(in), std::move(ints), {}, std::move(desc));
        };
        return std::vector<Sample>{
            s(Tag::basic, {2, 3, 4, 4}, {3, 2, 3, 3}, true, ints_of(2, {1, 1}, {1, 1}, {0, 0}, {1, 1}, 1),
              "3x3 pad 1"),
            s(Tag::basic, {1, 2, 3, 4}, {2, 3, 3, 2}, true, ints_of(2, {2, 3}, {1, 0}, {1, 2}, {1, 1}, 1),
              "stride 2x3, padding_out 1x2"),
            s(Tag::basic, {1, 4, 3, 3}, {4, 1, 2, 3}, false, ints_of(2, {2, 1}, {0, 1}, {0, 0}, {2, 1}, 2),
              "groups 2, dilation 2"),
            s(Tag::basic, {2, 2, 5}, {2, 3, 4}, true, ints_of(1, {3}, {1}, {2}, {1}, 1), "1-D"),
            s(Tag::basic, {1, 2, 2, 3, 2}, {2, 2, 2, 2, 3}, true,
              ints_of(3, {2, 1, 2}, {0, 1, 1}, {1, 0, 0}, {1, 1, 1}, 1), "3-D"),
            s(Tag::basic, {9, 4, 3, 3}, {4, 1, 3, 3}, true, ints_of(2, {1, 1}, {1, 1}, {0, 0}, {1, 1}, 2),
              "9 images, groups 2 (images batched per GEMM)"),
            s(Tag::empty, {0, 2, 3, 3}, {2, 2, 3, 3}, true, ints_of(2, {1, 1}, {0, 0}, {0, 0}, {1, 1}, 1),
              "no images"),
            s(Tag::scalar, {1, 1, 1, 1}, {1, 1, 1, 1}, false, ints_of(2, {1, 1}, {0, 0}, {0, 0}, {1, 1}, 1),
              "1x1x1x1")};
    };
    e.forward = transpose_forward;
    e.reference = transpose_reference;
    e.tol = conv_tol;
    e.differentiable = true;
    e.grad_inputs = {0, 1, 2};
    const auto x4 = [](const Device& d, Dims s) { return ops::full(s, 1, DType::f32, d); };
    e.bad = {
        bad("channel mismatch", "[conv_transpose2d]",
            [=](const Device& d) {
                ops::conv_transpose2d(x4(d, {1, 3, 4, 4}), x4(d, {2, 2, 3, 3}), std::nullopt, {});
            }),
        bad("padding_out not below the stride", "[conv_transpose1d]",
            [=](const Device& d) {
                ConvTransposeOptions<1> o;
                o.stride = {2};
                o.padding_out = {2};
                ops::conv_transpose1d(x4(d, {1, 1, 4}), x4(d, {1, 1, 3}), std::nullopt, o);
            }),
        bad("input of rank 4 for conv_transpose1d", "[conv_transpose1d]",
            [=](const Device& d) {
                ops::conv_transpose1d(x4(d, {1, 1, 4, 4}), x4(d, {1, 1, 3}), std::nullopt, {});
            }),
        bad("padding larger than the output", "[conv_transpose2d]",
            [=](const Device& d) {
                ConvTransposeOptions<2> o;
                o.padding = {3, 3};
                ops::conv_transpose2d(x4(d, {1, 1, 2, 2}), x4(d, {1, 1, 3, 3}), std::nullopt, o);
            }),
    };
    db.push_back(std::move(e));
}

void add_conv_backward_weight(std::vector<OpEntry>& db) {
    OpEntry e = entry("conv_backward_weight", {OpId::conv_backward_weight}, kFloat);
    e.samples = [](DType dt) {
        InputGen g{"conv_backward_weight", dt};
        auto s = [&](Tag t, Dims x, Dims w, std::vector<int64_t> ints, std::string desc) {
            const Geo geo = geo_of(ints);
            for (int i = 0; i < geo.s; ++i) ints.push_back(w[i + 2]);
            Dims y = conv_out_shape(geo, x, w);
            return sample(t, {g(x, Domain::small), g(y, Domain::small)}, std::move(ints), {},
                          std::move(desc));
        };
        return std::vector<Sample>{
            s(Tag::basic, {2, 3, 5, 5}, {4, 3, 3, 3}, ints_of(2, {1, 1}, {1, 1}, {1, 1}, {1, 1}, 1),
              "3x3 pad 1"),
            s(Tag::basic, {3, 4, 6, 5}, {6, 2, 2, 3}, ints_of(2, {2, 1}, {1, 0}, {0, 1}, {1, 2}, 2),
              "groups 2, stride, dilation, asymmetric padding"),
            s(Tag::basic, {2, 3, 4, 4}, {5, 3, 1, 1}, ints_of(2, {1, 1}, {0, 0}, {0, 0}, {1, 1}, 1), "1x1"),
            s(Tag::basic, {2, 1, 4, 4}, {8, 1, 2, 2}, ints_of(2, {1, 1}, {0, 0}, {0, 0}, {1, 1}, 1),
              "more outputs than rows"),
            s(Tag::basic, {2, 40, 4, 4}, {2, 40, 1, 1}, ints_of(2, {1, 1}, {0, 0}, {0, 0}, {1, 1}, 1),
              "1x1, more rows than outputs"),
            s(Tag::basic, {2, 2, 7}, {3, 2, 3}, ints_of(1, {2}, {1}, {1}, {1}, 1), "1-D"),
            s(Tag::basic, {1, 1, 3, 4, 3}, {2, 1, 2, 2, 2},
              ints_of(3, {1, 1, 1}, {0, 1, 0}, {0, 1, 0}, {1, 1, 1}, 1), "3-D"),
            s(Tag::empty, {0, 2, 3, 3}, {2, 2, 3, 3}, ints_of(2, {1, 1}, {0, 0}, {0, 0}, {1, 1}, 1),
              "no images"),
            s(Tag::scalar, {1, 1, 1, 1}, {1, 1, 1, 1}, ints_of(2, {1, 1}, {0, 0}, {0, 0}, {1, 1}, 1),
              "1x1x1x1")};
    };
    e.forward = [](V in, A a) {
        const Geo g = geo_of(a.ints);
        attrs::Conv spec;
        spec.spatial = g.s;
        for (int i = 0; i < g.s; ++i) {
            spec.stride[i] = g.stride[i];
            spec.pad_begin[i] = g.pa[i];
            spec.pad_end[i] = g.pb[i];
            spec.dilation[i] = g.dil[i];
        }
        spec.groups = g.groups;
        return ops::detail::conv_backward_weight(in[0], in[1], spec,
                                                 weight_shape(g, a.ints, in[0].shape(), in[1].shape()));
    };
    e.reference = weight_grad_reference;
    e.tol = conv_tol;
    e.differentiable = true;
    e.grad_inputs = {0, 1};
    e.bad = {
        bad("batch mismatch", "[conv_backward_weight]",
            [](const Device& d) {
                attrs::Conv spec;
                ops::detail::conv_backward_weight(ops::full({2, 1, 4, 4}, 1, DType::f32, d),
                                                  ops::full({3, 1, 2, 2}, 1, DType::f32, d), spec,
                                                  Dims{1, 1, 3, 3});
            }),
        bad("int input", "[conv_backward_weight]",
            [](const Device& d) {
                attrs::Conv spec;
                ops::detail::conv_backward_weight(ops::full({1, 1, 4, 4}, 1, DType::i32, d),
                                                  ops::full({1, 1, 2, 2}, 1, DType::f32, d), spec,
                                                  Dims{1, 1, 3, 3});
            }),
    };
    db.push_back(std::move(e));
}

// conv_fused: ints = conv's, then {has bias, has residual}; reals = {lo, hi}.
TensorAny conv_fused_forward(V in, A a) {
    const std::vector<int64_t> conv_ints(a.ints.begin(), a.ints.end() - 2);
    const Geo g = geo_of(conv_ints);
    const bool bias = a.ints[a.ints.size() - 2] != 0, residual = a.ints.back() != 0;
    attrs::Conv spec;
    spec.spatial = g.s;
    for (int i = 0; i < g.s; ++i) {
        const auto k = static_cast<std::size_t>(i);
        spec.stride[k] = g.stride[i], spec.pad_begin[k] = g.pa[i], spec.pad_end[k] = g.pb[i],
        spec.dilation[k] = g.dil[i];
    }
    spec.groups = g.groups;
    return ops::detail::conv_fused(in[0], in[1], bias ? std::optional<TensorAny>(in[2]) : std::nullopt,
                                   residual ? std::optional<TensorAny>(in.back()) : std::nullopt, spec,
                                   conv_out_shape(g, in[0].shape(), in[1].shape()), a.reals[0], a.reals[1]);
}

TensorData conv_fused_reference(In in, A a) {
    const bool residual = a.ints.back() != 0;
    Args conv = a;
    conv.ints.resize(conv.ints.size() - 2);
    conv.dtype = value_dtype(a.dtype);
    const std::vector<TensorData> conv_in(in.begin(), in.end() - (residual ? 1 : 0));
    ref::Host y = ref::host(conv_reference(conv_in, conv));
    const double lo = a.reals[0], hi = a.reals[1];
    for (std::size_t i = 0; i < y.v.size(); ++i) {
        if (residual) y.v[i] += ref::host(in.back()).v[i];
        y.v[i] = std::min(std::max(y.v[i], lo), hi);
    }
    return ref::to_data(y, value_dtype(a.dtype));
}

void add_conv_fused(std::vector<OpEntry>& db) {
    OpEntry e = entry("conv_fused", {OpId::conv_fused}, kFloat);
    e.samples = [](DType dt) {
        InputGen g{"conv_fused", dt};
        const double inf = std::numeric_limits<double>::infinity();
        auto s = [&](Dims x, Dims w, bool bias, bool residual, Dims y, std::vector<int64_t> ints, double lo,
                     double hi, std::string desc) {
            std::vector<TensorData> in{g(x, Domain::small), g(w, Domain::small)};
            if (bias) in.push_back(g(Dims{w[0]}, Domain::small));
            if (residual) in.push_back(g(y, Domain::small));
            ints.insert(ints.end(), {bias, residual});
            return sample(Tag::basic, std::move(in), std::move(ints), {lo, hi}, std::move(desc));
        };
        return std::vector<Sample>{
            s({2, 3, 5, 5}, {4, 3, 3, 3}, true, false, {}, ints_of(2, {1, 1}, {1, 1}, {1, 1}, {1, 1}, 1), 0,
              inf, "3x3 + ReLU"),
            s({2, 4, 5, 5}, {4, 4, 1, 1}, true, true, {2, 4, 5, 5},
              ints_of(2, {1, 1}, {0, 0}, {0, 0}, {1, 1}, 1), 0, inf, "1x1 + residual + ReLU"),
            s({1, 4, 6, 6}, {4, 1, 3, 3}, true, false, {}, ints_of(2, {2, 2}, {1, 1}, {1, 1}, {1, 1}, 4),
              -0.2, 0.3, "depthwise stride 2 + clip"),
            s({2, 3, 6, 5}, {5, 3, 3, 2}, false, true, {2, 5, 4, 4},
              ints_of(2, {1, 1}, {0, 0}, {0, 0}, {1, 1}, 1), -inf, inf, "no bias, residual only"),
            s({2, 3, 9}, {4, 3, 3}, true, true, {2, 4, 5}, ints_of(1, {2}, {1}, {1}, {1}, 1), -inf, 0.1,
              "1-D, upper bound only")};
    };
    e.forward = conv_fused_forward;
    e.reference = conv_fused_reference;
    e.tol = conv_tol;
    e.differentiable = true;
    e.grad_inputs = {0, 1, 2, 3};
    const auto t = [](const Device& d, Dims s) { return ops::full(s, 1, DType::f32, d); };
    e.bad = {bad("residual of the wrong shape", "[conv_fused]",
                 [=](const Device& d) {
                     ops::detail::conv_fused(t(d, {1, 2, 4, 4}), t(d, {3, 2, 3, 3}), std::nullopt,
                                             t(d, {1, 3, 4, 4}), attrs::Conv{}, Dims{1, 3, 2, 2}, 0, 6);
                 }),
             bad("bounds out of order", "[conv_fused]", [=](const Device& d) {
                 ops::detail::conv_fused(t(d, {1, 2, 4, 4}), t(d, {3, 2, 3, 3}), std::nullopt, std::nullopt,
                                         attrs::Conv{}, Dims{1, 3, 2, 2}, 1, 0);
             })};
    db.push_back(std::move(e));
}

}  // namespace

void add_conv_entries(std::vector<OpEntry>& db) {
    add_conv(db);
    add_conv_fused(db);
    add_conv_transpose(db);
    add_conv_backward_weight(db);
    add_pool_entries(db);
}

}  // namespace burn::opdb
