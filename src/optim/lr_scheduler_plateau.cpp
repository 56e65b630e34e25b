// ReduceLROnPlateau (torch 1.13's rules).
#include "burn/optim/lr_scheduler_plateau.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "burn/core/error.hpp"

namespace burn::optim {

ReduceLrOnPlateau::ReduceLrOnPlateau(const ReduceLrOnPlateauConfig& c) : c_(c), lr_(c.initial_lr) {
    BURN_CHECK(std::isfinite(c.initial_lr) && c.initial_lr >= 0,
               "[ReduceLrOnPlateau] initial_lr must be a finite non-negative learning rate, got ",
               c.initial_lr);
    BURN_CHECK(std::isfinite(c.factor) && c.factor >= 0 && c.factor < 1,
               "[ReduceLrOnPlateau] factor must be in [0, 1) (a reduction), got ", c.factor);
    BURN_CHECK(std::isfinite(c.threshold) && c.threshold >= 0,
               "[ReduceLrOnPlateau] threshold must be a finite non-negative number, got ", c.threshold);
    BURN_CHECK(std::isfinite(c.min_lr) && c.min_lr >= 0,
               "[ReduceLrOnPlateau] min_lr must be a finite non-negative learning rate, got ", c.min_lr);
    BURN_CHECK(std::isfinite(c.eps) && c.eps >= 0,
               "[ReduceLrOnPlateau] eps must be a finite non-negative number, got ", c.eps);
    best_ = c.mode == PlateauMode::min ? std::numeric_limits<double>::infinity()
                                       : -std::numeric_limits<double>::infinity();
}

bool ReduceLrOnPlateau::is_better(double a) const {
    const bool rel = c_.threshold_mode == ThresholdMode::rel;
    if (c_.mode == PlateauMode::min) return rel ? a < best_ * (1.0 - c_.threshold) : a < best_ - c_.threshold;
    return rel ? a > best_ * (c_.threshold + 1.0) : a > best_ + c_.threshold;
}

void ReduceLrOnPlateau::observe(double metric) {
    BURN_CHECK(!std::isnan(metric), "[ReduceLrOnPlateau::observe] the metric is NaN at epoch ",
               last_epoch_ + 1, "; check the loss for divergence");
    ++last_epoch_;
    if (is_better(metric)) {
        best_ = metric;
        num_bad_epochs_ = 0;
    } else {
        ++num_bad_epochs_;
    }
    if (cooldown_counter_ > 0) {  // in cooldown: bad epochs do not count
        --cooldown_counter_;
        num_bad_epochs_ = 0;
    }
    if (num_bad_epochs_ > c_.patience) {
        const double reduced = std::max(lr_ * c_.factor, c_.min_lr);
        if (lr_ - reduced > c_.eps) lr_ = reduced;
        cooldown_counter_ = c_.cooldown;
        num_bad_epochs_ = 0;
    }
}

LrSchedulerRecord ReduceLrOnPlateau::to_record() const {
    return {{{"lr", lr_},
             {"best", best_},
             {"num_bad_epochs", static_cast<double>(num_bad_epochs_)},
             {"cooldown_counter", static_cast<double>(cooldown_counter_)},
             {"last_epoch", static_cast<double>(last_epoch_)}}};
}

void ReduceLrOnPlateau::load_record(const LrSchedulerRecord& record) {
    auto read = [&](const char* key) {
        auto it = record.scalars.find(key);
        BURN_CHECK(it != record.scalars.end(), "[ReduceLrOnPlateau::load_record] the record has no '", key,
                   "'; was it saved by another scheduler?");
        return it->second;
    };
    auto count = [&](const char* key) {
        const double v = read(key);
        BURN_CHECK(v >= 0 && v < 9.0e15 && v == std::floor(v), "[ReduceLrOnPlateau::load_record] '", key,
                   "' must be a non-negative integer, got ", v);
        return static_cast<std::size_t>(v);
    };
    BURN_CHECK(record.scalars.size() == 5, "[ReduceLrOnPlateau::load_record] expected 5 scalars (lr, best, ",
               "num_bad_epochs, cooldown_counter, last_epoch), got ", record.scalars.size());
    const double lr = read("lr");
    BURN_CHECK(std::isfinite(lr) && lr >= 0,
               "[ReduceLrOnPlateau::load_record] 'lr' must be a finite non-negative ", "learning rate, got ",
               lr);
    const double best = read("best");
    const std::size_t bad = count("num_bad_epochs"), cooldown = count("cooldown_counter"),
                      epoch = count("last_epoch");
    lr_ = lr, best_ = best, num_bad_epochs_ = bad, cooldown_counter_ = cooldown, last_epoch_ = epoch;
}

}  // namespace burn::optim
