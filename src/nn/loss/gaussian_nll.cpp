// Gaussian negative log-likelihood with PyTorch's non-differentiated clamp of the variance.
#include "burn/nn/loss/gaussian_nll.hpp"

#include <cmath>
#include <limits>
#include <numbers>

namespace burn::nn::loss {

using namespace ops;

GaussianNllLoss GaussianNllLossConfig::init() const {
    BURN_CHECK(eps > 0.0, "[GaussianNllLossConfig] eps must be positive, got ", eps);
    return GaussianNllLoss{full, eps};
}

TensorAny GaussianNllLoss::forward_any(const TensorAny& input, const TensorAny& target,
                                       const TensorAny& var) const {
    detail::check_pair(input, target, "GaussianNllLoss");
    BURN_CHECK(var.defined(), "[GaussianNllLoss] got an undefined var");
    BURN_CHECK_KIND(is_float(var.dtype()), dtype, "[GaussianNllLoss] var must be Float, got ", var.dtype());
    bool ok = var.rank() == input.rank();
    for (int d = 0; ok && d < var.rank(); ++d)
        ok = var.shape()[d] == input.shape()[d] || (d + 1 == var.rank() && var.shape()[d] == 1);
    BURN_CHECK_KIND(ok, shape, "[GaussianNllLoss] var ", var.shape(), " does not fit input ", input.shape(),
                    "; give var the input's shape, or the input's shape with a last dim of 1");
    BURN_CHECK(var.numel() == 0 || into_data(ops::any(lower_elem(detach(var), 0.0))).value_as_double(0) == 0,
               "[GaussianNllLoss] var has negative entries; pass variances (>= 0), e.g. softplus of a "
               "network output");
    // max(var, eps) forward, identity backward: var + detach(clamp(var) - var).
    TensorAny v = add(var, detach(sub(clamp(var, eps, std::numeric_limits<double>::infinity()), var)));
    TensorAny loss = mul_scalar(add(log(v), div(square(sub(input, target)), v)), 0.5);
    if (full) loss = add_scalar(std::move(loss), 0.5 * std::log(2.0 * std::numbers::pi));
    return loss;
}

}  // namespace burn::nn::loss
