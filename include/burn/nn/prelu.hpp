#pragma once
/// PReLU: the leaky ReLU with a learnable slope (a composite of existing ops, so autodiff needs no
/// new rules), as a function and as the module PRelu.
#include "burn/config/config.hpp"
#include "burn/module/module.hpp"
#include "burn/nn/activation.hpp"

namespace burn::activation {

namespace any {
/// alpha [1] or [channels], applied along dim 1 of x (PyTorch's PReLU). Defined in src/nn/prelu.cpp.
TensorAny prelu(const TensorAny& x, const TensorAny& alpha);
}  // namespace any

/// max(0, x) + alpha * min(0, x); alpha [1] or [channels] (applied along dim 1).
template <std::size_t D>
Tensor<D> prelu(const Tensor<D>& x, const Tensor<1>& alpha) {
    return Tensor<D>(any::prelu(x.handle(), alpha.handle()));
}

}  // namespace burn::activation

namespace burn::nn {

/// PReLU with a learnable slope: one shared (num_parameters = 1) or one per channel (dim 1).
/// PyTorch's weight [num_parameters] is alpha here.
struct PRelu {
    Param<Tensor<1>> alpha;  // [num_parameters]

    template <std::size_t D>
    Tensor<D> forward(const Tensor<D>& x) const {
        return activation::prelu(x, alpha.val());
    }
    BURN_MODULE(PRelu, alpha)
};
struct PReluConfig {
    std::size_t num_parameters = 1;
    double alpha = 0.25;
    PRelu init(const Device& device = Device()) const;
    BURN_CONFIG(PReluConfig, num_parameters, alpha)
};

}  // namespace burn::nn
