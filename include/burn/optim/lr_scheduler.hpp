#pragma once
/// Learning-rate schedulers. step() returns the learning rate for the current iteration and advances:
/// the n-th call returns what torch.optim.lr_scheduler gives at epoch n - 1 (the value used by the
/// n-th optimizer.step() in torch's `optimizer.step(); scheduler.step()` loop).
///
///     optim::LrSchedulerAny schedule = optim::SequentialLrScheduler(
///         {optim::LinearLrSchedulerConfig{1e-4, 1e-3, 100}.init(),
///          optim::CosineAnnealingLrSchedulerConfig{1e-3, 900}.with_restarts(false).init()},
///         {100});
///     for (...) model = optimizer.step(schedule.step(), std::move(model), grads);
///
/// A plain double converts to LrSchedulerAny (a constant schedule). Every scheduler's state is a few
/// scalars (to_record / load_record), restorable exactly.
#include <concepts>
#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "burn/config/config.hpp"

namespace burn::optim {

/// A scheduler's state: named scalars (nested schedulers prefix theirs with "<index>.").
struct LrSchedulerRecord {
    std::map<std::string, double> scalars;
};

class LrScheduler {
  public:
    virtual ~LrScheduler() = default;
    /// The learning rate for this iteration; advances the schedule.
    virtual double step() = 0;
    /// The momentum for the iteration step() last returned (before the first step: the first
    /// iteration's), from schedules that cycle it (one-cycle and cyclic with cycle_momentum, torch's
    /// cycle_momentum); nullopt: the optimizer keeps its own. The Learner passes it to
    /// Optimizer::set_momentum before each step.
    virtual std::optional<double> momentum() const { return std::nullopt; }
    virtual LrSchedulerRecord to_record() const = 0;
    /// Restores a state from to_record() of a scheduler of the same kind and settings.
    virtual void load_record(const LrSchedulerRecord& record) = 0;
    virtual std::unique_ptr<LrScheduler> clone() const = 0;
    virtual const char* name() const = 0;
};

/// Counts iterations; the state of every scheduler below ("iteration": calls of step() so far).
class IterationLrScheduler : public LrScheduler {
  public:
    double step() final { return lr_at(iteration_++); }
    std::optional<double> momentum() const final { return momentum_at(iteration_ == 0 ? 0 : iteration_ - 1); }
    LrSchedulerRecord to_record() const override;
    void load_record(const LrSchedulerRecord& record) override;
    std::size_t iteration() const { return iteration_; }
    /// The learning rate at a (0-based) iteration, without changing the state.
    virtual double lr_at(std::size_t iteration) const = 0;
    /// The momentum at a (0-based) iteration; nullopt for schedules that do not cycle it.
    virtual std::optional<double> momentum_at(std::size_t iteration) const {
        (void)iteration;
        return std::nullopt;
    }

  private:
    std::size_t iteration_ = 0;
};

/// The same learning rate forever.
class ConstantLr final : public IterationLrScheduler {
  public:
    explicit ConstantLr(double lr);
    double lr_at(std::size_t) const override { return lr_; }
    std::unique_ptr<LrScheduler> clone() const override { return std::make_unique<ConstantLr>(*this); }
    const char* name() const override { return "ConstantLr"; }

  private:
    double lr_;
};

/// From initial_lr to final_lr in num_iters equal steps, then final_lr (torch LinearLR with
/// start_factor * base = initial_lr, end_factor * base = final_lr, total_iters = num_iters).
class LinearLrScheduler final : public IterationLrScheduler {
  public:
    LinearLrScheduler(double initial_lr, double final_lr, std::size_t num_iters);
    double lr_at(std::size_t i) const override;
    std::unique_ptr<LrScheduler> clone() const override { return std::make_unique<LinearLrScheduler>(*this); }
    const char* name() const override { return "LinearLrScheduler"; }

