#pragma once
/// AsyncLogger (burn's AsyncLogger): a MetricsRenderer that hands every event to another renderer on a
/// background thread, in order, so that slow logs (files, TensorBoard) do not hold up training. The
/// events are copied; finish() waits for the queue, then finishes the inner renderer.
///
///     training.async_logger();   // the file loggers of SupervisedTraining go through one
///     auto logger = std::make_shared<train::AsyncLogger>(my_renderer);   // or wrap any renderer
///
/// stop_requested() is the inner renderer's answer as of the last event it handled. Without threads
/// (BURN_THREADS=OFF) each event is handled before the call returns.
#include <atomic>
#include <memory>

#include "burn/train/renderer.hpp"

namespace burn::train {

namespace detail {
class BackgroundQueue;
}

class AsyncLogger final : public MetricsRenderer {
  public:
    explicit AsyncLogger(std::shared_ptr<MetricsRenderer> inner);
    ~AsyncLogger() override;
    void update(const TrainingProgress& progress, const std::vector<MetricState>& metrics) override;
    void epoch_end(const EpochRecord& record) override;
    void message(const std::string& line) override;
    /// Waits for the queued events (rethrowing the first error of one), then finishes the inner renderer.
    void finish() override;
    bool stop_requested() override { return stop_.load(); }
    /// Waits until the inner renderer has handled every event so far; rethrows the first error.
    void flush();

  private:
    void post(std::function<void()> event);
    std::shared_ptr<MetricsRenderer> inner_;
    std::atomic<bool> stop_{false};
    std::unique_ptr<detail::BackgroundQueue> queue_;
};

}  // namespace burn::train
