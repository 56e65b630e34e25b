#pragma once
// Locks and thread-local storage for the core. Core files name these, never std::mutex or thread_local,
// so that a build without threads (BURN_THREADS=OFF: bare metal, single-threaded WebAssembly) compiles
// the same code with no-op locks and plain statics.
#include "burn/build_config.hpp"

#if BURN_THREADS
#include <atomic>
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

#if BURN_THREADS
/// A counter several threads update (ids, live-object counts).
template <class T>
using Counter = std::atomic<T>;
#else
/// One thread only: a plain integer with std::atomic's counter interface. (32-bit targets such as
/// Cortex-M have no lock-free 64-bit atomics and no libatomic to emulate them.)
template <class T>
struct Counter {
    T value{};
    constexpr Counter(T v = T()) : value(v) {}  // NOLINT: std::atomic<T> converts the same way
    T fetch_add(T d) {
        const T old = value;
        value += d;
        return old;
    }
    T fetch_sub(T d) {
        const T old = value;
        value -= d;
        return old;
    }
    T operator++() { return ++value; }
    T load() const { return value; }
    void store(T v) { value = v; }
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
