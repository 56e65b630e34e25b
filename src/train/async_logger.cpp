#include "burn/train/async_logger.hpp"

#include "burn/core/error.hpp"
#include "train/background_queue.hpp"

namespace burn::train {

AsyncLogger::AsyncLogger(std::shared_ptr<MetricsRenderer> inner)
    : inner_(std::move(inner)), queue_(std::make_unique<detail::BackgroundQueue>("AsyncLogger")) {
    BURN_CHECK(inner_ != nullptr, "[AsyncLogger] the inner renderer is null");
}

AsyncLogger::~AsyncLogger() {
    queue_.reset();  // drains and joins before inner_ goes
}

void AsyncLogger::post(std::function<void()> event) {
    queue_->submit([this, event = std::move(event)] {
        event();
        if (inner_->stop_requested()) stop_.store(true);
    });
}

void AsyncLogger::update(const TrainingProgress& progress, const std::vector<MetricState>& metrics) {
    post([this, progress, metrics] { inner_->update(progress, metrics); });
}

void AsyncLogger::epoch_end(const EpochRecord& record) {
    post([this, record] { inner_->epoch_end(record); });
}

void AsyncLogger::message(const std::string& line) {
    post([this, line] { inner_->message(line); });
}

void AsyncLogger::flush() {
    queue_->flush();
}

void AsyncLogger::finish() {
    queue_->flush();
    inner_->finish();
}

}  // namespace burn::train
