// The thread pool behind platform::parallel_for. Beyond parallel.hpp's contract: the chunk bounds
// depend only on (n, grain, thread count), not on which thread runs which chunk; an exception thrown
// by fn reaches the caller of parallel_for (the first one; chunks not yet started are skipped).
#include "platform/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <exception>
#include <vector>

#include "burn/build_config.hpp"
#include "burn/core/error.hpp"
#include "platform/env.hpp"
#if (defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)) || !BURN_THREADS
#define BURN_SERIAL 1
#else
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <utility>
#endif

namespace burn::platform {

int parse_num_threads(const std::string& text) {
    const char* s = text.c_str();
    while (*s == ' ' || *s == '\t') ++s;
    char* end = nullptr;
    const long v = *s >= '0' && *s <= '9' ? std::strtol(s, &end, 10) : 0;
    if (end)
        while (*end == ' ' || *end == '\t') ++end;
    BURN_CHECK(end && *end == '\0' && v >= 1 && v <= 65535, "[BURN_NUM_THREADS] '", text,
               "' is not a thread count: set it to a positive integer such as 4, or unset it to use every ",
               "hardware thread");
    return static_cast<int>(v);
}

#ifdef BURN_SERIAL

int hardware_threads() {
    return 1;
}
void set_threads(int) {}
int threads() {
    return 1;
}
void parallel_for(int64_t n, int64_t, FunctionRef<void(int64_t, int64_t)> fn) {
    if (n > 0) fn(0, n);
}

#else

namespace {

thread_local bool t_in_parallel = false;

// Tuning, measured on a 2-core AVX-512 VM with memory-bound elementwise loops (docs/benchmarks.md):
// - a job is cut into up to kChunksPerThread chunks per thread, handed out from a shared counter, so
//   that a thread which starts late (a worker waking from sleep, a core taken by another process)
//   takes fewer chunks instead of holding the whole job up;
// - workers spin briefly after a job (ops come in quick succession: x * y + z, then relu) before
//   sleeping on a condition variable; the spin yields the core so that it costs little when the
//   machine is shared (OpenBLAS threads, other processes).
constexpr int64_t kChunksPerThread = 4;
constexpr int64_t kAlignElems = 64;  // chunk bounds on multiples of this: no shared cache lines
constexpr auto kPauseSpin = std::chrono::microseconds(2);
constexpr auto kYieldSpin = std::chrono::microseconds(50);

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
}

// Spins until done() holds or the spin budget runs out; true if done() held.
template <class F>
bool spin_until(F&& done) {
    using clock = std::chrono::steady_clock;
    const auto start = clock::now();
    for (int i = 0;; ++i) {
        if (done()) return true;
        if ((i & 63) == 63) {
            auto waited = clock::now() - start;
            if (waited > kYieldSpin) return false;
            if (waited > kPauseSpin) std::this_thread::yield();
        } else {
            cpu_relax();
        }
    }
}

#ifdef __EMSCRIPTEN_PTHREADS__
// A thread past the web workers started before main (PTHREAD_POOL_SIZE) would need the event loop that a
// blocked caller never returns to: the pool stays inside them (cmake/wasm.cmake).
constexpr int kMaxPoolThreads = BURN_WASM_MAX_THREADS;
#else
constexpr int kMaxPoolThreads = 1 << 16;
#endif

// A fixed pool. The caller of run() publishes a job and takes chunks too. A job's state is one
// 64-bit word (generation | parts | next chunk), so a worker can only claim a chunk of the job it
// read the fields of: the fields stay put until every claimed chunk has finished.
class Pool {
  public:
    static Pool& get() {
        static Pool pool;
        return pool;
    }

    int size() const { return size_; }

    void resize(int n) {
        std::lock_guard<std::mutex> run(run_mutex_);
        stop_workers();
        size_ = std::clamp(n, 1, kMaxPoolThreads);
        // No job is running (run_mutex_): workers wait for a generation after the current one.
        const uint64_t seen = gen_of(state_.load(std::memory_order_acquire));
        for (int i = 1; i < size_; ++i) workers_.emplace_back([this, seen] { worker(seen); });
    }

    void run(int64_t n, int64_t grain, const FunctionRef<void(int64_t, int64_t)>& fn) {
        std::lock_guard<std::mutex> run(run_mutex_);  // one job at a time across caller threads
        int64_t parts = std::min<int64_t>(size_ * kChunksPerThread, n / std::max<int64_t>(grain, 1));
        parts = std::min<int64_t>(parts, kMaxParts);
        if (parts <= 1 || size_ <= 1) {
            fn(0, n);
            return;
        }
        job_ = &fn;
        job_n_ = n;
        error_ = nullptr;
        failed_.store(false, std::memory_order_relaxed);
        remaining_.store(parts, std::memory_order_relaxed);
        generation_ = (generation_ + 1) & 0xffffffffu;
        state_.store(pack(generation_, parts, 0), std::memory_order_seq_cst);
        if (sleepers_.load(std::memory_order_seq_cst) > 0) {
            std::lock_guard<std::mutex> lock(mutex_);
            cv_.notify_all();
        }
        t_in_parallel = true;
        work(generation_);
        t_in_parallel = false;
        if (!spin_until([this] { return remaining_.load(std::memory_order_acquire) == 0; })) {
            std::unique_lock<std::mutex> lock(mutex_);
            caller_waiting_.store(true, std::memory_order_seq_cst);
            done_cv_.wait(lock, [this] { return remaining_.load(std::memory_order_seq_cst) == 0; });
            caller_waiting_.store(false, std::memory_order_relaxed);
        }
        if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
    }