  private:
    double initial_, final_;
    std::size_t num_iters_;
};
struct LinearLrSchedulerConfig {
    double initial_lr = 0.0;
    double final_lr = 0.0;
    std::size_t num_iters = 0;
    LinearLrScheduler init() const;
    BURN_CONFIG(LinearLrSchedulerConfig, initial_lr, final_lr, num_iters)
};

/// Cosine annealing from initial_lr towards min_lr over num_iters iterations.
/// restarts (default): torch's CosineAnnealingWarmRestarts(T_0 = num_iters, T_mult = period_mult,
///   eta_min = min_lr): lr = min + (initial - min) * (1 + cos(pi * t / T)) / 2 with t counting 0..T-1
///   in each period, each period period_mult times longer than the last.
/// restarts false: torch's CosineAnnealingLR(T_max = num_iters, eta_min = min_lr) up to num_iters,
///   reaching min_lr there, and min_lr afterwards (torch's curve would rise again).
class CosineAnnealingLrScheduler final : public IterationLrScheduler {
  public:
    CosineAnnealingLrScheduler(double initial_lr, std::size_t num_iters, double min_lr, bool restarts,
                               std::size_t period_mult);
    double lr_at(std::size_t i) const override;
    std::unique_ptr<LrScheduler> clone() const override {
        return std::make_unique<CosineAnnealingLrScheduler>(*this);
    }
    const char* name() const override { return "CosineAnnealingLrScheduler"; }

  private:
    double initial_;
    std::size_t num_iters_;
    double min_;
    bool restarts_;
    std::size_t period_mult_;
};
struct CosineAnnealingLrSchedulerConfig {
    double initial_lr = 0.0;
    std::size_t num_iters = 0;
    double min_lr = 0.0;
    bool restarts = true;
    std::size_t period_mult = 1;
    CosineAnnealingLrScheduler init() const;
    BURN_CONFIG(CosineAnnealingLrSchedulerConfig, initial_lr, num_iters, min_lr, restarts, period_mult)
};

/// initial_lr * gamma^i (torch ExponentialLR).
class ExponentialLrScheduler final : public IterationLrScheduler {
  public:
    ExponentialLrScheduler(double initial_lr, double gamma);
    double lr_at(std::size_t i) const override;
    std::unique_ptr<LrScheduler> clone() const override {
        return std::make_unique<ExponentialLrScheduler>(*this);
    }
    const char* name() const override { return "ExponentialLrScheduler"; }

  private:
    double initial_, gamma_;
};
struct ExponentialLrSchedulerConfig {
    double initial_lr = 0.0;
    double gamma = 0.0;
    ExponentialLrScheduler init() const;
    BURN_CONFIG(ExponentialLrSchedulerConfig, initial_lr, gamma)
};

/// initial_lr * gamma^(i / step_size) (integer division; torch StepLR).
class StepLrScheduler final : public IterationLrScheduler {
  public:
    StepLrScheduler(double initial_lr, std::size_t step_size, double gamma);
    double lr_at(std::size_t i) const override;
    std::unique_ptr<LrScheduler> clone() const override { return std::make_unique<StepLrScheduler>(*this); }
    const char* name() const override { return "StepLrScheduler"; }

  private:
    double initial_;
    std::size_t step_size_;
    double gamma_;
};
struct StepLrSchedulerConfig {
    double initial_lr = 0.0;
    std::size_t step_size = 0;
    double gamma = 0.1;
    StepLrScheduler init() const;
    BURN_CONFIG(StepLrSchedulerConfig, initial_lr, step_size, gamma)
};

/// The Transformer schedule ("Attention is all you need"): with n = i + 1,
/// init_lr * model_size^-0.5 * min(n^-0.5, n * warmup_steps^-1.5) (torch: LambdaLR with that factor).
class NoamLrScheduler final : public IterationLrScheduler {
  public:
    NoamLrScheduler(double init_lr, std::size_t warmup_steps, std::size_t model_size);
    double lr_at(std::size_t i) const override;
    std::unique_ptr<LrScheduler> clone() const override { return std::make_unique<NoamLrScheduler>(*this); }
    const char* name() const override { return "NoamLrScheduler"; }

