#include "burn/data/prefetch.hpp"

#include <condition_variable>
#include <exception>
#include <mutex>
#include <vector>

#include "burn/core/error.hpp"
#include "platform/threads.hpp"

namespace burn::data {

struct Prefetcher::State {
    std::size_t n = 0, depth = 1;
    std::function<void(std::size_t)> job;
    std::mutex mutex;
    std::condition_variable work_cv, done_cv;
    std::size_t next_task = 0;           // next job a worker claims
    std::size_t released = 0;            // jobs the consumer has released
    std::vector<std::size_t> done_task;  // per slot: index of the job finished there + 1 (0: none)
    std::vector<std::exception_ptr> error;
    bool stop = false;
    bool inline_jobs = true;
    platform::ThreadGroup threads;

    void run(std::size_t t) {
        std::exception_ptr e;
        try {
            job(t);
        } catch (...) {
            e = std::current_exception();
        }
        std::lock_guard<std::mutex> lock(mutex);
        done_task[t % depth] = t + 1;
        error[t % depth] = e;
        done_cv.notify_all();
    }

    void worker() {
        for (;;) {
            std::size_t t;
            {
                std::unique_lock<std::mutex> lock(mutex);
                work_cv.wait(lock, [&] { return stop || (next_task < n && next_task < released + depth); });
                if (stop) return;
                t = next_task++;
            }
            run(t);
        }
    }
};

Prefetcher::Prefetcher(std::size_t n, int workers, std::size_t depth, std::function<void(std::size_t)> job)
    : state_(std::make_shared<State>()) {
    BURN_CHECK(depth >= 1, "[DataLoader] the prefetch depth must be at least 1");
    State& s = *state_;
    s.n = n;
    s.depth = depth;
    s.job = std::move(job);
    s.done_task.assign(depth, 0);
    s.error.assign(depth, nullptr);
    s.inline_jobs = workers <= 0 || !platform::threads_supported() || n == 0;
    if (!s.inline_jobs) {
        State* raw = state_.get();
        s.threads.start(workers, [raw](int) { raw->worker(); });
    }
}

Prefetcher::~Prefetcher() {
    {
        std::lock_guard<std::mutex> lock(state_->mutex);
        state_->stop = true;
    }
    state_->work_cv.notify_all();
    state_->threads.join();
}

std::size_t Prefetcher::size() const {
    return state_->n;
}
std::size_t Prefetcher::depth() const {
    return state_->depth;
}

void Prefetcher::wait(std::size_t i) {
    State& s = *state_;
    BURN_CHECK_KIND(i < s.n, index, "[DataLoader] batch ", i, " requested from a pass of ", s.n, " batches");
    if (s.inline_jobs) {
        s.run(i);
    } else {
        std::unique_lock<std::mutex> lock(s.mutex);
        BURN_CHECK(i == s.released, "[DataLoader] batches must be consumed in order: asked for ", i,
                   " while ", s.released, " is next");
        s.done_cv.wait(lock, [&] { return s.done_task[i % s.depth] == i + 1; });
    }
    std::exception_ptr e;
    {
        std::lock_guard<std::mutex> lock(s.mutex);
        e = s.error[i % s.depth];
    }
    if (e) std::rethrow_exception(e);
}

void Prefetcher::release(std::size_t i) {
    State& s = *state_;
    {
        std::lock_guard<std::mutex> lock(s.mutex);
        s.done_task[i % s.depth] = 0;
        s.error[i % s.depth] = nullptr;
        if (i + 1 > s.released) s.released = i + 1;
    }
    s.work_cv.notify_all();
}

}  // namespace burn::data
