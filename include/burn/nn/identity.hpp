#pragma once
/// Identity (PyTorch's and burn's): forward returns its input, a placeholder where a layer is optional
/// (`std::variant<Linear, Identity>`, an Activation slot, a removed head).
#include "burn/config/config.hpp"
#include "burn/tensor/tensor.hpp"

namespace burn::nn {

struct Identity {
    template <std::size_t D, class K>
    Tensor<D, K> forward(const Tensor<D, K>& x) const {
        return x;
    }
};

struct IdentityConfig {
    Identity init() const { return {}; }
    BURN_CONFIG(IdentityConfig)
};

}  // namespace burn::nn
