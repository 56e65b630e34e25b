#pragma once
/// Piecewise-linear ("hard") activations, composites of clamp so autodiff needs no new rules: Relu6,
/// HardSigmoid, HardSwish, Hardtanh. Defaults are PyTorch's (HardSigmoid: alpha 1/6, beta 0.5; burn's
/// ONNX-style 0.2 / 0.5 is one with_alpha away).
#include "burn/config/config.hpp"
#include "burn/nn/activation.hpp"

namespace burn::activation {

namespace any {
// Rank-erased forms, defined in src/nn/activation_hard.cpp.
TensorAny relu6(const TensorAny& x);
TensorAny hard_sigmoid(const TensorAny& x, double alpha, double beta);
TensorAny hard_swish(const TensorAny& x);
TensorAny hardtanh(const TensorAny& x, double min, double max);
}  // namespace any

/// min(max(x, 0), 6)
template <std::size_t D>
Tensor<D> relu6(const Tensor<D>& x) {
    return Tensor<D>(any::relu6(x.handle()));
}
/// clamp(alpha * x + beta, 0, 1); PyTorch's Hardsigmoid is alpha = 1/6, beta = 0.5.
template <std::size_t D>
Tensor<D> hard_sigmoid(const Tensor<D>& x, double alpha = 1.0 / 6.0, double beta = 0.5) {
    return Tensor<D>(any::hard_sigmoid(x.handle(), alpha, beta));
}
/// x * relu6(x + 3) / 6
template <std::size_t D>
Tensor<D> hard_swish(const Tensor<D>& x) {
    return Tensor<D>(any::hard_swish(x.handle()));
}
/// clamp(x, min, max)
template <std::size_t D>
Tensor<D> hardtanh(const Tensor<D>& x, double min = -1.0, double max = 1.0) {
    return Tensor<D>(any::hardtanh(x.handle(), min, max));
}

}  // namespace burn::activation

namespace burn::nn {

struct Relu6 {
    template <std::size_t D>
    Tensor<D> forward(const Tensor<D>& x) const {
        return activation::relu6(x);
    }
};
struct HardSwish {
    template <std::size_t D>
    Tensor<D> forward(const Tensor<D>& x) const {
        return activation::hard_swish(x);
    }
};
struct HardSwishConfig {
    HardSwish init() const { return {}; }
    BURN_CONFIG(HardSwishConfig)
};

struct HardSigmoid {
    double alpha = 1.0 / 6.0;
    double beta = 0.5;
    template <std::size_t D>
    Tensor<D> forward(const Tensor<D>& x) const {
        return activation::hard_sigmoid(x, alpha, beta);
    }
};
struct HardSigmoidConfig {
    double alpha = 1.0 / 6.0;
    double beta = 0.5;
    HardSigmoid init() const { return {alpha, beta}; }
    BURN_CONFIG(HardSigmoidConfig, alpha, beta)
};

struct Hardtanh {
    double min_val = -1.0;
    double max_val = 1.0;
    template <std::size_t D>
    Tensor<D> forward(const Tensor<D>& x) const {
        return activation::hardtanh(x, min_val, max_val);
    }
};
struct HardtanhConfig {
    double min_val = -1.0;
    double max_val = 1.0;
    Hardtanh init() const;  // checks min_val <= max_val
    BURN_CONFIG(HardtanhConfig, min_val, max_val)
};

}  // namespace burn::nn
