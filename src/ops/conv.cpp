// Frontend of the convolutions: conv1d/2d/3d and conv_transpose1d/2d/3d over the ops.def rows conv,
// conv_backward_input (which is also the transposed convolution) and conv_backward_weight.
#include <algorithm>
#include <cmath>

#include "ops/infer.hpp"
#include "ops/module_ops_internal.hpp"

namespace burn::ops {

namespace detail {

namespace {

const char* const kSpatial[3][3] = {
    {"length", "", ""}, {"height", "width", ""}, {"depth", "height", "width"}};

/// "[batch, channels, height, width]" for S spatial dims.
std::string layout_name(int s) {
    std::string out = "[batch, channels";
    for (int i = 0; i < s; ++i) out += std::string(", ") + kSpatial[s - 1][i];
    return out + "]";
}

std::string join_sizes(const int64_t* v, int s) {
    ::burn::detail::Text os;
    for (int i = 0; i < s; ++i) os << (i ? " x " : "") << v[i];
    return os.str();
}

void check_spec(const attrs::Conv& spec, const char* op) {
    for (int i = 0; i < spec.spatial; ++i) {
        BURN_CHECK(spec.stride[i] >= 1, "[", op, "] stride must be at least 1, got ",
                   join_sizes(spec.stride.data(), spec.spatial));
        BURN_CHECK(spec.dilation[i] >= 1, "[", op, "] dilation must be at least 1, got ",
                   join_sizes(spec.dilation.data(), spec.spatial));
        BURN_CHECK(spec.pad_begin[i] >= 0 && spec.pad_end[i] >= 0, "[", op, "] padding must not be negative");
    }
    BURN_CHECK(spec.groups >= 1, "[", op, "] groups must be at least 1, got ", spec.groups);
}

void check_operands(const TensorAny& a, const char* what_a, const TensorAny& w, int s, const char* op) {
    check_float(a, op);
    check_float(w, op);
    BURN_CHECK_KIND(a.dtype() == w.dtype(), dtype, "[", op, "] ", what_a, " ", describe(a), " and weight ",
                    describe(w), " must have the same dtype; cast one of them");
    BURN_CHECK_KIND(a.rank() == s + 2, shape, "[", op, "] ", what_a, " must be ", layout_name(s), " (rank ",
                    s + 2, "), got ", describe(a));
    BURN_CHECK_KIND(w.rank() == s + 2, shape, "[", op, "] weight must have rank ", s + 2, ", got ",
                    describe(w));
}

void check_bias(const std::optional<TensorAny>& b, const TensorAny& x, int64_t out_channels, const char* op) {
    if (!b) return;
    check_float(*b, op);
    BURN_CHECK_KIND(b->dtype() == x.dtype(), dtype, "[", op, "] bias ", describe(*b),
                    " must have the dtype of the input ", describe(x));
    BURN_CHECK_KIND(b->rank() == 1 && b->shape()[0] == out_channels, shape, "[", op, "] bias must be [",
                    out_channels, "] (one value per output channel), got ", describe(*b));
}

/// The row's attributes: spec with output 0's shape.
attrs::Conv with_shape(attrs::Conv spec, const Dims& shape) {
    spec.shape = shape;
    return spec;
}

}  // namespace

int64_t conv_out_size(int64_t in, int64_t k, int64_t stride, int64_t pb, int64_t pe, int64_t dilation) {
    const wide span = wide(in) + pb + pe - wide(dilation) * (k - 1) - 1;
    return span < 0 ? 0 : fit_size(span / stride + 1, "conv", "the output size");
}

TensorAny conv_call(TensorAny x, TensorAny w, std::optional<TensorAny> b, const attrs::Conv& spec,
                    const Dims& out_shape) {
    const char* op = "conv";
    check_spec(spec, op);
    check_operands(x, "input", w, spec.spatial, op);
    const int64_t c_in = x.shape()[1], c_out = w.shape()[0];
    BURN_CHECK_KIND(
        wide(w.shape()[1]) * spec.groups == c_in && c_out % spec.groups == 0, shape, "[", op, "] input ",
        describe(x), " does not fit weight ", describe(w), " with groups = ", spec.groups,
        ": the input needs weight.shape[1] * groups channels, and the output channels must divide by groups");
    BURN_CHECK_KIND(out_shape.rank() == x.rank() && out_shape[0] == x.shape()[0] && out_shape[1] == c_out,
                    shape, "[", op, "] output shape ", out_shape, " does not fit input ", describe(x),
                    " and weight ", describe(w));
    check_bias(b, x, c_out, op);
    if (b) {
        auto c = make(OpId::conv, with_shape(spec, out_shape), metas(x, w, *b));
        return run1(c, take(std::move(x), std::move(w), std::move(*b)));
    }
    auto c = make(OpId::conv, with_shape(spec, out_shape), metas(x, w));
    return run1(c, take(std::move(x), std::move(w)));
}

TensorAny conv_fused(TensorAny x, TensorAny w, std::optional<TensorAny> b, std::optional<TensorAny> residual,
                     const attrs::Conv& spec, const Dims& out_shape, double lo, double hi) {
    const char* op = "conv_fused";
    check_spec(spec, op);
    check_operands(x, "input", w, spec.spatial, op);
    check_bias(b, x, w.shape()[0], op);
    if (residual) check_defined(*residual, op);
    attrs::ConvFused a;
    a.conv = with_shape(spec, out_shape);
    a.residual = residual.has_value();
    a.lo = lo;
    a.hi = hi;
    std::vector<TensorMeta> in{meta(x), meta(w)};
    TensorRefs refs = take(std::move(x), std::move(w));
    for (std::optional<TensorAny>* t : {&b, &residual})
        if (*t) {
            in.push_back(meta(**t));
            refs.push_back(std::move(**t).ref());
        }
    return run1(make(OpId::conv_fused, a, in), std::move(refs));
}

TensorAny conv_backward_input(TensorAny g, TensorAny w, const attrs::Conv& spec, const Dims& x_shape) {
    const char* op = "conv_backward_input";
    check_spec(spec, op);
    check_operands(g, "output gradient", w, spec.spatial, op);
    BURN_CHECK_KIND(x_shape.rank() == g.rank() && x_shape[0] == g.shape()[0] &&
                        g.shape()[1] == w.shape()[0] && x_shape[1] == wide(w.shape()[1]) * spec.groups &&
                        w.shape()[0] % spec.groups == 0,
                    shape, "[", op, "] output gradient ", describe(g), ", weight ", describe(w),
                    " and input shape ", x_shape, " do not fit together (groups = ", spec.groups, ")");
    auto c = make(OpId::conv_backward_input, with_shape(spec, x_shape), metas(g, w));
    return run1(c, take(std::move(g), std::move(w)));
}

TensorAny conv_backward_weight(TensorAny x, TensorAny g, const attrs::Conv& spec, const Dims& w_shape) {
    const char* op = "conv_backward_weight";
    check_spec(spec, op);
    check_operands(x, "input", g, spec.spatial, op);
    BURN_CHECK_KIND(w_shape.rank() == x.rank() && g.shape()[0] == x.shape()[0] &&
                        w_shape[0] == g.shape()[1] && wide(w_shape[1]) * spec.groups == x.shape()[1] &&
                        w_shape[0] % spec.groups == 0,
                    shape, "[", op, "] input ", describe(x), ", output gradient ", describe(g),
                    " and weight shape ", w_shape, " do not fit together (groups = ", spec.groups, ")");
    for (int i = 2; i < w_shape.rank(); ++i)
        BURN_CHECK_KIND(w_shape[i] >= 1, shape, "[", op, "] invalid weight shape ", w_shape);
    auto c = make(OpId::conv_backward_weight, with_shape(spec, w_shape), metas(x, g));
    return run1(c, take(std::move(x), std::move(g)));
}

TensorAny conv_nd(TensorAny x, TensorAny w, std::optional<TensorAny> b, const attrs::Conv& spec,
                  const char* op) {
    check_spec(spec, op);
    check_operands(x, "input", w, spec.spatial, op);
    const int s = spec.spatial;
    const int64_t c_in = x.shape()[1], c_out = w.shape()[0];
    BURN_CHECK_KIND(c_in % spec.groups == 0 && c_out % spec.groups == 0, shape, "[", op,
                    "] groups = ", spec.groups, " must divide the input channels (", c_in,
                    ") and the output channels (", c_out, ")");
    BURN_CHECK_KIND(wide(w.shape()[1]) * spec.groups == c_in, shape, "[", op, "] the input has ", c_in,
                    " channels but the weight ", describe(w), " expects ", w.shape()[1], " x ", spec.groups,
                    " (", w.shape()[1], " per group x ", spec.groups, " groups); input ", describe(x));
    check_bias(b, x, c_out, op);
    Dims out = x.shape();
    out[1] = c_out;
    int64_t k[3], in[3], padded[3];
    for (int i = 0; i < s; ++i) {
        k[i] = w.shape()[i + 2];
        in[i] = x.shape()[i + 2];
        padded[i] = fit_size(wide(in[i]) + spec.pad_begin[i] + spec.pad_end[i], op, "the padded input size");
        BURN_CHECK_KIND(k[i] >= 1, shape, "[", op, "] the weight's kernel dims must be at least 1, got ",
                        describe(w));
        out[i + 2] =
            conv_out_size(in[i], k[i], spec.stride[i], spec.pad_begin[i], spec.pad_end[i], spec.dilation[i]);
    }
    for (int i = 0; i < s; ++i) {
        BURN_CHECK_KIND(wide(spec.dilation[i]) * (k[i] - 1) + 1 <= padded[i], shape, "[", op,
                        "] the kernel (", join_sizes(k, s), ", dilation ",
                        join_sizes(spec.dilation.data(), s), ") is larger than the padded input (",
                        join_sizes(padded, s), "); input ", describe(x));
    }
    return conv_call(std::move(x), std::move(w), std::move(b), spec, out);
}

TensorAny conv_transpose_nd(TensorAny x, TensorAny w, std::optional<TensorAny> b, const attrs::Conv& spec,
                            const int64_t* padding_out, const char* op) {
    check_spec(spec, op);
    check_operands(x, "input", w, spec.spatial, op);
    const int s = spec.spatial;
    const int64_t c_in = x.shape()[1];
    BURN_CHECK_KIND(w.shape()[0] == c_in, shape, "[", op, "] the input has ", c_in,
                    " channels but the weight ", describe(w), " expects ", w.shape()[0],
                    " (weight layout [in, out / groups, k...])");
    BURN_CHECK_KIND(c_in % spec.groups == 0, shape, "[", op, "] groups = ", spec.groups,
                    " must divide the input channels (", c_in, ")");
    const int64_t c_out = mul_size(w.shape()[1], spec.groups, op, "the output channels");
    check_bias(b, x, c_out, op);
    Dims out = x.shape();
    out[1] = c_out;
    for (int i = 0; i < s; ++i) {
        const int64_t k = w.shape()[i + 2];
        BURN_CHECK_KIND(k >= 1, shape, "[", op, "] the weight's kernel dims must be at least 1, got ",
                        describe(w));
        BURN_CHECK(
            padding_out[i] >= 0 && (padding_out[i] < spec.stride[i] || padding_out[i] < spec.dilation[i]),
            "[", op, "] padding_out (", join_sizes(padding_out, s),
            ") must be smaller than the stride or the dilation (stride ", join_sizes(spec.stride.data(), s),
            ")");
        out[i + 2] = fit_size((wide(x.shape()[i + 2]) - 1) * spec.stride[i] - spec.pad_begin[i] -
                                  spec.pad_end[i] + wide(spec.dilation[i]) * (k - 1) + padding_out[i] + 1,
                              op, "the output size");
        BURN_CHECK_KIND(out[i + 2] >= 1 || x.shape()[i + 2] == 0, shape, "[", op,
                        "] the output would have size ", out[i + 2], " in spatial dim ", i, " (input ",
                        describe(x), ", padding ", join_sizes(spec.pad_begin.data(), s),
                        "); reduce the padding");
        out[i + 2] = std::max<int64_t>(out[i + 2], 0);
    }
    TensorAny y = conv_backward_input(std::move(x), std::move(w), spec, out);
    if (!b) return y;
    Dims bshape = Dims::filled(s + 2, 1);
    bshape[1] = c_out;
    return add(std::move(y), reshape(std::move(*b), bshape));
}

}  // namespace detail

namespace {

template <std::size_t N>
attrs::Conv spec_of(const ConvOptions<N>& o) {
    attrs::Conv spec;
    spec.spatial = static_cast<int>(N);
    for (std::size_t i = 0; i < N; ++i) {
        spec.stride[i] = static_cast<int64_t>(o.stride[i]);
        spec.pad_begin[i] = static_cast<int64_t>(o.padding[i]);
        spec.pad_end[i] = static_cast<int64_t>(o.padding_end ? (*o.padding_end)[i] : o.padding[i]);
        spec.dilation[i] = static_cast<int64_t>(o.dilation[i]);
    }
    spec.groups = static_cast<int64_t>(o.groups);
    return spec;
}

template <std::size_t N>
TensorAny transpose(TensorAny x, TensorAny w, std::optional<TensorAny> b, const ConvTransposeOptions<N>& o,
                    const char* op) {
    attrs::Conv spec;
    spec.spatial = static_cast<int>(N);
    int64_t pad_out[3] = {0, 0, 0};
    for (std::size_t i = 0; i < N; ++i) {
        spec.stride[i] = static_cast<int64_t>(o.stride[i]);
        spec.pad_begin[i] = spec.pad_end[i] = static_cast<int64_t>(o.padding[i]);
        spec.dilation[i] = static_cast<int64_t>(o.dilation[i]);
        pad_out[i] = static_cast<int64_t>(o.padding_out[i]);
    }
    spec.groups = static_cast<int64_t>(o.groups);
    return detail::conv_transpose_nd(std::move(x), std::move(w), std::move(b), spec, pad_out, op);
}

}  // namespace

TensorAny conv1d(TensorAny x, TensorAny weight, std::optional<TensorAny> bias,
                 const ConvOptions<1>& options) {
    return detail::conv_nd(std::move(x), std::move(weight), std::move(bias), spec_of(options), "conv1d");
}
TensorAny conv2d(TensorAny x, TensorAny weight, std::optional<TensorAny> bias,
                 const ConvOptions<2>& options) {
    return detail::conv_nd(std::move(x), std::move(weight), std::move(bias), spec_of(options), "conv2d");
}
TensorAny conv3d(TensorAny x, TensorAny weight, std::optional<TensorAny> bias,
                 const ConvOptions<3>& options) {
    return detail::conv_nd(std::move(x), std::move(weight), std::move(bias), spec_of(options), "conv3d");
}
TensorAny conv_transpose1d(TensorAny x, TensorAny weight, std::optional<TensorAny> bias,
                           const ConvTransposeOptions<1>& options) {
    return transpose(std::move(x), std::move(weight), std::move(bias), options, "conv_transpose1d");
}
TensorAny conv_transpose2d(TensorAny x, TensorAny weight, std::optional<TensorAny> bias,
                           const ConvTransposeOptions<2>& options) {
    return transpose(std::move(x), std::move(weight), std::move(bias), options, "conv_transpose2d");
}
TensorAny conv_transpose3d(TensorAny x, TensorAny weight, std::optional<TensorAny> bias,
                           const ConvTransposeOptions<3>& options) {
    return transpose(std::move(x), std::move(weight), std::move(bias), options, "conv_transpose3d");
}

}  // namespace burn::ops