    ~Pool() { stop_workers(); }

  private:
    static constexpr int64_t kMaxParts = 0xffff;

    static uint64_t pack(uint64_t gen, int64_t parts, int64_t next) {
        return gen << 32 | static_cast<uint64_t>(parts) << 16 | static_cast<uint64_t>(next);
    }
    static uint64_t gen_of(uint64_t s) { return s >> 32; }

    Pool() {
        int n = hardware_threads();
        if (auto env = env_var("BURN_NUM_THREADS")) n = parse_num_threads(*env);
        size_ = 1;
        resize(n);
    }

    // Claims and runs chunks of job gen until none is left (or a newer job replaced it).
    void work(uint64_t gen) {
        uint64_t s = state_.load(std::memory_order_acquire);
        for (;;) {
            if (gen_of(s) != gen) return;
            const int64_t parts = static_cast<int64_t>((s >> 16) & 0xffff);
            const int64_t part = static_cast<int64_t>(s & 0xffff);
            if (part >= parts) return;
            if (!state_.compare_exchange_weak(s, s + 1, std::memory_order_acq_rel, std::memory_order_acquire))
                continue;
            // Claimed: the job's fields cannot change until remaining_ drops to zero.
            const int64_t n = job_n_;
            int64_t begin = n * part / parts, end = n * (part + 1) / parts;
            if (n / parts >= 16 * kAlignElems) {
                begin -= begin % kAlignElems;
                if (part + 1 < parts) end -= end % kAlignElems;
            }
            if (begin < end && !failed_.load(std::memory_order_relaxed)) {
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
                try {
                    (*job_)(begin, end);
                } catch (...) {  // kept for the caller; the job's other chunks are skipped
                    std::lock_guard<std::mutex> lock(error_mutex_);
                    if (!error_) error_ = std::current_exception();
                    failed_.store(true, std::memory_order_relaxed);
                }
#else
                (*job_)(begin, end);  // an error calls the installed handler and aborts
#endif
            }
            if (remaining_.fetch_sub(1, std::memory_order_seq_cst) == 1 &&
                caller_waiting_.load(std::memory_order_seq_cst)) {
                std::lock_guard<std::mutex> lock(mutex_);
                done_cv_.notify_all();
            }
            s = state_.load(std::memory_order_acquire);
        }
    }

    void worker(uint64_t seen) {
        t_in_parallel = true;
        for (;;) {
            auto fresh = [&] {
                return stop_.load(std::memory_order_acquire) ||
                       gen_of(state_.load(std::memory_order_seq_cst)) != seen;
            };
            if (!spin_until(fresh)) {
                std::unique_lock<std::mutex> lock(mutex_);
                sleepers_.fetch_add(1, std::memory_order_seq_cst);
                cv_.wait(lock, fresh);
                sleepers_.fetch_sub(1, std::memory_order_relaxed);
            }
            if (stop_.load(std::memory_order_acquire)) return;
            seen = gen_of(state_.load(std::memory_order_acquire));
            work(seen);
        }
    }

    void stop_workers() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            stop_.store(true, std::memory_order_seq_cst);
        }
        cv_.notify_all();
        for (auto& w : workers_) w.join();
        workers_.clear();
        stop_.store(false, std::memory_order_seq_cst);
    }

    std::mutex run_mutex_;
    std::mutex mutex_;
    std::condition_variable cv_, done_cv_;
    std::vector<std::thread> workers_;
    const FunctionRef<void(int64_t, int64_t)>* job_ = nullptr;
    int64_t job_n_ = 0;
    uint64_t generation_ = 0;
    std::atomic<uint64_t> state_{0};
    std::atomic<int64_t> remaining_{0};
    std::atomic<int> sleepers_{0};
    std::atomic<bool> caller_waiting_{false};
    std::atomic<bool> stop_{false};
    std::atomic<bool> failed_{false};
    std::mutex error_mutex_;
    std::exception_ptr error_;  // the first exception a chunk threw
    int size_ = 1;
};

}  // namespace

int hardware_threads() {
    unsigned n = std::thread::hardware_concurrency();
    return n ? static_cast<int>(n) : 1;
}

void set_threads(int n) {
    Pool::get().resize(n <= 0 ? hardware_threads() : n);
}

int threads() {
    return Pool::get().size();
}

void parallel_for(int64_t n, int64_t grain, FunctionRef<void(int64_t, int64_t)> fn) {
    if (n <= 0) return;
    if (t_in_parallel || n < 2 * grain || Pool::get().size() <= 1) {
        fn(0, n);
        return;
    }
    Pool::get().run(n, grain, fn);
}

#endif

}  // namespace burn::platform
