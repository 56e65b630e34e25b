#pragma once
/// LoRA adapters on Linear layers (burn's apply_lora; Hu et al., "LoRA: Low-Rank Adaptation"):
///
///     auto cfg = nn::LoraConfig{.rank = 8, .alpha = 16};
///     model = nn::apply_lora(std::move(model), cfg, [](const std::string& p) { return
///     p.ends_with("attn.query"); });
///     // train: only the adapters' lora_a / lora_b require gradients (the base layers are frozen)
///     model = nn::merge_lora(std::move(model));    // W += (alpha / rank) B A: plain Linears' cost again
///     model = nn::unmerge_lora(std::move(model));  // W -= (alpha / rank) B A: the adapters apart again
///
/// Each chosen Linear (by its module path, e.g. "encoder.0.fc"; every Linear without a predicate) gets a
/// LoraAdapter (nn/linear.hpp) in its `lora` field: A = lora_a [rank, d_input] from the initializer,
/// B = lora_b [d_output, rank] zeros, so the model computes the same thing until B is trained. The layer
/// then computes x W^T + b + (alpha / rank) x A^T B^T. The adapters are ordinary parameters: walked,
/// saved ("fc.lora.lora_a"), loaded and stepped by the optimizers.
#include <functional>
#include <string>
#include <type_traits>

#include "burn/config/config.hpp"
#include "burn/module/module.hpp"
#include "burn/nn/initializer.hpp"
#include "burn/nn/linear.hpp"

namespace burn::nn {

struct LoraConfig {
    std::size_t rank = 8;
    double alpha = 16.0;
    /// Of lora_a (lora_b starts at zero).
    Initializer initializer = default_layer_initializer();
    /// Freeze the base weight and bias (LoRA's point); false trains them too.
    bool freeze_base = true;
    BURN_CONFIG(LoraConfig, rank, alpha, initializer, freeze_base)
};

/// Adds an adapter to one Linear (replacing any it had).
void attach_lora(Linear& linear, const LoraConfig& config);
/// Folds the adapter's update into the weight / takes it out again (no-ops when there is none, or when
/// it is already merged / unmerged).
void merge_lora(Linear& linear);
void unmerge_lora(Linear& linear);

namespace detail {
template <class M, class F>
void for_each_linear(M& model, F&& fn) {
    auto visitor = module::Visitor{module::NoOp{}, module::NoOp{}, [&](const std::string& path, auto& m) {
                                       if constexpr (std::is_same_v<std::remove_cvref_t<decltype(m)>, Linear>)
                                           fn(path, m);
                                   }};
    module::walk(model, "", visitor);
}
}  // namespace detail

/// The model with adapters on the Linears whose path pred accepts (all when pred is empty).
template <class M>
M apply_lora(M model, const LoraConfig& config, const std::function<bool(const std::string&)>& pred = {}) {
    detail::for_each_linear(model, [&](const std::string& path, Linear& l) {
        if (!pred || pred(path)) attach_lora(l, config);
    });
    return model;
}
/// The model with every adapter merged into its weight (inference at the base model's cost).
template <class M>
M merge_lora(M model) {
    detail::for_each_linear(model, [](const std::string&, Linear& l) { merge_lora(l); });
    return model;
}
/// The model with every merged adapter taken out of its weight again.
template <class M>
M unmerge_lora(M model) {
    detail::for_each_linear(model, [](const std::string&, Linear& l) { unmerge_lora(l); });
    return model;
}

}  // namespace burn::nn
