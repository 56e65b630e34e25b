#pragma once
/// Thresholding activations, composites of existing ops so autodiff needs no new rules: Shrink,
/// HardShrink, SoftShrink, Threshold and ThresholdedRelu (burn's). Defaults are PyTorch's and burn's
/// (lambda 0.5, alpha 1; Shrink's bias 0.5).
#include "burn/config/config.hpp"
#include "burn/nn/activation.hpp"

namespace burn::activation {

namespace any {
// Rank-erased forms, defined in src/nn/activation_shrink.cpp.
TensorAny shrink(const TensorAny& x, double lambda, double bias);
TensorAny hard_shrink(const TensorAny& x, double lambda);
TensorAny soft_shrink(const TensorAny& x, double lambda);
TensorAny threshold(const TensorAny& x, double threshold, double value);
TensorAny thresholded_relu(const TensorAny& x, double alpha);
}  // namespace any

/// x - sign(x) * bias where |x| > lambda, 0 elsewhere (burn's shrink, ONNX's Shrink): soft_shrink is
/// shrink(x, lambda, lambda). NaN stays NaN.
template <std::size_t D>
Tensor<D> shrink(const Tensor<D>& x, double lambda = 0.5, double bias = 0.5) {
    return Tensor<D>(any::shrink(x.handle(), lambda, bias));
}
/// x where |x| > lambda, 0 elsewhere.
template <std::size_t D>
Tensor<D> hard_shrink(const Tensor<D>& x, double lambda = 0.5) {
    return Tensor<D>(any::hard_shrink(x.handle(), lambda));
}
/// x - lambda above lambda, x + lambda below -lambda, 0 between: x - clamp(x, -lambda, lambda).
template <std::size_t D>
Tensor<D> soft_shrink(const Tensor<D>& x, double lambda = 0.5) {
    return Tensor<D>(any::soft_shrink(x.handle(), lambda));
}
/// x where x > threshold, value elsewhere (PyTorch's Threshold).
template <std::size_t D>
Tensor<D> threshold(const Tensor<D>& x, double threshold, double value) {
    return Tensor<D>(any::threshold(x.handle(), threshold, value));
}
/// x where x > alpha, 0 elsewhere (burn's and ONNX's ThresholdedRelu).
template <std::size_t D>
Tensor<D> thresholded_relu(const Tensor<D>& x, double alpha = 1.0) {
    return Tensor<D>(any::thresholded_relu(x.handle(), alpha));
}

}  // namespace burn::activation

namespace burn::nn {

/// burn's Shrink layer: activation::shrink(x, lambda, bias).
struct Shrink {
    double lambda = 0.5;
    double bias = 0.5;
    template <std::size_t D>
    Tensor<D> forward(const Tensor<D>& x) const {
        return activation::shrink(x, lambda, bias);
    }
};
/// burn's ShrinkConfig (lambda 0.5, bias 0.5).
struct ShrinkConfig {
    double lambda = 0.5;
    double bias = 0.5;
    Shrink init() const { return {lambda, bias}; }
    BURN_CONFIG(ShrinkConfig, lambda, bias)
};

struct HardShrink {
    double lambda = 0.5;
    template <std::size_t D>
    Tensor<D> forward(const Tensor<D>& x) const {
        return activation::hard_shrink(x, lambda);
    }
};
struct HardShrinkConfig {
    double lambda = 0.5;
    HardShrink init() const;  // checks lambda >= 0
    BURN_CONFIG(HardShrinkConfig, lambda)
};

struct SoftShrink {
    double lambda = 0.5;
    template <std::size_t D>
    Tensor<D> forward(const Tensor<D>& x) const {
        return activation::soft_shrink(x, lambda);
    }
};
struct SoftShrinkConfig {
    double lambda = 0.5;
    SoftShrink init() const;  // checks lambda >= 0
    BURN_CONFIG(SoftShrinkConfig, lambda)
};

struct Threshold {
    double threshold = 0.0;
    double value = 0.0;
    template <std::size_t D>
    Tensor<D> forward(const Tensor<D>& x) const {
        return activation::threshold(x, threshold, value);
    }
};
/// PyTorch's Threshold(threshold, value): both required.
struct ThresholdConfig {
    double threshold = 0.0;
    double value = 0.0;
    Threshold init() const { return {threshold, value}; }
    BURN_CONFIG(ThresholdConfig, threshold, value)
};

struct ThresholdedRelu {
    double alpha = 1.0;
    template <std::size_t D>
    Tensor<D> forward(const Tensor<D>& x) const {
        return activation::thresholded_relu(x, alpha);
    }
};
struct ThresholdedReluConfig {
    double alpha = 1.0;
    ThresholdedRelu init() const { return {alpha}; }
    BURN_CONFIG(ThresholdedReluConfig, alpha)
};

}  // namespace burn::nn
