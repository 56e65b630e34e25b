// Normalization / NormalizationConfig (nn/normalization.hpp): each alternative's own init and forward.
#include "burn/nn/normalization.hpp"

namespace burn::nn {

namespace {
/// The feature-count field of a norm config or module, by reference.
template <class T>
auto& features_of(T& x) {
    if constexpr (requires { x.num_features; })
        return x.num_features;
    else if constexpr (requires { x.num_channels; })
        return x.num_channels;
    else
        return x.d_model;
}
}  // namespace

TensorAny Normalization::forward_any(const TensorAny& x) const {
    return std::visit([&](const auto& m) { return m.forward_any(x); }, norm);
}

std::size_t Normalization::num_features() const {
    return std::visit(
        [](const auto& m) -> std::size_t {
            using M = std::decay_t<decltype(m)>;
            if constexpr (std::is_same_v<M, BatchNorm>)
                return static_cast<std::size_t>(m.running_mean.val().dims()[0]);
            else if constexpr (std::is_same_v<M, LayerNorm> || std::is_same_v<M, RmsNorm>)
                return static_cast<std::size_t>(m.gamma.val().dims()[0]);
            else
                return m.num_channels;
        },
        norm);
}

std::string Normalization::name() const {
    return std::string(burn_variant_names(static_cast<NormalizationKind*>(nullptr))[norm.index()]);
}

Normalization NormalizationConfig::init(const Device& device) const {
    static_assert(std::variant_size_v<NormalizationKind> == std::variant_size_v<NormalizationLayer>);
    return std::visit([&](const auto& c) { return Normalization{NormalizationLayer(c.init(device))}; }, kind);
}

NormalizationConfig NormalizationConfig::with_num_features(std::size_t n) const {
    NormalizationConfig copy = *this;
    std::visit([&](auto& c) { features_of(c) = n; }, copy.kind);
    return copy;
}

std::size_t NormalizationConfig::num_features() const {
    return std::visit([](const auto& c) { return static_cast<std::size_t>(features_of(c)); }, kind);
}

}  // namespace burn::nn
