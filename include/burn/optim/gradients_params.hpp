#pragma once
/// GradientsParams: gradients re-keyed by parameter id. from_grads is the step that links a backward
/// pass to a module's parameters; skipping it is the usual reason a custom loop trains nothing.
#include <optional>
#include <unordered_map>
#include <vector>

#include "burn/module/module.hpp"

namespace burn::optim {

class GradientsParams {
  public:
    GradientsParams() = default;

    /// Takes every trainable parameter's gradient out of grads (moved, not copied) and keys it by
    /// ParamId. Throws when grads is not empty but none of it belongs to the module's trainable
    /// parameters (gradients of another model's loss).
    template <class M>
    static GradientsParams from_grads(Gradients grads, const M& module) {
        GradientsParams out;
        std::size_t trainable = 0;
        const std::size_t total = grads.size();
        module::visit_params(module, [&](const std::string&, const auto& p) {
            if (!p.val().defined() || !p.is_require_grad()) return;
            ++trainable;
            if (auto g = ops::grad_remove(p.val().handle(), grads))
                out.grads_[p.id().value()] = std::move(*g);
        });
        check_from_grads(total, trainable, out.size());
        return out;
    }

    std::optional<TensorAny> get(ParamId id) const;
    std::optional<TensorAny> remove(ParamId id);
    void set(ParamId id, TensorAny grad);
    bool contains(ParamId id) const { return grads_.count(id.value()) != 0; }
    std::size_t size() const { return grads_.size(); }
    bool empty() const { return grads_.empty(); }
    const std::unordered_map<uint64_t, TensorAny>& items() const { return grads_; }

    /// Throws naming up to a few ids when some gradient's id is not in ids (the ids of a module's
    /// parameters). `op` starts the message.
    void check_belongs(const std::vector<ParamId>& ids, const char* op) const;

  private:
    static void check_from_grads(std::size_t total, std::size_t trainable, std::size_t matched);
    std::unordered_map<uint64_t, TensorAny> grads_;
};

/// Sums the gradients of several backward passes (gradient accumulation over micro-batches):
///
///     GradientsAccumulator accumulator;
///     for (auto& batch : micro_batches)
///         accumulator.accumulate(model, GradientsParams::from_grads(loss(batch).backward(), model));
///     model = optimizer.step(lr, std::move(model), accumulator.grads());
///
/// The result is a sum: scale the loss (or lr) by 1/n for a mean.
class GradientsAccumulator {
  public:
    /// Adds grads into the running sum. Throws when grads holds gradients of parameters the module
    /// does not have, or a gradient's shape differs from the one accumulated so far.
    template <class M>
    void accumulate(const M& module, GradientsParams grads) {
        std::vector<ParamId> ids;
        module::visit_params(module, [&](const std::string&, const auto& p) { ids.push_back(p.id()); });
        add(ids, std::move(grads));
    }
    /// The sum so far; the accumulator is empty afterwards.
    GradientsParams grads();
    /// How many accumulate() calls the current sum holds.
    std::size_t count() const { return count_; }

  private:
    void add(const std::vector<ParamId>& ids, GradientsParams grads);
    GradientsParams sum_;
    std::size_t count_ = 0;
};

}  // namespace burn::optim
