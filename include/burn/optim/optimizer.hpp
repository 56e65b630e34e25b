#pragma once
/// Optimizers: a per-tensor rule (the math, a pure function of parameter, gradient and state) applied
/// over a module by Optimizer::step(lr, module, grads), which returns the updated module.
///
///     auto optimizer = optim::AdamWConfig{}.init()
///                          .with_grad_clipping(optim::GradientClipping::GlobalNorm(1.0))
///                          .with_group([](const std::string& p) { return p.ends_with("bias"); },
///                                      optim::GroupSettings{.weight_decay = 0.0});
///     model = optimizer.step(lr, std::move(model), grads);
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "burn/module/param_group.hpp"
#include "burn/optim/clipping.hpp"
#include "burn/optim/gradients_params.hpp"
#include "burn/optim/lr_scheduler.hpp"

namespace burn::optim {

/// Per-parameter optimizer state: named tensors (moments) and scalars (step count).
struct ParamState {
    std::map<std::string, TensorAny> tensors;
    std::map<std::string, double> scalars;
};

/// One parameter's update in Rule::step_many: the inputs of Rule::step, and `updated` to fill.
struct StepItem {
    double lr = 0.0;
    double weight_decay = 0.0;
    const TensorAny* param = nullptr;
    TensorAny grad;
    ParamState* state = nullptr;
    TensorAny updated;
};

/// The math of one optimizer, on the inner (non-autodiff) device.
class Rule {
  public:
    virtual ~Rule() = default;
    virtual const char* name() const = 0;
    /// The weight decay the rule applies unless a parameter group overrides it.
    virtual double weight_decay() const { return 0.0; }
    /// The names of the state entries (tensors and scalars) the rule keeps; load_record rejects others.
    /// Empty: anything is accepted.
    virtual std::vector<std::string> state_names() const { return {}; }
    /// Throws when the rule cannot update a parameter of this shape (Muon: 2-D only); called for every
    /// parameter a step updates before anything changes. The default accepts any shape.
    virtual void check_param(const std::string& path, const Dims& shape) const {
        (void)path;
        (void)shape;
    }
    /// The updated parameter from param, its gradient and its state (updated in place), with the
    /// learning rate and weight decay in effect for this parameter.
    virtual TensorAny step(double lr, double weight_decay, const TensorAny& param, TensorAny grad,
                           ParamState& state) const = 0;
    /// Every parameter of one Optimizer::step at once: a rule with a multi-tensor kernel (Adam, AdamW:
    /// a few launches for all parameters) overrides it; the result must equal step() per item. The
    /// default calls step() for each item in order.
    virtual void step_many(std::span<StepItem> items) const;
    /// The rule with its momentum replaced (SGD's and RMSprop's momentum, Adam's and AdamW's beta_1),
    /// for schedules that cycle it (one-cycle, cyclic); nullptr when the rule has none.
    virtual std::shared_ptr<const Rule> with_momentum(double momentum) const {
        (void)momentum;
        return nullptr;
    }
    /// step() with the rule's own weight decay.
    TensorAny step(double lr, const TensorAny& param, TensorAny grad, ParamState& state) const {
        return step(lr, weight_decay(), param, std::move(grad), state);
    }
};

/// Settings of a parameter group: its learning rate is lr * lr_factor, and weight_decay (when set)
/// replaces the rule's. With lr_schedule, the group follows its own schedule instead of the step's lr:
/// lr_schedule.step() * lr_factor, advanced once per Optimizer::step (torch: a scheduler with one
/// lambda per param group).
struct GroupSettings {
    double lr_factor = 1.0;
    std::optional<double> weight_decay{};
    std::optional<LrSchedulerAny> lr_schedule{};
};

/// Optimizer state as named tensors and scalars, keyed "<param id>.<state name>" ("12.exp_avg",
/// "12.step"): what the storage layer saves. Restoring it continues training exactly.
struct OptimizerRecord {
    std::map<std::string, TensorAny> tensors;
    std::map<std::string, double> scalars;

    static std::string key(ParamId id, const std::string& name);
};

/// An optimizer over modules: one step(lr, module, grads) signature for every rule.
class Optimizer {
  public:
    using PathPredicate = std::function<bool(const std::string&)>;

    Optimizer(std::shared_ptr<const Rule> rule, GradientClipping clipping = {})
        : rule_(std::move(rule)), clipping_(clipping) {}

