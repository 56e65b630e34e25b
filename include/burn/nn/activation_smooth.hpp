#pragma once
/// Smooth activations without parameters, composites of existing ops so autodiff needs no new rules:
/// Mish, Softsign, LogSigmoid, Tanhshrink.
#include "burn/nn/activation.hpp"

namespace burn::activation {

namespace any {
// Rank-erased forms, defined in src/nn/activation_smooth.cpp.
TensorAny mish(const TensorAny& x);
TensorAny softsign(const TensorAny& x);
TensorAny log_sigmoid(const TensorAny& x);
TensorAny tanhshrink(const TensorAny& x);
}  // namespace any

/// x * tanh(softplus(x))
template <std::size_t D>
Tensor<D> mish(const Tensor<D>& x) {
    return Tensor<D>(any::mish(x.handle()));
}
/// x / (1 + |x|)
template <std::size_t D>
Tensor<D> softsign(const Tensor<D>& x) {
    return Tensor<D>(any::softsign(x.handle()));
}
/// log(sigmoid(x)), stable for large |x|.
template <std::size_t D>
Tensor<D> log_sigmoid(const Tensor<D>& x) {
    return Tensor<D>(any::log_sigmoid(x.handle()));
}
/// x - tanh(x)
template <std::size_t D>
Tensor<D> tanhshrink(const Tensor<D>& x) {
    return Tensor<D>(any::tanhshrink(x.handle()));
}

}  // namespace burn::activation

namespace burn::nn {

struct Mish {
    template <std::size_t D>
    Tensor<D> forward(const Tensor<D>& x) const {
        return activation::mish(x);
    }
};
struct Softsign {
    template <std::size_t D>
    Tensor<D> forward(const Tensor<D>& x) const {
        return activation::softsign(x);
    }
};
struct LogSigmoid {
    template <std::size_t D>
    Tensor<D> forward(const Tensor<D>& x) const {
        return activation::log_sigmoid(x);
    }
};
struct Tanhshrink {
    template <std::size_t D>
    Tensor<D> forward(const Tensor<D>& x) const {
        return activation::tanhshrink(x);
    }
};

}  // namespace burn::nn
