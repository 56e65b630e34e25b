// Thresholding activations: a mask of the kept elements times x (plus a constant where Threshold
// replaces), x minus its clamp for SoftShrink, or the shifted x masked for Shrink (which ONNX's Shrink
// node runs), so the gradients are 1 where x passes, 0 elsewhere.
#include "burn/nn/activation_shrink.hpp"

#include "nn/activation_common.hpp"

namespace burn::activation::any {

using detail::check_float;
using namespace ops;

namespace {
/// 1 where x > t, 0 elsewhere, in x's dtype (a constant: no gradient flows through the mask).
TensorAny above(const TensorAny& x, double t) {
    return cast(greater_elem(x, t), x.dtype());
}
}  // namespace

TensorAny shrink(const TensorAny& x, double lambda, double bias) {
    BURN_CHECK(x.defined(), "[shrink] got an undefined tensor");
    // Float, and Int for ONNX's Shrink (the typed activation::shrink is Float, as burn's)
    BURN_CHECK_KIND(is_float(x.dtype()) || is_int(x.dtype()), dtype,
                    "[shrink] needs a Float or Int tensor, got ", x.dtype(), " ", x.shape());
    // x + bias below 0, x - bias above, zeroed where |x| <= lambda (NaN stays NaN, as burn's)
    TensorAny shifted = where(lower_elem(x, 0.0), add_scalar(x, bias), sub_scalar(x, bias));
    return mask_fill(std::move(shifted), lower_equal_elem(abs(x), lambda), 0.0);
}

TensorAny hard_shrink(const TensorAny& x, double lambda) {
    check_float(x, "hard_shrink");
    BURN_CHECK(lambda >= 0.0, "[hard_shrink] lambda must be non-negative, got ", lambda);
    return mul(x, above(abs(x), lambda));
}

TensorAny soft_shrink(const TensorAny& x, double lambda) {
    check_float(x, "soft_shrink");
    BURN_CHECK(lambda >= 0.0, "[soft_shrink] lambda must be non-negative, got ", lambda);
    return sub(x, clamp(x, -lambda, lambda));
}

TensorAny threshold(const TensorAny& x, double threshold, double value) {
    check_float(x, "threshold");
    TensorAny keep = above(x, threshold);
    // x * keep + value * (1 - keep)
    return add(mul(x, keep), mul_scalar(rsub_scalar(keep, 1.0), value));
}

TensorAny thresholded_relu(const TensorAny& x, double alpha) {
    check_float(x, "thresholded_relu");
    return mul(x, above(x, alpha));
}

}  // namespace burn::activation::any

namespace burn::nn {

HardShrink HardShrinkConfig::init() const {
    BURN_CHECK(lambda >= 0.0, "[HardShrinkConfig] lambda must be non-negative, got ", lambda);
    return HardShrink{lambda};
}

SoftShrink SoftShrinkConfig::init() const {
    BURN_CHECK(lambda >= 0.0, "[SoftShrinkConfig] lambda must be non-negative, got ", lambda);
    return SoftShrink{lambda};
}

}  // namespace burn::nn
