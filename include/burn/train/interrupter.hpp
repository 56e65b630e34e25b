#pragma once
/// Interrupter: asks a running SupervisedTraining to stop. The loop finishes the current step, writes
/// a checkpoint (when checkpointing is on) and returns normally. Copies share one flag, so keep one and
/// call stop() from anywhere (another thread, a callback).
#include <atomic>
#include <memory>

namespace burn::train {

class Interrupter {
  public:
    Interrupter() : flag_(std::make_shared<std::atomic<bool>>(false)) {}
    void stop() { flag_->store(true); }
    void reset() { flag_->store(false); }
    bool should_stop() const { return flag_->load(); }

  private:
    std::shared_ptr<std::atomic<bool>> flag_;
};

}  // namespace burn::train
