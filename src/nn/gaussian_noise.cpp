// Gaussian noise: x + N(0, std^2) on autodiff (training) devices, x elsewhere.
#include "burn/nn/gaussian_noise.hpp"

#include <cmath>

namespace burn::nn {

GaussianNoise GaussianNoiseConfig::init() const {
    BURN_CHECK(std >= 0.0 && std::isfinite(std),
               "[GaussianNoiseConfig] std must be finite and non-negative, got ", std);
    return GaussianNoise{std};
}

TensorAny GaussianNoise::forward_any(const TensorAny& input) const {
    BURN_CHECK(input.defined(), "[GaussianNoise] got an undefined tensor");
    BURN_CHECK_KIND(is_float(input.dtype()), dtype, "[GaussianNoise] needs a Float tensor, got ",
                    input.dtype(), " ", input.shape());
    BURN_CHECK(std >= 0.0 && std::isfinite(std), "[GaussianNoise] std must be finite and non-negative, got ",
               std);
    if (std == 0.0 || !input.device().is_autodiff()) return input;
    return ops::add(
        input, ops::random(input.shape(), Distribution::Normal(0.0, std), input.dtype(), input.device()));
}

}  // namespace burn::nn