// ---- infer (burn/backend/op_attrs.hpp): the output metas of conv, conv_backward_input, conv_backward_weight

namespace burn::op_infer {

namespace {

attrs::Conv conv_attrs(const OpCall& c, const TensorMeta& a, const TensorMeta& b) {
    const auto v = c.attrs<attrs::Conv>();
    for (int i = 0; i < v.spatial; ++i) {
        const auto k = static_cast<std::size_t>(i);
        BURN_CHECK(v.stride[k] >= 1 && v.dilation[k] >= 1 && v.pad_begin[k] >= 0 && v.pad_end[k] >= 0, "[",
                   c.op, "] stride and dilation must be at least 1 and padding not negative (spatial dim ", i,
                   ")");
    }
    BURN_CHECK(v.groups >= 1, "[", c.op, "] groups must be at least 1, got ", v.groups);
    check_float(c, a);
    check_float(c, b);
    BURN_CHECK_KIND(a.dtype == b.dtype, dtype, "[", c.op, "] operands ", describe(a), " and ", describe(b),
                    " must have the same dtype; cast one of them");
    check_rank(c, a, v.spatial + 2, "each operand");
    check_rank(c, b, v.spatial + 2, "each operand");
    check_extent(c, v.shape, v.spatial + 2, "output shape");
    return v;
}

}  // namespace

Outs infer_conv(const OpCall& c, Metas in) {
    check_arity(c, in, 2, 3);
    const TensorMeta &x = in[0], &w = in[1];
    const auto v = conv_attrs(c, x, w);
    const int64_t c_in = x.shape[1], c_out = w.shape[0];
    BURN_CHECK_KIND(
        wide(w.shape[1]) * v.groups == c_in && c_out % v.groups == 0, shape, "[conv] input ", describe(x),
        " does not fit weight ", describe(w), " with groups = ", v.groups,
        ": the input needs weight.shape[1] * groups channels, and the output channels must divide "
        "by groups");
    BURN_CHECK_KIND(v.shape[0] == x.shape[0] && v.shape[1] == c_out, shape, "[conv] output shape ", v.shape,
                    " does not fit input ", describe(x), " and weight ", describe(w));
    if (in.size() == 3) {
        const TensorMeta& b = in[2];
        BURN_CHECK_KIND(b.dtype == x.dtype, dtype, "[conv] bias ", describe(b),
                        " must have the dtype of the input ", describe(x));
        BURN_CHECK_KIND(b.shape.rank() == 1 && b.shape[0] == c_out, shape, "[conv] bias must be [", c_out,
                        "] (one value per output channel), got ", describe(b));
    }
    return {{x.dtype, v.shape}};
}

Outs infer_conv_fused(const OpCall& c, Metas in) {
    const auto v = c.attrs<attrs::ConvFused>();
    check_arity(c, in, v.residual ? 3 : 2, v.residual ? 4 : 3);
    const Outs y = infer_conv(make_call(OpId::conv, v.conv), in.first(in.size() - (v.residual ? 1 : 0)));
    if (v.residual) {
        const TensorMeta& r = in.back();
        BURN_CHECK_KIND(r.dtype == y[0].dtype && r.shape == y[0].shape, shape, "[conv_fused] residual ",
                        describe(r), " must have the output's dtype and shape ", describe(y[0]));
    }
    BURN_CHECK(!std::isnan(v.lo) && !std::isnan(v.hi) && v.lo <= v.hi, "[conv_fused] clamp bounds [", v.lo,
               ", ", v.hi, "] must be ordered numbers");
    return y;
}

Outs infer_conv_backward_input(const OpCall& c, Metas in) {
    check_arity(c, in, 2, 2);
    const TensorMeta &g = in[0], &w = in[1];
    const auto v = conv_attrs(c, g, w);
    BURN_CHECK_KIND(v.shape[0] == g.shape[0] && g.shape[1] == w.shape[0] &&
                        v.shape[1] == wide(w.shape[1]) * v.groups && w.shape[0] % v.groups == 0,
                    shape, "[conv_backward_input] output gradient ", describe(g), ", weight ", describe(w),
                    " and input shape ", v.shape, " do not fit together (groups = ", v.groups, ")");
    return {{g.dtype, v.shape}};
}

Outs infer_conv_backward_weight(const OpCall& c, Metas in) {
    check_arity(c, in, 2, 2);
    const TensorMeta &x = in[0], &g = in[1];
    const auto v = conv_attrs(c, x, g);
    BURN_CHECK_KIND(g.shape[0] == x.shape[0] && v.shape[0] == g.shape[1] &&
                        wide(v.shape[1]) * v.groups == x.shape[1] && v.shape[0] % v.groups == 0,
                    shape, "[conv_backward_weight] input ", describe(x), ", output gradient ", describe(g),
                    " and weight shape ", v.shape, " do not fit together (groups = ", v.groups, ")");
    for (int i = 2; i < v.shape.rank(); ++i)
        BURN_CHECK_KIND(v.shape[i] >= 1, shape, "[conv_backward_weight] invalid weight shape ", v.shape);
    return {{x.dtype, v.shape}};
}

}  // namespace burn::op_infer
