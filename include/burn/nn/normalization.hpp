#pragma once
/// One normalisation layer picked by configuration (burn's NormalizationConfig / Normalization):
/// NormalizationConfig holds the config of BatchNorm, GroupNorm, InstanceNorm, LayerNorm or RmsNorm in
/// a std::variant; its init returns Normalization, which holds the matching module and applies it.
/// The parameters are walked, saved and loaded under the field `norm` (`block.norm.gamma`).
///
///     auto cfg = nn::NormalizationConfig{nn::LayerNormConfig{}}.with_num_features(64);
///     auto norm = cfg.init(device);
///     auto y = norm.forward(x);
///     // JSON: {"kind": {"type": "Layer", "value": {"d_model": 64, ...}}}
#include <variant>

#include "burn/config/config.hpp"
#include "burn/module/module.hpp"
#include "burn/nn/group_norm.hpp"
#include "burn/nn/instance_norm.hpp"
#include "burn/nn/norm.hpp"
#include "burn/nn/rms_norm.hpp"

namespace burn::nn {

using NormalizationKind =
    std::variant<BatchNormConfig, GroupNormConfig, InstanceNormConfig, LayerNormConfig, RmsNormConfig>;
BURN_VARIANT_NAMES(NormalizationKind, "Batch", "Group", "Instance", "Layer", "Rms")

/// The modules, in the order of NormalizationKind.
using NormalizationLayer = std::variant<BatchNorm, GroupNorm, InstanceNorm, LayerNorm, RmsNorm>;

struct Normalization {
    NormalizationLayer norm;

    /// The held layer applied to x: BatchNorm, GroupNorm and InstanceNorm take [batch, features, ...],
    /// LayerNorm and RmsNorm [..., features].
    template <std::size_t D>
    Tensor<D> forward(const Tensor<D>& x) const {
        return Tensor<D>(forward_any(x.handle()));
    }
    TensorAny forward_any(const TensorAny& x) const;
    /// The feature count the layer normalises (num_features, num_channels or d_model).
    std::size_t num_features() const;
    /// "Batch", "Group", "Instance", "Layer" or "Rms", as in the config's JSON.
    std::string name() const;

    BURN_MODULE(Normalization, norm)
};

struct NormalizationConfig {
    NormalizationKind kind = LayerNormConfig{};
    Normalization init(const Device& device = Device()) const;
    /// A copy with the feature count set on whichever config is held (burn's with_num_features).
    NormalizationConfig with_num_features(std::size_t n) const;
    std::size_t num_features() const;
    BURN_CONFIG(NormalizationConfig, kind)
};

}  // namespace burn::nn
