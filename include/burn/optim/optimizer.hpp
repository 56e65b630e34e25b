#pragma once
/// Optimizers: a per-tensor rule (the math, a pure function of parameter, gradient and state) applied
/// over a module by Optimizer::step(lr, module, grads), which returns the updated module.
#include <map>
#include <memory>
#include <string>
#include <unordered_map>

#include "burn/optim/gradients_params.hpp"

namespace burn::optim {

/// Per-parameter optimizer state: named tensors (moments) and scalars (step count).
struct ParamState {
    std::map<std::string, TensorAny> tensors;
    std::map<std::string, double> scalars;
};

/// The math of one optimizer, on the inner (non-autodiff) device.
class Rule {
public:
    virtual ~Rule() = default;
    virtual const char* name() const = 0;
    /// The updated parameter from param, its gradient and its state (updated in place).
    virtual TensorAny step(double lr, const TensorAny& param, TensorAny grad, ParamState& state) const = 0;
};

enum class ClipKind { none, value, norm };
/// Gradient clipping by value (each element into [-v, v]) or by norm (per parameter tensor, as burn).
struct GradientClipping {
    ClipKind kind = ClipKind::none;
    double threshold = 0.0;
    static GradientClipping Value(double v) { return {ClipKind::value, v}; }
    static GradientClipping Norm(double n) { return {ClipKind::norm, n}; }
    TensorAny apply(TensorAny grad) const;
};

/// An optimizer over modules: one step(lr, module, grads) signature for every rule.
class Optimizer {
public:
    Optimizer(std::shared_ptr<const Rule> rule, GradientClipping clipping = {})
        : rule_(std::move(rule)), clipping_(clipping) {}

    /// Updates every trainable parameter that has a gradient and returns the module. Parameters without a
    /// gradient (frozen or unused) are left as they are.
    template <class M>
    M step(double lr, M module, GradientsParams& grads) {
        module::visit_params_mut(module, [&](const std::string&, auto& p) {
            using T = typename std::remove_reference_t<decltype(p)>::value_type;
            if (!p.is_require_grad() || !p.val().defined()) return;
            auto g = grads.remove(p.id());
            if (!g) return;
            TensorAny updated = update(lr, p.id(), p.val().handle(), std::move(*g));
            p.set(T(std::move(updated)));
        });
        return module;
    }
    template <class M>
    M step(double lr, M module, GradientsParams&& grads) {
        return step(lr, std::move(module), grads);
    }

    const Rule& rule() const { return *rule_; }
    /// State per parameter id (exposed for saving and restoring).
    std::unordered_map<uint64_t, ParamState>& states() { return states_; }
    const std::unordered_map<uint64_t, ParamState>& states() const { return states_; }

private:
    TensorAny update(double lr, ParamId id, const TensorAny& param, TensorAny grad);

    std::shared_ptr<const Rule> rule_;
    GradientClipping clipping_;
    std::unordered_map<uint64_t, ParamState> states_;
};

}  // namespace burn::optim
