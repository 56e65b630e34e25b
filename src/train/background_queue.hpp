#pragma once
// One background thread that runs tasks in the order they were submitted: what the asynchronous
// checkpointer, logger and metric processing share. A build without threads (BURN_THREADS=OFF, wasm
// without pthreads) runs each task inline in submit(), so every feature built on it falls back to
// synchronous behaviour with the same results.
#include <functional>
#include <memory>
#include <string>

namespace burn::train::detail {

class BackgroundQueue {
  public:
    /// who names the feature in error messages ("AsyncCheckpointer").
    explicit BackgroundQueue(std::string who);
    /// Runs what is queued, then joins the thread (an error not yet reported by flush() is lost).
    ~BackgroundQueue();
    BackgroundQueue(const BackgroundQueue&) = delete;
    BackgroundQueue& operator=(const BackgroundQueue&) = delete;

    /// Queues task (inline: runs it, and its exception propagates).
    void submit(std::function<void()> task);
    /// Waits until every queued task has run; rethrows the first exception a task threw since the last
    /// flush (later tasks still ran).
    void flush();
    /// Whether tasks run on a thread of their own.
    bool threaded() const;

  private:
    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace burn::train::detail
