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

}  // namespace

OneCycleLrScheduler::OneCycleLrScheduler(double max_lr, std::size_t total_steps, double pct_start,
                                         AnnealStrategy anneal, double div_factor, double final_div_factor,
                                         bool three_phase)
    : total_steps_(total_steps), anneal_(anneal) {
    BURN_CHECK(std::isfinite(max_lr) && max_lr >= 0,
               "[OneCycleLrScheduler] max_lr must be a finite non-negative learning rate, got ", max_lr);
    BURN_CHECK(total_steps > 0, "[OneCycleLrScheduler] total_steps must be at least 1, got 0");
    BURN_CHECK(std::isfinite(pct_start) && pct_start >= 0 && pct_start <= 1,
               "[OneCycleLrScheduler] pct_start must be in [0, 1], got ", pct_start);
    check_finite_positive("OneCycleLrScheduler", "div_factor", div_factor);
    check_finite_positive("OneCycleLrScheduler", "final_div_factor", final_div_factor);
    const double initial = max_lr / div_factor, min_lr = initial / final_div_factor;
    const double total = static_cast<double>(total_steps), up_end = pct_start * total - 1.0;
    // torch's phase boundaries, floating point included (0.3 * 100 - 1 is 29.000000000000004).
    if (three_phase)
        phases_ = {{up_end, initial, max_lr},
                   {2.0 * pct_start * total - 2.0, max_lr, initial},
                   {total - 1.0, initial, min_lr}};
    else
        phases_ = {{up_end, initial, max_lr}, {total - 1.0, max_lr, min_lr}};
}

double OneCycleLrScheduler::lr_at(std::size_t i) const {
    BURN_CHECK(i < total_steps_, "[OneCycleLrScheduler] iteration ", i,
               " is past the schedule's total_steps ", total_steps_,
               "; raise total_steps to the number of optimizer steps");
    const double step = static_cast<double>(i);
    double start_step = 0.0;
    for (std::size_t k = 0; k < phases_.size(); ++k) {
        const Phase& p = phases_[k];
        if (step <= p.end_step || k + 1 == phases_.size()) {
            const double pct = (step - start_step) / (p.end_step - start_step);
            if (anneal_ == AnnealStrategy::linear) return (p.end_lr - p.start_lr) * pct + p.start_lr;
            return p.end_lr + (p.start_lr - p.end_lr) / 2.0 * (std::cos(std::numbers::pi * pct) + 1.0);
        }
        start_step = p.end_step;
    }
    return phases_.back().end_lr;  // unreachable: the last phase always matches
}

OneCycleLrScheduler OneCycleLrSchedulerConfig::init() const {
    return {max_lr, total_steps, pct_start, anneal_strategy, div_factor, final_div_factor, three_phase};
}

CyclicLrScheduler::CyclicLrScheduler(double base_lr, double max_lr, std::size_t step_size_up,
                                     std::size_t step_size_down, CyclicLrMode mode, double gamma)
    : base_(base_lr), max_(max_lr), mode_(mode), gamma_(gamma) {
    BURN_CHECK(std::isfinite(base_lr) && base_lr >= 0,
               "[CyclicLrScheduler] base_lr must be a finite non-negative learning rate, got ", base_lr);
    BURN_CHECK(std::isfinite(max_lr) && max_lr >= 0,
               "[CyclicLrScheduler] max_lr must be a finite non-negative learning rate, got ", max_lr);
    BURN_CHECK(step_size_up > 0, "[CyclicLrScheduler] step_size_up must be at least 1, got 0");
    check_finite_positive("CyclicLrScheduler", "gamma", gamma);
    total_size_ = static_cast<double>(step_size_up) + static_cast<double>(step_size_down);
    step_ratio_ = static_cast<double>(step_size_up) / total_size_;
}

double CyclicLrScheduler::lr_at(std::size_t i) const {
    const double it = static_cast<double>(i);
    const double cycle = std::floor(1.0 + it / total_size_);
    const double x = 1.0 + it / total_size_ - cycle;
    const double scale = x <= step_ratio_ ? x / step_ratio_ : (x - 1.0) / (step_ratio_ - 1.0);
    const double height = (max_ - base_) * scale;
    switch (mode_) {
        case CyclicLrMode::triangular:
            return base_ + height;
        case CyclicLrMode::triangular2:
            return base_ + height * (1.0 / std::pow(2.0, cycle - 1.0));
        case CyclicLrMode::exp_range:
            return base_ + height * std::pow(gamma_, it);
    }
    return base_ + height;
}

CyclicLrScheduler CyclicLrSchedulerConfig::init() const {
    return {base_lr, max_lr, step_size_up, step_size_down.value_or(step_size_up), mode, gamma};
}

}  // namespace burn::optim
