#pragma once
/// ReduceLROnPlateau (torch.optim.lr_scheduler.ReduceLROnPlateau): the learning rate drops by factor
/// when a watched metric stops improving.
///
///     optim::ReduceLrOnPlateau plateau(optim::ReduceLrOnPlateauConfig{1e-3}.with_patience(5));
///     for (int epoch = 0; ...) {
///         for (auto& batch : batches) model = optimizer.step(plateau.step(), std::move(model), grads);
///         plateau.observe(validation_loss);  // torch's scheduler.step(val_loss)
///     }
///
/// step() returns the current rate and does not change it; observe(metric) ends an epoch.
#include <cstddef>
#include <memory>

#include "burn/config/config.hpp"
#include "burn/optim/lr_scheduler.hpp"

namespace burn::optim {

enum class PlateauMode { min, max };
BURN_ENUM(PlateauMode, min, max)
enum class ThresholdMode { rel, abs };
BURN_ENUM(ThresholdMode, rel, abs)

/// torch's settings and defaults. A metric improves on the best so far when (mode min) it is below
/// best * (1 - threshold) (rel) or best - threshold (abs); mode max mirrors it. After more than patience
/// epochs without improvement, lr = max(lr * factor, min_lr) (unless that changes it by eps or less),
/// then cooldown epochs pass before bad epochs count again.
struct ReduceLrOnPlateauConfig {
    double initial_lr = 0.0;
    PlateauMode mode = PlateauMode::min;
    double factor = 0.1;
    std::size_t patience = 10;
    double threshold = 1e-4;
    ThresholdMode threshold_mode = ThresholdMode::rel;
    std::size_t cooldown = 0;
    double min_lr = 0.0;
    double eps = 1e-8;
    BURN_CONFIG(ReduceLrOnPlateauConfig, initial_lr, mode, factor, patience, threshold, threshold_mode,
                cooldown, min_lr, eps)
};

class ReduceLrOnPlateau final : public LrScheduler {
  public:
    explicit ReduceLrOnPlateau(const ReduceLrOnPlateauConfig& config);
    /// The current learning rate (unchanged by the call).
    double step() override { return lr_; }
    /// Reports the metric of the epoch that just ended; may lower the learning rate.
    void observe(double metric);
    /// State: lr, best, num_bad_epochs, cooldown_counter, last_epoch.
    LrSchedulerRecord to_record() const override;
    void load_record(const LrSchedulerRecord& record) override;
    std::unique_ptr<LrScheduler> clone() const override { return std::make_unique<ReduceLrOnPlateau>(*this); }
    const char* name() const override { return "ReduceLrOnPlateau"; }
    double lr() const { return lr_; }
    double best() const { return best_; }

  private:
    bool is_better(double a) const;

    ReduceLrOnPlateauConfig c_;
    double lr_, best_;
    std::size_t num_bad_epochs_ = 0, cooldown_counter_ = 0, last_epoch_ = 0;
};

}  // namespace burn::optim
