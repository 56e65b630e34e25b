#pragma once
/// The exponential-linear family, composites of existing ops so autodiff needs no new rules: Elu, Selu,
/// Celu. Defaults are PyTorch's.
#include "burn/config/config.hpp"
#include "burn/nn/activation.hpp"

namespace burn::activation {

namespace any {
// Rank-erased forms, defined in src/nn/activation_elu.cpp.
TensorAny elu(const TensorAny& x, double alpha);
TensorAny selu(const TensorAny& x);
TensorAny celu(const TensorAny& x, double alpha);
}  // namespace any

/// x for x > 0, alpha * (exp(x) - 1) otherwise.
template <std::size_t D>
Tensor<D> elu(const Tensor<D>& x, double alpha = 1.0) {
    return Tensor<D>(any::elu(x.handle(), alpha));
}
/// scale * elu(x, alpha) with the self-normalising constants.
template <std::size_t D>
Tensor<D> selu(const Tensor<D>& x) {
    return Tensor<D>(any::selu(x.handle()));
}
/// max(0, x) + min(0, alpha * (exp(x / alpha) - 1))
template <std::size_t D>
Tensor<D> celu(const Tensor<D>& x, double alpha = 1.0) {
    return Tensor<D>(any::celu(x.handle(), alpha));
}

}  // namespace burn::activation

namespace burn::nn {

struct Selu {
    template <std::size_t D>
    Tensor<D> forward(const Tensor<D>& x) const {
        return activation::selu(x);
    }
};

struct Elu {
    double alpha = 1.0;
    template <std::size_t D>
    Tensor<D> forward(const Tensor<D>& x) const {
        return activation::elu(x, alpha);
    }
};
struct EluConfig {
    double alpha = 1.0;
    Elu init() const { return {alpha}; }
    BURN_CONFIG(EluConfig, alpha)
};

struct Celu {
    double alpha = 1.0;
    template <std::size_t D>
    Tensor<D> forward(const Tensor<D>& x) const {
        return activation::celu(x, alpha);
    }
};
struct CeluConfig {
    double alpha = 1.0;
    Celu init() const;  // checks alpha != 0
    BURN_CONFIG(CeluConfig, alpha)
};

}  // namespace burn::nn
