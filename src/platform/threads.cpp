#include "platform/threads.hpp"

#include <vector>

#include "burn/build_config.hpp"
#include "burn/core/error.hpp"
#if (defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)) || !BURN_THREADS
#define BURN_SERIAL 1
#else
#include <thread>
#endif

namespace burn::platform {

#ifdef BURN_SERIAL

struct ThreadGroup::Impl {};
bool threads_supported() {
    return false;
}
ThreadGroup::ThreadGroup() = default;
ThreadGroup::~ThreadGroup() = default;
void ThreadGroup::start(int, const std::function<void(int)>&) {
    BURN_THROW("[threads] this build has no threads (BURN_THREADS=OFF, or wasm without pthreads)");
}
void ThreadGroup::join() {}

#else

struct ThreadGroup::Impl {
    std::vector<std::thread> threads;
};

bool threads_supported() {
    return true;
}
ThreadGroup::ThreadGroup() : impl_(std::make_unique<Impl>()) {}
ThreadGroup::~ThreadGroup() {
    join();
}

void ThreadGroup::start(int n, const std::function<void(int)>& fn) {
    for (int i = 0; i < n; ++i) impl_->threads.emplace_back([fn, i] { fn(i); });
}

void ThreadGroup::join() {
    for (auto& t : impl_->threads)
        if (t.joinable()) t.join();
    impl_->threads.clear();
}

#endif

}  // namespace burn::platform
