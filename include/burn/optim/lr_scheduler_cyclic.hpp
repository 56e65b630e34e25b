#pragma once
/// Cyclical learning-rate schedules: one-cycle (torch OneCycleLR) and cyclic (torch CyclicLR), and with
/// cycle_momentum their momentum schedules (momentum(): falling while the rate rises, as torch's
/// cycle_momentum; the Learner sets it on the optimizer before each step, Optimizer::set_momentum: SGD's
/// and RMSprop's momentum, Adam's and AdamW's beta_1). cycle_momentum is off by default here, on in
/// torch. Same step() / lr_at() convention as lr_scheduler.hpp.
#include <cstddef>
#include <memory>
#include <optional>

#include "burn/config/config.hpp"
#include "burn/optim/lr_scheduler.hpp"

namespace burn::optim {

enum class AnnealStrategy { cos, linear };
BURN_ENUM(AnnealStrategy, cos, linear)

/// Smith's 1cycle policy (torch OneCycleLR): from max_lr / div_factor up to max_lr over the first
/// pct_start of total_steps, then down to max_lr / div_factor / final_div_factor (three_phase: back to
/// the initial rate by 2 * pct_start, then down to the minimum). Defined for iterations
/// 0..total_steps - 1; stepping further throws, as torch does.
/// The momentum range of a schedule with cycle_momentum: max while the rate is lowest, base while it is
/// highest.
struct MomentumRange {
    double base;
    double max;
};

class OneCycleLrScheduler final : public IterationLrScheduler {
  public:
    OneCycleLrScheduler(double max_lr, std::size_t total_steps, double pct_start, AnnealStrategy anneal,
                        double div_factor, double final_div_factor, bool three_phase,
                        std::optional<MomentumRange> momentum = std::nullopt);
    double lr_at(std::size_t i) const override;
    /// With cycle_momentum: max_momentum down to base_momentum while the rate rises, back up while it
    /// falls (three_phase: constant at max in the third phase), annealed as the rate.
    std::optional<double> momentum_at(std::size_t i) const override;
    std::unique_ptr<LrScheduler> clone() const override {
        return std::make_unique<OneCycleLrScheduler>(*this);
    }
    const char* name() const override { return "OneCycleLrScheduler"; }

  private:
    struct Phase {
        double end_step, start_lr, end_lr, start_momentum, end_momentum;
    };
    /// The phase of iteration i and how far into it (0 to 1).
    std::pair<const Phase*, double> phase_of(std::size_t i) const;
    double anneal(double start, double end, double pct) const;
    std::size_t total_steps_;
    AnnealStrategy anneal_;
    std::vector<Phase> phases_;
    bool cycle_momentum_;
};
struct OneCycleLrSchedulerConfig {
    double max_lr = 0.0;
    std::size_t total_steps = 0;
    double pct_start = 0.3;
    AnnealStrategy anneal_strategy = AnnealStrategy::cos;
    double div_factor = 25.0;
    double final_div_factor = 1e4;
    bool three_phase = false;
    /// Cycle the momentum inversely to the rate between base_momentum and max_momentum (torch's default
    /// is true; here false, so the optimizer's own momentum stays unless asked).
    bool cycle_momentum = false;
    double base_momentum = 0.85;
    double max_momentum = 0.95;
    OneCycleLrScheduler init() const;
    BURN_CONFIG(OneCycleLrSchedulerConfig, max_lr, total_steps, pct_start, anneal_strategy, div_factor,
                final_div_factor, three_phase, cycle_momentum, base_momentum, max_momentum)
};

enum class CyclicLrMode { triangular, triangular2, exp_range };
BURN_ENUM(CyclicLrMode, triangular, triangular2, exp_range)

/// Cyclical learning rates (Smith 2017; torch CyclicLR): base_lr up to max_lr in step_size_up
/// iterations, back down in step_size_down (default: step_size_up), repeating. triangular keeps the
/// amplitude; triangular2 halves it every cycle; exp_range scales it by gamma^iteration.
class CyclicLrScheduler final : public IterationLrScheduler {
  public:
    CyclicLrScheduler(double base_lr, double max_lr, std::size_t step_size_up, std::size_t step_size_down,
                      CyclicLrMode mode, double gamma, std::optional<MomentumRange> momentum = std::nullopt);
    double lr_at(std::size_t i) const override;
    /// With cycle_momentum: max_momentum minus the rate's scaled height over (max_momentum -
    /// base_momentum), as torch CyclicLR.
    std::optional<double> momentum_at(std::size_t i) const override;
    std::unique_ptr<LrScheduler> clone() const override { return std::make_unique<CyclicLrScheduler>(*this); }
    const char* name() const override { return "CyclicLrScheduler"; }

  private:
    /// Iteration i's position in its cycle (0 at the base, 1 at the peak) and the mode's amplitude factor.
    std::pair<double, double> height(std::size_t i) const;
    double base_, max_;
    double total_size_, step_ratio_;
    CyclicLrMode mode_;
    double gamma_;
    std::optional<MomentumRange> momentum_;
};
struct CyclicLrSchedulerConfig {
    double base_lr = 0.0;
    double max_lr = 0.0;
    std::size_t step_size_up = 2000;
    std::optional<std::size_t> step_size_down{};
    CyclicLrMode mode = CyclicLrMode::triangular;
    double gamma = 1.0;
    /// Cycle the momentum inversely to the rate (torch's default is true; here false).
    bool cycle_momentum = false;
    double base_momentum = 0.8;
    double max_momentum = 0.9;
    CyclicLrScheduler init() const;
    BURN_CONFIG(CyclicLrSchedulerConfig, base_lr, max_lr, step_size_up, step_size_down, mode, gamma,
                cycle_momentum, base_momentum, max_momentum)
};

}  // namespace burn::optim
