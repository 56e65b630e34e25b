#pragma once
// Worker threads for the data loader: the one place outside parallel.cpp that starts threads. A
// build without threads (wasm without pthreads, BURN_THREADS=OFF) reports threads_supported() false
// and callers run the work inline.
#include <functional>
#include <memory>

namespace burn::platform {

/// Whether this build can start threads.
bool threads_supported();

/// A group of threads running fn(worker_index), joined by join() or the destructor.
class ThreadGroup {
  public:
    ThreadGroup();
    ~ThreadGroup();
    ThreadGroup(const ThreadGroup&) = delete;
    ThreadGroup& operator=(const ThreadGroup&) = delete;

    /// Starts n threads running fn(0) .. fn(n - 1). Throws burn::Error when threads are unsupported.
    void start(int n, const std::function<void(int)>& fn);
    /// Waits for every thread to return.
    void join();

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace burn::platform
