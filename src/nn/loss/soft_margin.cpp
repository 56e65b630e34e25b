// Soft margin loss: softplus(-y x), the stable form of log(1 + exp(-y x)).
#include "burn/nn/loss/soft_margin.hpp"

#include "nn/loss/target_check.hpp"

namespace burn::nn::loss {

using namespace ops;

TensorAny SoftMarginLoss::forward_any(const TensorAny& x, const TensorAny& y) const {
    TensorAny yf = detail::float_target(x, y, "SoftMarginLoss");
    // threshold 20 is the linear branch past which softplus equals its argument to f32 precision; use
    // a larger one so that f64 inputs keep log1p(exp(.)) exactly as PyTorch computes it.
    return softplus(neg(mul(std::move(yf), x)), 1.0, 50.0);
}

}  // namespace burn::nn::loss
