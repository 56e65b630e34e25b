// Composite module functions (burn's burn::tensor::module, no rows of their own): embedding (a select
// of rows) and batch_norm / batch_norm_train (per-channel elementwise ops over [N, C, ...]). nn::Embedding
// and nn::BatchNorm call them, so every device runs them and autodiff differentiates them.
#include "burn/tensor/module_ops.hpp"
#include "ops/common.hpp"

namespace burn::ops {

using namespace detail;

namespace {

/// v [c] seen as [1, c, 1, ...] of the given rank, to broadcast over dim 1.
TensorAny module_fn_channel_view(TensorAny v, int rank) {
    Dims s = Dims::filled(rank, 1);
    s[1] = v.shape()[0];
    return reshape(std::move(v), s);
}

void module_fn_check_input(const TensorAny& x, const char* op) {
    check_defined(x, op);
    check_float(x, op);
    BURN_CHECK_KIND(x.rank() >= 2, shape, "[", op, "] the input must be [batch, channels, ...], got ",
                    describe(x));
}

void module_fn_check_channel(const TensorAny& v, const char* what, const TensorAny& x, const char* op) {
    check_defined(v, op);
    BURN_CHECK_KIND(v.dtype() == x.dtype(), dtype, "[", op, "] ", what, " ", describe(v),
                    " must have the dtype of the input ", describe(x), "; cast it");
    BURN_CHECK_KIND(v.rank() == 1 && v.shape()[0] == x.shape()[1], shape, "[", op, "] ", what, " ",
                    describe(v), " must be [", x.shape()[1], "] (the input's channels) for input ",
                    describe(x));
    BURN_CHECK_KIND(v.device() == x.device(), device, "[", op, "] ", what, " ", describe(v),
                    " is on another device than the input ", describe(x));
}

}  // namespace

TensorAny embedding(TensorAny weights, TensorAny indices) {
    check_defined(weights, "embedding");
    check_defined(indices, "embedding");
    check_float(weights, "embedding");
    BURN_CHECK_KIND(weights.rank() == 2, shape, "[embedding] weights must be [n_embedding, d_model], got ",
                    describe(weights));
    BURN_CHECK_KIND(is_int(indices.dtype()), dtype, "[embedding] indices must be an Int tensor, got ",
                    describe(indices));
    Dims out = indices.shape();
    out.push_back(weights.shape()[1]);
    TensorAny rows = select(std::move(weights), 0, reshape(std::move(indices), Dims{-1}));
    return reshape(std::move(rows), out);
}

TensorAny batch_norm(TensorAny x, TensorAny gamma, TensorAny beta, TensorAny mean, TensorAny variance,
                     double eps) {
    const char* op = "batch_norm";
    module_fn_check_input(x, op);
    module_fn_check_channel(gamma, "gamma", x, op);
    module_fn_check_channel(beta, "beta", x, op);
    module_fn_check_channel(mean, "mean", x, op);
    module_fn_check_channel(variance, "variance", x, op);
    BURN_CHECK(eps >= 0.0, "[batch_norm] eps must be non-negative, got ", eps);
    const int r = x.rank();
    // y = x * scale + shift with scale = gamma / sqrt(var + eps), shift = beta - mean * scale (per channel)
    TensorAny scale = mul(std::move(gamma), recip(sqrt(add_scalar(std::move(variance), eps))));
    TensorAny shift = sub(std::move(beta), mul(std::move(mean), scale));
    return add(mul(std::move(x), module_fn_channel_view(std::move(scale), r)),
               module_fn_channel_view(std::move(shift), r));
}

BatchNormTrainOutput batch_norm_train(TensorAny x, TensorAny gamma, TensorAny beta, double eps) {
    const char* op = "batch_norm_train";
    module_fn_check_input(x, op);
    module_fn_check_channel(gamma, "gamma", x, op);
    module_fn_check_channel(beta, "beta", x, op);
    const int r = x.rank();
    const int64_t c = x.shape()[1];
    // the statistics over every dim but 1: [N, C, ...] -> [C, rest], in f32 for f16 / bf16 inputs (as
    // torch's), then in x's dtype
    const DType dt = x.dtype();
    const bool half = dt == DType::f16 || dt == DType::bf16;
    Dims perm = Dims::filled(r, 0);
    for (int i = 0; i < r; ++i) perm[i] = i == 0 ? 1 : (i == 1 ? 0 : i);
    TensorAny flat = reshape(contiguous(permute(x, perm)), Dims{c, -1});
    if (half) flat = cast(std::move(flat), DType::f32);
    TensorAny m = mean_dim(flat, 1);
    TensorAny v = mean_dim(square(sub(std::move(flat), m)), 1);  // biased
    TensorAny mean = reshape(std::move(m), Dims{c});
    TensorAny var = reshape(std::move(v), Dims{c});
    if (half) {
        mean = cast(std::move(mean), dt);
        var = cast(std::move(var), dt);
    }
    TensorAny out = batch_norm(std::move(x), std::move(gamma), std::move(beta), mean, var, eps);
    return {std::move(out), detach(std::move(mean)), detach(std::move(var))};
}

}  // namespace burn::ops
