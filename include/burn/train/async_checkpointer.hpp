#pragma once
/// AsyncCheckpointer (burn's AsyncCheckpointer): writes checkpoints on a background thread, so the
/// training thread does not wait for encoding, disk writes and fsync. save() copies the records (a
/// memory copy of the tensors, so training may go on changing the model) and returns; the writes
/// happen in order, each still atomic, so a crash leaves only complete checkpoints as before.
///
///     train::SupervisedTraining(dir, train, valid).with_default_checkpointers().async_checkpointer();
///
/// Without threads (BURN_THREADS=OFF, wasm without pthreads) save() writes before returning.
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "burn/train/checkpoint.hpp"

namespace burn::train {

namespace detail {
class BackgroundQueue;
}

class AsyncCheckpointer {
  public:
    explicit AsyncCheckpointer(Checkpointer checkpointer);
    /// Waits for the queued writes (an error among them is lost here: call flush() to see it).
    ~AsyncCheckpointer();
    AsyncCheckpointer(const AsyncCheckpointer&) = delete;
    AsyncCheckpointer& operator=(const AsyncCheckpointer&) = delete;

    /// Queues Checkpointer::save of a copy of parts.
    void save(const CheckpointInfo& info, const std::map<std::string, CheckpointRecord>& parts,
              const config::Value& state);
    /// Queues f(checkpointer) after the writes queued so far (pruning old checkpoints).
    void then(std::function<void(Checkpointer&)> f);
    /// Waits until every queued write is on disk; rethrows the first error of one (burn::IoError, ...).
    void flush();
    /// The wrapped checkpointer; flush() before reading through it.
    const Checkpointer& checkpointer() const { return *checkpointer_; }

  private:
    std::shared_ptr<Checkpointer> checkpointer_;
    std::unique_ptr<detail::BackgroundQueue> queue_;
};

}  // namespace burn::train
