#pragma once
/// One activation picked by configuration (burn's ActivationConfig / Activation): ActivationConfig
/// holds the config of one activation in a std::variant, and its init returns the module Activation,
/// which holds that activation's module in a std::variant and applies it in forward. A PRelu or SwiGlu
/// inside keeps its parameters: they are walked, saved and loaded under the field `layer`
/// (`act.layer.alpha`).
///
///     auto act = nn::ActivationConfig{nn::LeakyReluConfig{0.2}}.init(device);
///     auto y = act.forward(x);
///     // JSON: {"kind": {"type": "LeakyRelu", "value": {"negative_slope": 0.2}}}
#include <variant>

#include "burn/config/config.hpp"
#include "burn/module/module.hpp"
#include "burn/nn/activation.hpp"
#include "burn/nn/activation_elu.hpp"
#include "burn/nn/activation_hard.hpp"
#include "burn/nn/activation_shrink.hpp"
#include "burn/nn/feed_forward.hpp"
#include "burn/nn/glu.hpp"
#include "burn/nn/prelu.hpp"
#include "burn/nn/rrelu.hpp"

namespace burn::nn {

/// The activations ActivationConfig can pick: burn's (Gelu with `approximate` standing for
/// GeluApproximate) and the other configurable activations of burn::nn.
using ActivationKind =
    std::variant<ReluConfig, GeluConfig, LeakyReluConfig, PReluConfig, SwiGluConfig, SigmoidConfig,
                 TanhConfig, SiLUConfig, HardSigmoidConfig, HardSwishConfig, SoftplusConfig, GluConfig,
                 HardShrinkConfig, SoftShrinkConfig, ThresholdConfig, ThresholdedReluConfig, RReluConfig,
                 EluConfig, CeluConfig, HardtanhConfig>;
BURN_VARIANT_NAMES(ActivationKind, "Relu", "Gelu", "LeakyRelu", "PRelu", "SwiGlu", "Sigmoid", "Tanh", "SiLU",
                   "HardSigmoid", "HardSwish", "Softplus", "Glu", "HardShrink", "SoftShrink", "Threshold",
                   "ThresholdedRelu", "RRelu", "Elu", "Celu", "Hardtanh")

/// The modules, in the order of ActivationKind.
using ActivationLayer =
    std::variant<Relu, Gelu, LeakyRelu, PRelu, SwiGlu, Sigmoid, Tanh, SiLU, HardSigmoid, HardSwish, Softplus,
                 Glu, HardShrink, SoftShrink, Threshold, ThresholdedRelu, RRelu, Elu, Celu, Hardtanh>;

struct Activation {
    ActivationLayer layer;

    /// The held activation applied to x (Glu halves its dim, SwiGlu maps d_input to d_output).
    template <std::size_t D>
    Tensor<D> forward(const Tensor<D>& x) const {
        return std::visit([&](const auto& m) -> Tensor<D> { return m.forward(x); }, layer);
    }
    /// The name of the held activation ("Relu", "PRelu", ...), as in ActivationConfig's JSON.
    std::string name() const;

    BURN_MODULE(Activation, layer)
};

struct ActivationConfig {
    ActivationKind kind = ReluConfig{};
    /// The module of the chosen activation; device is used by those with parameters (PRelu, SwiGlu).
    Activation init(const Device& device = Device()) const;
    BURN_CONFIG(ActivationConfig, kind)
};

}  // namespace burn::nn
