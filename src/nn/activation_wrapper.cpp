// ActivationConfig::init: each alternative's own init, stored in the matching alternative of the module.
#include "burn/nn/activation_wrapper.hpp"

namespace burn::nn {

namespace {
template <class C>
auto init_one(const C& c, const Device& device) {
    if constexpr (requires { c.init(device); })
        return c.init(device);
    else
        return c.init();
}
}  // namespace

Activation ActivationConfig::init(const Device& device) const {
    static_assert(std::variant_size_v<ActivationKind> == std::variant_size_v<ActivationLayer>);
    return std::visit([&](const auto& c) { return Activation{ActivationLayer(init_one(c, device))}; }, kind);
}

std::string Activation::name() const {
    return std::string(burn_variant_names(static_cast<ActivationKind*>(nullptr))[layer.index()]);
}

}  // namespace burn::nn