  private:
    double init_;
    std::size_t warmup_, model_size_;
};
struct NoamLrSchedulerConfig {
    double init_lr = 0.0;
    std::size_t warmup_steps = 4000;
    std::size_t model_size = 512;
    NoamLrScheduler init() const;
    BURN_CONFIG(NoamLrSchedulerConfig, init_lr, warmup_steps, model_size)
};

/// Any scheduler by value (copies clone it). A double converts to a ConstantLr.
class LrSchedulerAny final : public LrScheduler {
  public:
    LrSchedulerAny(double lr);  // NOLINT: a plain learning rate is a constant schedule
    template <class S>
    requires(std::derived_from<std::decay_t<S>, LrScheduler> &&
             !std::same_as<std::decay_t<S>, LrSchedulerAny>) LrSchedulerAny(S&& s)  // NOLINT: any scheduler
        : impl_(std::make_unique<std::decay_t<S>>(std::forward<S>(s))) {}
    LrSchedulerAny(const LrSchedulerAny& o) : impl_(o.impl_ ? o.impl_->clone() : nullptr) {}
    LrSchedulerAny(LrSchedulerAny&&) noexcept = default;
    LrSchedulerAny& operator=(const LrSchedulerAny& o) {
        if (this != &o) impl_ = o.impl_ ? o.impl_->clone() : nullptr;
        return *this;
    }
    LrSchedulerAny& operator=(LrSchedulerAny&&) noexcept = default;

    double step() override { return impl_->step(); }
    std::optional<double> momentum() const override { return impl_->momentum(); }
    LrSchedulerRecord to_record() const override { return impl_->to_record(); }
    void load_record(const LrSchedulerRecord& record) override { impl_->load_record(record); }
    std::unique_ptr<LrScheduler> clone() const override { return std::make_unique<LrSchedulerAny>(*this); }
    const char* name() const override { return impl_->name(); }
    /// The wrapped scheduler.
    const LrScheduler& get() const { return *impl_; }

  private:
    std::unique_ptr<LrScheduler> impl_;
};

/// Runs schedulers one after another (torch SequentialLR): schedulers[k] takes over at iteration
/// milestones[k - 1], starting from its own first value. Warm-up then decay:
///     SequentialLrScheduler({LinearLrSchedulerConfig{1e-5, 1e-3, 500}.init(),
///                            CosineAnnealingLrSchedulerConfig{1e-3, 9500}.with_restarts(false).init()},
///                            {500})
class SequentialLrScheduler final : public LrScheduler {
  public:
    SequentialLrScheduler(std::vector<LrSchedulerAny> schedulers, std::vector<std::size_t> milestones);
    double step() override;
    /// The momentum of the scheduler that gave the last step's rate.
    std::optional<double> momentum() const override;
    LrSchedulerRecord to_record() const override;
    void load_record(const LrSchedulerRecord& record) override;
    std::unique_ptr<LrScheduler> clone() const override {
        return std::make_unique<SequentialLrScheduler>(*this);
    }
    const char* name() const override { return "SequentialLrScheduler"; }

  private:
    std::vector<LrSchedulerAny> schedulers_;
    std::vector<std::size_t> milestones_;
    std::size_t iteration_ = 0;
};

/// Multiplies schedules (torch ChainedScheduler of multiplicative schedules): the learning rate is the
/// product of every scheduler's, each advanced once per step. Give one of them the base learning rate
/// and make the others factors (initial_lr 1), e.g. torch's ChainedScheduler([LinearLR(start_factor
/// 0.25, total_iters 8), ExponentialLR(gamma 0.95)]) at lr 0.1 is
///     ChainedLrScheduler({LinearLrSchedulerConfig{0.25, 1.0, 8}.init(),
///                         ExponentialLrSchedulerConfig{0.1, 0.95}.init()})
/// State: "<index>.<key>" per scheduler.
///
/// With a reduction it is burn's ComposedLrScheduler: the learning rate is the mean (avg), the sum or
/// the product (prod, the default) of the schedulers' rates.
///     optim::ComposedLrScheduler({warmup, cosine}, optim::LrReduction::avg)
enum class LrReduction { avg, sum, prod };
class ChainedLrScheduler final : public LrScheduler {
  public:
    explicit ChainedLrScheduler(std::vector<LrSchedulerAny> schedulers,
                                LrReduction reduction = LrReduction::prod);
    LrReduction reduction() const { return reduction_; }
    double step() override;
    /// The first scheduler's momentum that has one.
    std::optional<double> momentum() const override;
    LrSchedulerRecord to_record() const override;
    void load_record(const LrSchedulerRecord& record) override;
    std::unique_ptr<LrScheduler> clone() const override {
        return std::make_unique<ChainedLrScheduler>(*this);
    }
    const char* name() const override { return "ChainedLrScheduler"; }

  private:
    std::vector<LrSchedulerAny> schedulers_;
    LrReduction reduction_;
};
/// burn's name for a ChainedLrScheduler with a reduction.
using ComposedLrScheduler = ChainedLrScheduler;

}  // namespace burn::optim
