#pragma once
/// More activation functions (composites of existing ops, so autodiff needs no new rules) and their
/// modules: Relu6, PRelu (a parameter), HardSigmoid, HardSwish, Mish, Elu, Selu, Celu, Softsign,
/// LogSigmoid, Hardtanh, Tanhshrink, Softmin. Defaults are PyTorch's (HardSigmoid: alpha 1/6, beta 0.5;
/// burn's ONNX-style 0.2 / 0.5 is one with_alpha away).
#include "burn/config/config.hpp"
#include "burn/module/module.hpp"
#include "burn/nn/activation.hpp"

namespace burn::activation {

namespace any {
// Rank-erased forms, defined in src/nn/activation_extra.cpp.
TensorAny relu6(const TensorAny& x);
TensorAny hard_sigmoid(const TensorAny& x, double alpha, double beta);
TensorAny hard_swish(const TensorAny& x);
TensorAny mish(const TensorAny& x);
TensorAny elu(const TensorAny& x, double alpha);
TensorAny selu(const TensorAny& x);
TensorAny celu(const TensorAny& x, double alpha);
TensorAny softsign(const TensorAny& x);
TensorAny log_sigmoid(const TensorAny& x);
TensorAny hardtanh(const TensorAny& x, double min, double max);
TensorAny tanhshrink(const TensorAny& x);
TensorAny softmin(const TensorAny& x, int64_t dim);
/// alpha [1] or [channels], applied along dim 1 of x (PyTorch's PReLU).
TensorAny prelu(const TensorAny& x, const TensorAny& alpha);
/// exp(x_i) / (1 + sum_j exp(x_j)) along dim, stabilised (Evan Miller's "attention is off by one").
TensorAny quiet_softmax(const TensorAny& x, int64_t dim);
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
/// x * tanh(softplus(x))
template <std::size_t D>
Tensor<D> mish(const Tensor<D>& x) {
    return Tensor<D>(any::mish(x.handle()));
}
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
/// clamp(x, min, max)
template <std::size_t D>
Tensor<D> hardtanh(const Tensor<D>& x, double min = -1.0, double max = 1.0) {
    return Tensor<D>(any::hardtanh(x.handle(), min, max));
}
/// x - tanh(x)
template <std::size_t D>
Tensor<D> tanhshrink(const Tensor<D>& x) {
    return Tensor<D>(any::tanhshrink(x.handle()));
}
/// softmax(-x, dim)
template <std::size_t D>
Tensor<D> softmin(const Tensor<D>& x, int64_t dim) {
    return Tensor<D>(any::softmin(x.handle(), dim));
}
template <std::size_t D>
Tensor<D> quiet_softmax(const Tensor<D>& x, int64_t dim) {
    return Tensor<D>(any::quiet_softmax(x.handle(), dim));
}
/// max(0, x) + alpha * min(0, x); alpha [1] or [channels] (applied along dim 1).
template <std::size_t D>
Tensor<D> prelu(const Tensor<D>& x, const Tensor<1>& alpha) {
    return Tensor<D>(any::prelu(x.handle(), alpha.handle()));
}

}  // namespace burn::activation

namespace burn::nn {

#define BURN_NN_SIMPLE_ACTIVATION_(Name, fn)          \
    struct Name {                                     \
        template <std::size_t D>                      \
        Tensor<D> forward(const Tensor<D>& x) const { \
            return activation::fn(x);                 \
        }                                             \
    };
BURN_NN_SIMPLE_ACTIVATION_(Relu6, relu6)
BURN_NN_SIMPLE_ACTIVATION_(HardSwish, hard_swish)
BURN_NN_SIMPLE_ACTIVATION_(Mish, mish)
BURN_NN_SIMPLE_ACTIVATION_(Selu, selu)
BURN_NN_SIMPLE_ACTIVATION_(Softsign, softsign)
BURN_NN_SIMPLE_ACTIVATION_(LogSigmoid, log_sigmoid)
BURN_NN_SIMPLE_ACTIVATION_(Tanhshrink, tanhshrink)
#undef BURN_NN_SIMPLE_ACTIVATION_

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

struct Softmin {
    int64_t dim = -1;
    template <std::size_t D>
    Tensor<D> forward(const Tensor<D>& x) const {
        return activation::softmin(x, dim);
    }
};

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
