#pragma once
/// GradientsParams: gradients re-keyed by parameter id. from_grads is the step that links a backward
/// pass to a module's parameters; skipping it is the usual reason a custom loop trains nothing.
#include <optional>
#include <unordered_map>

#include "burn/module/module.hpp"

namespace burn::optim {

class GradientsParams {
public:
    GradientsParams() = default;

    /// Takes every parameter's gradient out of grads (moved, not copied) and keys it by ParamId.
    template <class M>
    static GradientsParams from_grads(Gradients grads, const M& module) {
        GradientsParams out;
        module::visit_params(module, [&](const std::string&, const auto& p) {
            if (!p.val().defined()) return;
            if (auto g = ops::grad_remove(p.val().handle(), grads)) out.grads_[p.id().value()] = std::move(*g);
        });
        return out;
    }

    std::optional<TensorAny> get(ParamId id) const;
    std::optional<TensorAny> remove(ParamId id);
    void set(ParamId id, TensorAny grad);
    std::size_t size() const { return grads_.size(); }
    bool empty() const { return grads_.empty(); }
    const std::unordered_map<uint64_t, TensorAny>& items() const { return grads_; }

private:
    std::unordered_map<uint64_t, TensorAny> grads_;
};

}  // namespace burn::optim
