#pragma once
/// MetricLogger (burn's MetricLogger): where the loop's metric values go. The default writes
/// metrics/<split>/<metric>.csv (one line per epoch); `with_metric_logger` replaces it with loggers of
/// your own (a database, a remote tracker, memory):
///
///     struct Tracker final : train::MetricLogger {
///         void log(const train::TrainingProgress& p, const std::vector<train::MetricState>& m) override;
///         void end_epoch(const train::EpochRecord& record) override;
///     };
///     training.with_metric_logger(std::make_shared<Tracker>());
///
/// Loggers run on the training thread, or on the logger thread with async_logger().
#include "burn/train/renderer.hpp"

namespace burn::train {

class MetricLogger {
  public:
    virtual ~MetricLogger() = default;
    /// After every train and valid iteration: the split's metrics (batch value `last`, epoch aggregate
    /// so far `value`).
    virtual void log(const TrainingProgress& progress, const std::vector<MetricState>& metrics) = 0;
    /// At the end of every epoch: both splits' aggregates.
    virtual void end_epoch(const EpochRecord& record) = 0;
};

}  // namespace burn::train