    /// A copy that clips gradients before the rule sees them (replaces the config's clipping).
    Optimizer with_grad_clipping(GradientClipping clipping) const& {
        return Optimizer(*this).with_grad_clipping(clipping);
    }
    Optimizer with_grad_clipping(GradientClipping clipping) &&;
    /// A copy with a parameter group: parameters whose path satisfies pred use settings. Groups are
    /// tried in the order they were added; the first match wins; other parameters use the defaults.
    Optimizer with_group(PathPredicate pred, GroupSettings settings) const& {
        return Optimizer(*this).with_group(std::move(pred), settings);
    }
    Optimizer with_group(PathPredicate pred, GroupSettings settings) &&;
    /// A copy with a group that has its own optimizer (burn's with_group(group, optim, clipping)): its
    /// parameters are stepped by optimizer's rule and clipped by optimizer's clipping (its gradients
    /// clipped together, apart from the others'), with settings' lr factor, weight decay and schedule.
    /// Only the rule and the clipping of optimizer are used (not its groups or state); state lives here,
    /// keyed by parameter id as for every parameter. set_momentum changes the main rule only.
    Optimizer with_group(PathPredicate pred, const Optimizer& optimizer, GroupSettings settings = {}) const&;
    /// The same, the group given as a module::ParamGroup (ids or paths).
    Optimizer with_group(const module::ParamGroup& group, const Optimizer& optimizer,
                         GroupSettings settings = {}) const&;
    /// How a step reaches the rule: automatic (the default) hands every parameter to the rule's
    /// multi-tensor step (Rule::step_many: a few launches for all parameters) unless they all live on
    /// the CPU, where an op is a function call and the per-tensor update, written in place, is faster;
    /// on / off force one or the other. The results are equal either way.
    enum class MultiTensor { automatic, on, off };
    Optimizer with_multi_tensor(bool on) const& { return Optimizer(*this).with_multi_tensor(on); }
    Optimizer with_multi_tensor(bool on) && {
        multi_tensor_ = on ? MultiTensor::on : MultiTensor::off;
        return std::move(*this);
    }
    MultiTensor multi_tensor() const { return multi_tensor_; }
    /// Sets the rule's momentum (SGD's and RMSprop's momentum, Adam's and AdamW's beta_1) for the steps
    /// that follow, as torch's schedulers with cycle_momentum write it into the param groups; the state
    /// (momentum buffers, moments) is kept. The Learner calls it with the scheduler's momentum() before
    /// each step. Throws, changing nothing, for a rule without one or a momentum outside [0, 1).
    void set_momentum(double momentum);

    /// Updates every trainable parameter that has a gradient and returns the module; consumes those
    /// gradients from grads. Frozen parameters (require_grad false) and parameters without a
    /// gradient are left as they are, and get no state. Throws, before changing anything, when lr is
    /// not a finite non-negative number, grads holds gradients of parameters the module does not have,
    /// or a gradient or a loaded state tensor does not have its parameter's shape.
    template <class M>
    M step(double lr, M module, GradientsParams& grads) {
        std::vector<Slot> slots;
        module::visit_params(module, [&](const std::string& path, const auto& p) {
            slots.push_back({path, p.id(), p.is_require_grad() && p.val().defined(), p.val().handle(), {}});
        });
        apply(lr, slots, grads);
        std::size_t i = 0;
        module::visit_params_mut(module, [&](const std::string&, auto& p) {
            using T = typename std::remove_reference_t<decltype(p)>::value_type;
            Slot& s = slots[i++];
            if (s.updated.defined()) p.set(T(std::move(s.updated)));
        });
        return module;
    }
    template <class M>
    M step(double lr, M module, GradientsParams&& grads) {
        return step(lr, std::move(module), grads);
    }

    const Rule& rule() const { return *rule_; }
    const GradientClipping& clipping() const { return clipping_; }

    /// State per parameter id.
    std::unordered_map<uint64_t, ParamState>& states() { return states_; }
    const std::unordered_map<uint64_t, ParamState>& states() const { return states_; }

    /// The state as named tensors and scalars (tensors are shared, not copied: the optimizer never
    /// writes into a tensor someone else holds). Groups' schedules add "group_schedule.<group index>.<key>"
    /// scalars.
    OptimizerRecord to_record() const;
    /// Replaces the state by a record from to_record(). Throws on keys that are not
    /// "<param id>.<name>" or name state this rule does not keep. Tensors move to each parameter's
    /// device (and dtype) at its next step.
    void load_record(const OptimizerRecord& record);
    /// Moves every state tensor to device now (steps also move state to the parameter's device).
    void to_device(const Device& device);

  private:
    struct Slot {
        std::string path;
        ParamId id;
        bool trainable;
        TensorAny value;
        TensorAny updated;
    };
    struct Group {
        PathPredicate pred;
        GroupSettings settings;
        std::shared_ptr<const Rule> rule{};          // null: the optimizer's
        std::optional<GradientClipping> clipping{};  // unset: clipped with the others
        std::optional<module::ParamGroup> ids{};     // set: matched by id and path instead of pred
    };
    void apply(double lr, std::vector<Slot>& slots, GradientsParams& grads);
    /// The index of the first group accepting the parameter; groups_.size() when none does.
    std::size_t group_of(ParamId id, const std::string& path) const;
    const Rule& rule_of(std::size_t group) const {
        return group < groups_.size() && groups_[group].rule ? *groups_[group].rule : *rule_;
    }

    std::shared_ptr<const Rule> rule_;
    GradientClipping clipping_;
    std::vector<Group> groups_;
    std::unordered_map<uint64_t, ParamState> states_;
    MultiTensor multi_tensor_ = MultiTensor::automatic;
};

}  // namespace burn::optim
