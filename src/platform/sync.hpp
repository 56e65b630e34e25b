#pragma once
// Locks and thread-local storage for the core. Core files name these, never std::mutex or thread_local,
// so that a build without threads (BURN_THREADS=OFF: bare metal, single-threaded WebAssembly) compiles
// the same code with no-op locks and plain statics.
#include "burn/build_config.hpp"

#if BURN_THREADS
#include <mutex>
#define BURN_THREAD_LOCAL thread_local
#else
#define BURN_THREAD_LOCAL
#endif

namespace burn::platform {

#if BURN_THREADS
using Mutex = std::mutex;
#else
/// One thread only: nothing to exclude.
struct Mutex {
    void lock() {}
    void unlock() {}
    bool try_lock() { return true; }
};
#endif

/// Holds a Mutex for its scope (std::lock_guard, without needing <mutex> where there are no threads).
class Lock {
  public:
    explicit Lock(Mutex& m) : m_(m) { m_.lock(); }
    ~Lock() { m_.unlock(); }
    Lock(const Lock&) = delete;
    Lock& operator=(const Lock&) = delete;

  private:
    Mutex& m_;
};

}  // namespace burn::platform
