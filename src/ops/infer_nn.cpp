// infer for the nn and optim rows of ops.def. The module rows take output 0's shape as their `shape`
// attribute (the caller picks any output extent; an adjoint's output is its forward input's shape):
// infer checks it against the inputs' batch and channel dims.
#include <climits>
#include <cmath>

#include "ops/infer.hpp"

namespace burn::op_infer {

namespace {

using wide = __int128;

DType stat_dtype(DType d) {  // fused_stat_dtype: f32 statistics for f16/bf16
    return d == DType::f16 || d == DType::bf16 ? DType::f32 : d;
}

void check_rank(const OpCall& c, const TensorMeta& m, int rank, const char* what) {
    BURN_CHECK_KIND(m.shape.rank() == rank, shape, "[", c.op, "] ", what, " must have rank ", rank, ", got ",
                    describe(m));
}

void check_extent(const OpCall& c, const Dims& shape, int rank, const char* what) {
    BURN_CHECK_KIND(shape.rank() == rank, shape, "[", c.op, "] ", what, " ", shape, " must have rank ", rank);
    for (int64_t d : shape) BURN_CHECK_KIND(d >= 0, shape, "[", c.op, "] invalid ", what, " ", shape);
}

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

/// The 2-D pools' input or gradient: float [N, C, H, W]; shape (the other side's) fits its N and C.
void check_planes(const OpCall& c, const TensorMeta& x, const Dims& shape) {
    check_float(c, x);
    BURN_CHECK_KIND(x.shape.rank() == 4, shape, "[", c.op,
                    "] input must be [batch, channels, height, width] (rank 4), got ", describe(x));
    check_extent(c, shape, 4, "shape");
    BURN_CHECK_KIND(shape[0] == x.shape[0] && shape[1] == x.shape[1], shape, "[", c.op, "] shape ", shape,
                    " does not fit ", describe(x), " (batch and channels must match)");
}

void check_nonempty_planes(const OpCall& c, const Dims& a, const Dims& b) {
    BURN_CHECK_KIND(a[2] >= 1 && a[3] >= 1 && b[2] >= 1 && b[3] >= 1, shape, "[", c.op,
                    "] spatial dims must not be empty: ", a, " and ", b);
}

int64_t lead_rows(const Dims& s) {
    int64_t rows = 1;
    for (int i = 0; i + 1 < s.rank(); ++i) rows *= s[i];
    return rows;
}

void check_param(const OpCall& c, const TensorMeta& p, const char* what, const TensorMeta& x) {
    BURN_CHECK_KIND(p.dtype == x.dtype, dtype, "[", c.op, "] ", what, " ", describe(p),
                    " must have the dtype of the input ", describe(x), "; cast it");
    BURN_CHECK_KIND(p.shape.rank() == 1 && p.shape[0] == x.shape.back(), shape, "[", c.op, "] ", what, " ",
                    describe(p), " must be [", x.shape.back(), "] (the input's last dim) for input ",
                    describe(x));
}

void check_stat(const OpCall& c, const TensorMeta& s, const char* what, int64_t rows, DType dt) {
    BURN_CHECK_KIND(s.dtype == dt, dtype, "[", c.op, "] ", what, " ", describe(s), " must be ", dt);
    BURN_CHECK_KIND(s.shape.rank() == 1 && s.shape[0] == rows, shape, "[", c.op, "] ", what, " ", describe(s),
                    " must be [", rows, "] (one value per row)");
}

void check_rows_input(const OpCall& c, const TensorMeta& x) {
    check_float(c, x);
    BURN_CHECK_KIND(x.shape.rank() >= 1, shape, "[", c.op,
                    "] the input must have at least one dim (normalised over the last), got ", describe(x));
}

/// logits [N, C] (float, C >= 1) and targets (i32 or i64) [N].
void check_logits(const OpCall& c, const TensorMeta& logits, const TensorMeta& targets) {
    check_float(c, logits);
    BURN_CHECK_KIND(logits.shape.rank() == 2, shape, "[", c.op, "] logits must be [batch, classes], got ",
                    describe(logits));
    BURN_CHECK_KIND(targets.dtype == DType::i32 || targets.dtype == DType::i64, dtype, "[", c.op,
                    "] targets must be i32 or i64 (the frontend casts other ints), got ", describe(targets));
    BURN_CHECK_KIND(targets.shape.rank() == 1 && targets.shape[0] == logits.shape[0], shape, "[", c.op,
                    "] targets ", describe(targets), " must be [", logits.shape[0],
                    "] (one class index per row of logits ", describe(logits), ")");
    BURN_CHECK_KIND(logits.shape[1] > 0, shape, "[", c.op, "] logits ", describe(logits),
                    " must have at least one class");
    const double s = c.attrs<attrs::CrossEntropy>().smoothing;
    BURN_CHECK(s >= 0 && s <= 1, "[", c.op, "] label smoothing must be in [0, 1], got ", s);
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

Outs infer_max_pool2d(const OpCall& c, Metas in) {
    check_arity(c, in, 1, 1);
    const auto v = c.attrs<attrs::MaxPool2d>();
    const TensorMeta& x = in[0];
    check_planes(c, x, v.shape);
    BURN_CHECK_KIND(wide(x.shape[2]) * x.shape[3] <= INT32_MAX, shape, "[max_pool2d] the input plane ",
                    x.shape[2], " x ", x.shape[3], " is too large for i32 indices");
    for (std::size_t i = 0; i < 2; ++i)
        BURN_CHECK(v.window.kernel[i] >= 1 && v.window.stride[i] >= 1 && v.window.dilation[i] >= 1 &&
                       v.window.pad[i] >= 0,
                   "[max_pool2d] kernel, stride and dilation must be at least 1 and padding not negative");
    return {{x.dtype, v.shape}, {DType::i32, v.shape}};
}

Outs infer_max_pool2d_backward(const OpCall& c, Metas in) {
    check_arity(c, in, 2, 2);
    const auto v = c.attrs<attrs::MaxPool2dBackward>();
    const TensorMeta &g = in[0], &indices = in[1];
    check_planes(c, g, v.shape);
    check_int(c, indices, "indices");
    BURN_CHECK_KIND(indices.shape == g.shape, shape, "[max_pool2d_backward] indices ", describe(indices),
                    " must have the gradient's shape ", g.shape);
    return {{g.dtype, v.shape}};
}

Outs infer_avg_pool2d(const OpCall& c, Metas in) {
    check_arity(c, in, 1, 1);
    const auto v = c.attrs<attrs::AvgPool2d>();
    check_planes(c, in[0], v.shape);
    for (std::size_t i = 0; i < 2; ++i)
        BURN_CHECK(v.kernel[i] >= 1 && v.stride[i] >= 1 && v.pad_begin[i] >= 0 && v.pad_end[i] >= 0, "[",
                   c.op, "] kernel and stride must be at least 1 and padding not negative");
    return {{in[0].dtype, v.shape}};
}

Outs infer_avg_pool2d_backward(const OpCall& c, Metas in) {
    return infer_avg_pool2d(c, in);
}

Outs infer_adaptive_avg_pool2d(const OpCall& c, Metas in) {
    check_arity(c, in, 1, 1);
    const Dims& shape = c.attrs<attrs::OutShape>().shape;
    check_planes(c, in[0], shape);
    check_nonempty_planes(c, in[0].shape, shape);
    return {{in[0].dtype, shape}};
}

Outs infer_adaptive_avg_pool2d_backward(const OpCall& c, Metas in) {
    return infer_adaptive_avg_pool2d(c, in);
}

Outs infer_interpolate(const OpCall& c, Metas in) {
    check_arity(c, in, 1, 1);
    const auto v = c.attrs<attrs::Interpolate>();
    BURN_CHECK(v.mode >= 0 && v.mode <= 2, "[", c.op, "] unknown interpolate mode ", v.mode,
               " (0 nearest, 1 bilinear, 2 bicubic)");
    check_planes(c, in[0], v.shape);
    check_nonempty_planes(c, in[0].shape, v.shape);
    return {{in[0].dtype, v.shape}};
}

Outs infer_interpolate_backward(const OpCall& c, Metas in) {
    return infer_interpolate(c, in);
}

Outs infer_layer_norm(const OpCall& c, Metas in) {
    const auto v = c.attrs<attrs::LayerNorm>();
    const std::size_t n = 1 + (v.has_gamma ? 1 : 0) + (v.has_beta ? 1 : 0);
    check_arity(c, in, n, n);
    const TensorMeta& x = in[0];
    check_rows_input(c, x);
    if (v.has_gamma) check_param(c, in[1], "gamma", x);
    if (v.has_beta) check_param(c, in[n - 1], "beta", x);
    BURN_CHECK(std::isfinite(v.eps) && v.eps >= 0, "[layer_norm] eps must be finite and >= 0, got ", v.eps);
    const TensorMeta stat{stat_dtype(x.dtype), Dims{lead_rows(x.shape)}};
    return {x, stat, stat};
}

Outs infer_layer_norm_backward(const OpCall& c, Metas in) {
    const auto v = c.attrs<attrs::LayerNormBackward>();
    const std::size_t n = v.has_gamma ? 5 : 4;
    check_arity(c, in, n, n);
    const TensorMeta &g = in[0], &x = in[1];
    check_rows_input(c, x);
    BURN_CHECK_KIND(g.dtype == x.dtype && g.shape == x.shape, shape, "[layer_norm_backward] gradient ",
                    describe(g), " must match the input ", describe(x));
    const int64_t rows = lead_rows(x.shape);
    check_stat(c, in[2], "mean", rows, stat_dtype(x.dtype));
    check_stat(c, in[3], "rstd", rows, stat_dtype(x.dtype));
    if (v.has_gamma) check_param(c, in[4], "gamma", x);
    const TensorMeta param{x.dtype, Dims{v.want_params ? x.shape.back() : 0}};
    return {x, param, param};
}

Outs infer_cross_entropy(const OpCall& c, Metas in) {
    check_arity(c, in, 2, 2);
    const TensorMeta& logits = in[0];
    check_logits(c, logits, in[1]);
    const Dims n{logits.shape[0]};
    return {{logits.dtype, n}, {stat_dtype(logits.dtype), n}};
}

Outs infer_cross_entropy_backward(const OpCall& c, Metas in) {
    check_arity(c, in, 4, 4);
    const TensorMeta &g = in[0], &logits = in[1];
    check_logits(c, logits, in[2]);
    const int64_t n = logits.shape[0];
    BURN_CHECK_KIND(g.dtype == logits.dtype && g.shape.rank() == 1 && g.shape[0] == n, shape, "[", c.op,
                    "] gradient ", describe(g), " must be [", n, "] of the logits' dtype ", logits.dtype);
    check_stat(c, in[3], "lse", n, stat_dtype(logits.dtype));
    return {logits};
}

Outs infer_adam_step(const OpCall& c, Metas in) {
    check_arity(c, in, 5, 5);
    (void)c.attrs<attrs::None>();
    const TensorMeta& param = in[0];
    check_float(c, param, "param");
    const char* names[] = {"param", "grad", "exp_avg", "exp_avg_sq"};
    for (int i = 1; i < 4; ++i) {
        BURN_CHECK_KIND(in[static_cast<std::size_t>(i)] == param, shape, "[adam_step] ", names[i], " is ",
                        describe(in[static_cast<std::size_t>(i)]), " but param is ", describe(param),
                        "; every state has the parameter's dtype and shape");
    }
    BURN_CHECK_KIND(in[4].dtype == DType::f64 && in[4].shape == Dims{6}, shape,
                    "[adam_step] hyper must be f64 [6] {beta_1, beta_2, step_size, eps, decay, l2}, got ",
                    describe(in[4]));
    return {param, param, param};
}

}  // namespace burn::op_infer
