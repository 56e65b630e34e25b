// One-cycle and cyclic learning-rate schedules (torch OneCycleLR / CyclicLR formulas).
#include "burn/optim/lr_scheduler_cyclic.hpp"

#include <cmath>
#include <numbers>

#include "burn/core/error.hpp"

namespace burn::optim {

namespace {

void check_finite_positive(const char* who, const char* field, double v) {
    BURN_CHECK(std::isfinite(v) && v > 0, "[", who, "] ", field, " must be a finite positive number, got ",
               v);
}

void check_momentum_range(const char* who, const MomentumRange& m) {
    BURN_CHECK(std::isfinite(m.base) && std::isfinite(m.max) && m.base >= 0 && m.max < 1 && m.base <= m.max,
               "[", who, "] base_momentum and max_momentum must satisfy 0 <= base <= max < 1, got ", m.base,
               " and ", m.max);
}

}  // namespace

OneCycleLrScheduler::OneCycleLrScheduler(double max_lr, std::size_t total_steps, double pct_start,
                                         AnnealStrategy anneal, double div_factor, double final_div_factor,
                                         bool three_phase, std::optional<MomentumRange> momentum)
    : total_steps_(total_steps), anneal_(anneal), cycle_momentum_(momentum.has_value()) {
    BURN_CHECK(std::isfinite(max_lr) && max_lr >= 0,
               "[OneCycleLrScheduler] max_lr must be a finite non-negative learning rate, got ", max_lr);
    BURN_CHECK(total_steps > 0, "[OneCycleLrScheduler] total_steps must be at least 1, got 0");
    BURN_CHECK(std::isfinite(pct_start) && pct_start >= 0 && pct_start <= 1,
               "[OneCycleLrScheduler] pct_start must be in [0, 1], got ", pct_start);
    check_finite_positive("OneCycleLrScheduler", "div_factor", div_factor);
    check_finite_positive("OneCycleLrScheduler", "final_div_factor", final_div_factor);
    if (momentum) check_momentum_range("OneCycleLrScheduler", *momentum);
    const double initial = max_lr / div_factor, min_lr = initial / final_div_factor;
    const double lo = momentum ? momentum->base : 0.0, hi = momentum ? momentum->max : 0.0;
    const double total = static_cast<double>(total_steps), up_end = pct_start * total - 1.0;
    // torch's phase boundaries, floating point included (0.3 * 100 - 1 is 29.000000000000004).
    if (three_phase)
        phases_ = {{up_end, initial, max_lr, hi, lo},
                   {2.0 * pct_start * total - 2.0, max_lr, initial, lo, hi},
                   {total - 1.0, initial, min_lr, hi, hi}};
    else
        phases_ = {{up_end, initial, max_lr, hi, lo}, {total - 1.0, max_lr, min_lr, lo, hi}};
}

std::pair<const OneCycleLrScheduler::Phase*, double> OneCycleLrScheduler::phase_of(std::size_t i) const {
    BURN_CHECK(i < total_steps_, "[OneCycleLrScheduler] iteration ", i,
               " is past the schedule's total_steps ", total_steps_,
               "; raise total_steps to the number of optimizer steps");
    const double step = static_cast<double>(i);
    double start_step = 0.0;
    for (std::size_t k = 0; k < phases_.size(); ++k) {
        const Phase& p = phases_[k];
        if (step <= p.end_step || k + 1 == phases_.size())
            return {&p, (step - start_step) / (p.end_step - start_step)};
        start_step = p.end_step;
    }
    return {&phases_.back(), 1.0};  // unreachable: the last phase always matches
}

double OneCycleLrScheduler::anneal(double start, double end, double pct) const {
    if (anneal_ == AnnealStrategy::linear) return (end - start) * pct + start;
    return end + (start - end) / 2.0 * (std::cos(std::numbers::pi * pct) + 1.0);
}

double OneCycleLrScheduler::lr_at(std::size_t i) const {
    const auto [p, pct] = phase_of(i);
    return anneal(p->start_lr, p->end_lr, pct);
}

std::optional<double> OneCycleLrScheduler::momentum_at(std::size_t i) const {
    if (!cycle_momentum_) return std::nullopt;
    const auto [p, pct] = phase_of(i);
    return anneal(p->start_momentum, p->end_momentum, pct);
}

OneCycleLrScheduler OneCycleLrSchedulerConfig::init() const {
    return {max_lr,
            total_steps,
            pct_start,
            anneal_strategy,
            div_factor,
            final_div_factor,
            three_phase,
            cycle_momentum ? std::optional<MomentumRange>(MomentumRange{base_momentum, max_momentum})
                           : std::nullopt};
}

CyclicLrScheduler::CyclicLrScheduler(double base_lr, double max_lr, std::size_t step_size_up,
                                     std::size_t step_size_down, CyclicLrMode mode, double gamma,
                                     std::optional<MomentumRange> momentum)
    : base_(base_lr), max_(max_lr), mode_(mode), gamma_(gamma), momentum_(momentum) {
    if (momentum) check_momentum_range("CyclicLrScheduler", *momentum);
    BURN_CHECK(std::isfinite(base_lr) && base_lr >= 0,
               "[CyclicLrScheduler] base_lr must be a finite non-negative learning rate, got ", base_lr);
    BURN_CHECK(std::isfinite(max_lr) && max_lr >= 0,
               "[CyclicLrScheduler] max_lr must be a finite non-negative learning rate, got ", max_lr);
    BURN_CHECK(step_size_up > 0, "[CyclicLrScheduler] step_size_up must be at least 1, got 0");
    check_finite_positive("CyclicLrScheduler", "gamma", gamma);
    total_size_ = static_cast<double>(step_size_up) + static_cast<double>(step_size_down);
    step_ratio_ = static_cast<double>(step_size_up) / total_size_;
}

std::pair<double, double> CyclicLrScheduler::height(std::size_t i) const {
    const double it = static_cast<double>(i);
    const double cycle = std::floor(1.0 + it / total_size_);
    const double x = 1.0 + it / total_size_ - cycle;
    const double scale = x <= step_ratio_ ? x / step_ratio_ : (x - 1.0) / (step_ratio_ - 1.0);
    switch (mode_) {
        case CyclicLrMode::triangular:
            return {scale, 1.0};
        case CyclicLrMode::triangular2:
            return {scale, 1.0 / std::pow(2.0, cycle - 1.0)};
        case CyclicLrMode::exp_range:
            return {scale, std::pow(gamma_, it)};
    }
    return {scale, 1.0};
}

// torch's products, in its order: (range * scale) * the mode's factor
double CyclicLrScheduler::lr_at(std::size_t i) const {
    const auto [scale, factor] = height(i);
    return base_ + (max_ - base_) * scale * factor;
}

std::optional<double> CyclicLrScheduler::momentum_at(std::size_t i) const {
    if (!momentum_) return std::nullopt;
    const auto [scale, factor] = height(i);
    return momentum_->max - (momentum_->max - momentum_->base) * scale * factor;
}

CyclicLrScheduler CyclicLrSchedulerConfig::init() const {
    return {base_lr,
            max_lr,
            step_size_up,
            step_size_down.value_or(step_size_up),
            mode,
            gamma,
            cycle_momentum ? std::optional<MomentumRange>(MomentumRange{base_momentum, max_momentum})
                           : std::nullopt};
}

}  // namespace burn::optim
