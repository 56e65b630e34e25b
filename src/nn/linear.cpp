#include "burn/nn/linear.hpp"

namespace burn::nn {

Linear LinearConfig::init(const Device& device) const {
    BURN_CHECK(d_input > 0 && d_output > 0, "[LinearConfig] d_input and d_output must be positive, got ",
               d_input, " and ", d_output);
    auto fan_in = static_cast<int64_t>(d_input), fan_out = static_cast<int64_t>(d_output);
    Linear l;
    l.weight = Param<Tensor<2>>(initializer.init<2>({d_output, d_input}, fan_in, fan_out, device));
    if (bias) l.bias = Param<Tensor<1>>(initializer.init<1>({d_output}, fan_in, fan_out, device));
    return l;
}

namespace {

/// The input's leading dims flattened into rows for one GEMM against W^T (a transposed view: no copy),
/// and the output's shape to restore.
struct Rows {
    TensorAny x;
    Dims out_shape;
    TensorAny restore(TensorAny y) const {
        return out_shape.rank() == 2 ? y : ops::reshape(std::move(y), out_shape);
    }
};

Rows rows_of(const TensorAny& w, const TensorAny& input) {
    const int64_t d_in = w.shape()[1], d_out = w.shape()[0];
    BURN_CHECK_KIND(input.rank() >= 1 && input.shape().back() == d_in, shape, "[Linear] input of shape ",
                    input.shape(), " does not end in d_input = ", d_in);
    Dims out_shape = input.shape();
    out_shape[out_shape.rank() - 1] = d_out;
    return {input.rank() == 2 ? input : ops::reshape(input, Dims{-1, d_in}), out_shape};
}

}  // namespace

TensorAny Linear::forward_any(const TensorAny& input) const {
    const TensorAny& w = weight.val().handle();
    Rows r = rows_of(w, input);
    // One op (the row linear): CUDA adds the bias in the GEMM's epilogue; elsewhere matmul then add.
    std::optional<TensorAny> b;
    if (bias) b = bias->val().handle();
    if (lora && !lora->merged) {
        // The low-rank path: scaling * (x A^T) B^T, added to the base layer's output.
        TensorAny low = ops::linear(r.x, lora->lora_a.val().handle(), std::nullopt);
        low = ops::mul_scalar(ops::linear(std::move(low), lora->lora_b.val().handle(), std::nullopt),
                              lora->scaling);
        return r.restore(ops::add(ops::linear(r.x, w, std::move(b)), std::move(low)));
    }
    return r.restore(ops::linear(r.x, w, std::move(b)));
}

TensorAny Linear::forward_in(const TensorAny& input, DType compute, DType out) const {
    if (lora && !lora->merged) {
        TensorAny y = forward_any(input);
        return y.dtype() == out ? y : ops::cast(std::move(y), out);
    }
    auto as = [](TensorAny t, DType d) { return t.dtype() == d ? t : ops::cast(std::move(t), d); };
    const TensorAny& w = weight.val().handle();
    Rows r = rows_of(w, input);
    std::optional<TensorAny> b;
    if (bias) b = as(bias->val().handle(), out);
    return r.restore(ops::linear(as(r.x, compute), as(w, compute), std::move(b), out));
}

}  // namespace burn::nn
