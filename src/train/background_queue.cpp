#include "train/background_queue.hpp"

#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>

#include "platform/threads.hpp"

namespace burn::train::detail {

struct BackgroundQueue::State {
    std::string who;
    std::mutex mutex;
    std::condition_variable work_cv, idle_cv;
    std::deque<std::function<void()>> tasks;
    bool busy = false, stop = false, threaded = false;
    std::exception_ptr error;
    platform::ThreadGroup thread;

    void worker() {
        std::unique_lock<std::mutex> lock(mutex);
        for (;;) {
            work_cv.wait(lock, [&] { return stop || !tasks.empty(); });
            if (tasks.empty()) return;  // stop, and nothing left to run
            std::function<void()> task = std::move(tasks.front());
            tasks.pop_front();
            busy = true;
            lock.unlock();
            std::exception_ptr e;
            try {
                task();
            } catch (...) {
                e = std::current_exception();
            }
            task = nullptr;  // what it captured is released before the queue counts as idle
            lock.lock();
            if (e && !error) error = e;
            busy = false;
            if (tasks.empty()) idle_cv.notify_all();
        }
    }
};

BackgroundQueue::BackgroundQueue(std::string who) : state_(std::make_unique<State>()) {
    state_->who = std::move(who);
    state_->threaded = platform::threads_supported();
    if (state_->threaded) {
        State* s = state_.get();
        s->thread.start(1, [s](int) { s->worker(); });
    }
}

BackgroundQueue::~BackgroundQueue() {
    if (!state_->threaded) return;
    {
        std::lock_guard<std::mutex> lock(state_->mutex);
        state_->stop = true;
    }
    state_->work_cv.notify_all();
    state_->thread.join();
}

void BackgroundQueue::submit(std::function<void()> task) {
    State& s = *state_;
    if (!s.threaded) {
        task();
        return;
    }
    {
        std::lock_guard<std::mutex> lock(s.mutex);
        s.tasks.push_back(std::move(task));
    }
    s.work_cv.notify_one();
}

void BackgroundQueue::flush() {
    State& s = *state_;
    if (!s.threaded) return;
    std::exception_ptr e;
    {
        std::unique_lock<std::mutex> lock(s.mutex);
        s.idle_cv.wait(lock, [&] { return s.tasks.empty() && !s.busy; });
        e = s.error;
        s.error = nullptr;
    }
    if (e) std::rethrow_exception(e);
}

bool BackgroundQueue::threaded() const {
    return state_->threaded;
}

}  // namespace burn::train::detail
