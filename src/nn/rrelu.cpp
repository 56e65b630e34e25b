// RReLU: per-element random slopes for the negative part on autodiff (training) devices, the mean
// slope elsewhere.
#include "burn/nn/rrelu.hpp"

#include "nn/activation_common.hpp"

namespace burn::nn {

RRelu RReluConfig::init() const {
    BURN_CHECK(lower <= upper, "[RReluConfig] lower ", lower, " is above upper ", upper,
               "; the slopes are drawn from U(lower, upper)");
    return RRelu{lower, upper};
}

TensorAny RRelu::forward_any(const TensorAny& x) const {
    activation::any::detail::check_float(x, "RRelu");
    BURN_CHECK(lower <= upper, "[RRelu] lower ", lower, " is above upper ", upper);
    if (!x.device().is_autodiff() || lower == upper) return ops::leaky_relu(x, 0.5 * (lower + upper));
    // The slopes are constants of the graph: the gradient is the slope where x < 0, 1 elsewhere
    // (PyTorch's RReLU in training).
    TensorAny slope = ops::random(x.shape(), Distribution::Uniform(lower, upper), x.dtype(), x.device());
    return ops::where(ops::lower_elem(x, 0.0), ops::mul(x, std::move(slope)), x);
}

}  // namespace burn::nn
