#include "platform/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <vector>

#if (defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)) || defined(BURN_NO_THREADS)
#define BURN_SERIAL 1
#else
#include <condition_variable>
#include <mutex>
#include <thread>
#endif

namespace burn::platform {

#ifdef BURN_SERIAL

int hardware_threads() { return 1; }
void set_threads(int) {}
int threads() { return 1; }
void parallel_for(int64_t n, int64_t, const std::function<void(int64_t, int64_t)>& fn) {
    if (n > 0) fn(0, n);
}

#else

namespace {

thread_local bool t_in_parallel = false;

// A fixed pool: workers sleep on a condition variable between jobs; the caller takes a share too.
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
        size_ = std::max(1, n);
        // New workers must not run the job of an earlier generation (its function is gone).
        const uint64_t gen = generation_;
        for (int i = 1; i < size_; ++i) workers_.emplace_back([this, i, gen] { worker(i, gen); });
    }

    void run(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& fn) {
        std::lock_guard<std::mutex> run(run_mutex_);  // one job at a time across caller threads
        int64_t parts = std::min<int64_t>(size_, std::max<int64_t>(1, n / std::max<int64_t>(grain, 1)));
        if (parts <= 1) {
            fn(0, n);
            return;
        }
        {
            std::lock_guard<std::mutex> lock(mutex_);
            job_ = &fn;
            job_n_ = n;
            job_parts_ = parts;
            pending_.store(static_cast<int>(parts) - 1);
            ++generation_;
        }
        cv_.notify_all();
        t_in_parallel = true;
        chunk(0);
        t_in_parallel = false;
        // Wait for the workers' chunks: spin briefly, then sleep.
        for (int spin = 0; pending_.load(std::memory_order_acquire) != 0; ++spin) {
            if (spin > 4000) {
                std::unique_lock<std::mutex> lock(mutex_);
                done_cv_.wait(lock, [this] { return pending_.load() == 0; });
                break;
            }
        }
    }

    ~Pool() { stop_workers(); }

private:
    Pool() {
        int n = hardware_threads();
        if (const char* env = std::getenv("BURN_NUM_THREADS")) n = std::max(1, std::atoi(env));
        size_ = 1;
        resize(n);
    }

    void chunk(int64_t part) {
        int64_t begin = job_n_ * part / job_parts_;
        int64_t end = job_n_ * (part + 1) / job_parts_;
        if (begin < end) (*job_)(begin, end);
    }

    void worker(int index, uint64_t seen) {
        t_in_parallel = true;
        for (;;) {
            std::unique_lock<std::mutex> lock(mutex_);
            cv_.wait(lock, [&] { return stop_ || generation_ != seen; });
            if (stop_) return;
            seen = generation_;
            int64_t parts = job_parts_;
            lock.unlock();
            if (index < parts) {
                chunk(index);
                if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
                    std::lock_guard<std::mutex> g(mutex_);
                    done_cv_.notify_all();
                }
            }
        }
    }

    void stop_workers() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            stop_ = true;
        }
        cv_.notify_all();
        for (auto& w : workers_) w.join();
        workers_.clear();
        stop_ = false;
    }

    std::mutex run_mutex_;
    std::mutex mutex_;
    std::condition_variable cv_, done_cv_;
    std::vector<std::thread> workers_;
    const std::function<void(int64_t, int64_t)>* job_ = nullptr;
    int64_t job_n_ = 0, job_parts_ = 0;
    std::atomic<int> pending_{0};
    uint64_t generation_ = 0;
    bool stop_ = false;
    int size_ = 1;
};

}  // namespace

int hardware_threads() {
    unsigned n = std::thread::hardware_concurrency();
    return n ? static_cast<int>(n) : 1;
}

void set_threads(int n) { Pool::get().resize(n <= 0 ? hardware_threads() : n); }

int threads() { return Pool::get().size(); }

void parallel_for(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& fn) {
    if (n <= 0) return;
    if (t_in_parallel || n < 2 * grain || Pool::get().size() <= 1) {
        fn(0, n);
        return;
    }
    Pool::get().run(n, grain, fn);
}

#endif

}  // namespace burn::platform
