// platform::parallel_for: coverage of [0, n), nesting, thread-count changes, errors, concurrency.
#include "platform/parallel.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

#include "burn/core/device.hpp"

namespace {

using burn::platform::parallel_for;

// Restores the library's default thread count when a test ends.
struct ThreadsGuard {
    ~ThreadsGuard() { burn::platform::set_threads(0); }
};

// Runs parallel_for(n, grain) and checks that the chunks are non-empty, in range, disjoint and
// cover every index exactly once: sorted, they must tile [0, n). Up to 65,539 indices each chunk also
// writes its indices (plain writes: two chunks writing one index would be a race ThreadSanitizer
// reports, and a count of 2 anywhere else); the 2^20-index sizes check the chunks alone, which under
// ThreadSanitizer took 35 s with a write per index. Returns the chunks seen.
std::vector<std::pair<int64_t, int64_t>> check_cover(int64_t n, int64_t grain) {
    const bool write = n <= 65539;
    std::vector<int> hits(write ? static_cast<std::size_t>(n) : 0, 0);
    std::mutex mutex;
    std::vector<std::pair<int64_t, int64_t>> chunks;
    parallel_for(n, grain, [&](int64_t b, int64_t e) {
        {
            std::lock_guard<std::mutex> lock(mutex);
            chunks.emplace_back(b, e);
        }
        if (write)
            for (int64_t i = b; i < e; ++i)
                if (i >= 0 && i < n) ++hits[static_cast<std::size_t>(i)];
    });
    auto sorted = chunks;
    std::sort(sorted.begin(), sorted.end());
    int64_t next = 0;
    for (const auto& [b, e] : sorted) {
        EXPECT_LT(b, e) << "empty chunk, n=" << n << " grain=" << grain;
        EXPECT_EQ(b, next) << "chunks overlap or leave a gap before " << b << ", n=" << n
                           << " grain=" << grain;
        next = e;
    }
    EXPECT_EQ(next, n) << "the chunks end at " << next << ", n=" << n << " grain=" << grain;
    int64_t bad = 0;
    for (int v : hits)
        if (v != 1) ++bad;
    EXPECT_EQ(bad, 0) << "indices not covered exactly once, n=" << n << " grain=" << grain;
    return chunks;
}

TEST(ParallelFor, CoversEveryIndexOnce) {
    ThreadsGuard guard;
    const int64_t sizes[] = {0, 1, 2, 3, 7, 63, 64, 65, 127, 1000, 4097, 65539, 1 << 20};
    const int64_t grains[] = {0, 1, 2, 7, 64, 1000, 32768};
    for (int threads : {1, 2, 3, 4, 7}) {
        burn::platform::set_threads(threads);
        ASSERT_EQ(burn::platform::threads(), threads);
        for (int64_t n : sizes) {
            for (int64_t grain : grains) {
                auto chunks = check_cover(n, grain);
                if (n == 0) {
                    EXPECT_TRUE(chunks.empty());
                } else if (n < 2 * std::max<int64_t>(grain, 1) || threads == 1) {
                    // Below two grains (or with one thread) the whole range is one serial call.
                    ASSERT_EQ(chunks.size(), 1u) << "n=" << n << " grain=" << grain;
                    EXPECT_EQ(chunks[0], (std::pair<int64_t, int64_t>(0, n)));
                } else {
                    EXPECT_GE(chunks.size(), 2u) << "n=" << n << " grain=" << grain << " threads=" << threads;
                    // No chunk is smaller than the grain asks for (the last may take the remainder).
                    for (const auto& [b, e] : chunks) EXPECT_GE(e - b, std::min<int64_t>(grain, n) / 2);
                }
            }
        }
    }
}

TEST(ParallelFor, ManySmallJobsInARow) {
    // Back-to-back jobs exercise the hand-over between jobs (workers spinning or asleep).
    ThreadsGuard guard;
    burn::platform::set_threads(2);
    std::vector<int> data(4096, 0);
    for (int round = 0; round < 5000; ++round) {
        parallel_for(static_cast<int64_t>(data.size()), 256, [&](int64_t b, int64_t e) {
            for (int64_t i = b; i < e; ++i) data[static_cast<std::size_t>(i)] += 1;
        });
        if (round % 1000 == 999) std::this_thread::sleep_for(std::chrono::milliseconds(2));  // workers sleep
    }
    for (int v : data) ASSERT_EQ(v, 5000);
}

TEST(ParallelFor, NestedCallsRunSerially) {
    ThreadsGuard guard;
    burn::platform::set_threads(2);
    std::atomic<int> outer_calls{0}, inner_bad{0}, inner_calls{0};
    std::vector<std::atomic<int>> hits(64 * 100);
    parallel_for(64, 1, [&](int64_t b, int64_t e) {
        outer_calls.fetch_add(1);
        for (int64_t o = b; o < e; ++o) {
            const auto me = std::this_thread::get_id();
            int calls = 0;
            parallel_for(100, 1, [&](int64_t ib, int64_t ie) {
                ++calls;
                if (std::this_thread::get_id() != me || ib != 0 || ie != 100) inner_bad.fetch_add(1);
                for (int64_t i = ib; i < ie; ++i) hits[static_cast<std::size_t>(o * 100 + i)].fetch_add(1);
            });
            inner_calls.fetch_add(calls);
        }
    });
    EXPECT_GE(outer_calls.load(), 2);
    EXPECT_EQ(inner_bad.load(), 0);
    EXPECT_EQ(inner_calls.load(), 64);  // one serial call per outer index
    for (auto& h : hits) ASSERT_EQ(h.load(), 1);
}

TEST(ParallelFor, SetThreadsChangesTheCount) {
    ThreadsGuard guard;
    burn::platform::set_threads(3);
    EXPECT_EQ(burn::platform::threads(), 3);
    EXPECT_EQ(burn::num_threads(), 3);
    burn::set_num_threads(1);
    EXPECT_EQ(burn::platform::threads(), 1);
    // One thread: a single serial call on the calling thread, however large the range.
    const auto me = std::this_thread::get_id();
    int calls = 0;
    parallel_for(1 << 20, 1, [&](int64_t b, int64_t e) {
        ++calls;
        EXPECT_EQ(std::this_thread::get_id(), me);
        EXPECT_EQ(b, 0);
        EXPECT_EQ(e, 1 << 20);
    });
    EXPECT_EQ(calls, 1);
    burn::set_num_threads(0);
    EXPECT_EQ(burn::num_threads(), burn::platform::hardware_threads());
    // With 4 threads, 4 threads can work at once: every chunk waits until 4 are inside.
    burn::platform::set_threads(4);
    std::atomic<int> inside{0};
    std::mutex mutex;
    std::set<std::thread::id> ids;
    parallel_for(4, 1, [&](int64_t, int64_t) {
        {
            std::lock_guard<std::mutex> lock(mutex);
            ids.insert(std::this_thread::get_id());
        }
        inside.fetch_add(1);
        auto start = std::chrono::steady_clock::now();
        while (inside.load() < 4 && std::chrono::steady_clock::now() - start < std::chrono::seconds(5))
            std::this_thread::yield();
    });
    EXPECT_GE(ids.size(), 2u);  // at least the caller and one worker took part
}

TEST(ParallelFor, ExceptionsReachTheCaller) {
    ThreadsGuard guard;
    burn::platform::set_threads(2);
    for (int64_t bad : {int64_t(0), int64_t(99999)}) {  // thrown in the first chunk and in the last
        EXPECT_THROW(parallel_for(100000, 100,
                                  [&](int64_t b, int64_t e) {
                                      if (bad >= b && bad < e) throw std::runtime_error("chunk failed");
                                  }),
                     std::runtime_error);
    }
    // The pool still works afterwards.
    check_cover(100000, 100);
}

TEST(ParallelFor, ConcurrentCallersAreSafe) {
    ThreadsGuard guard;
    burn::platform::set_threads(2);
    std::vector<std::vector<int>> data(3, std::vector<int>(10000, 0));
    std::vector<std::thread> callers;
    for (int t = 0; t < 3; ++t) {
        callers.emplace_back([&, t] {
            for (int r = 0; r < 300; ++r)
                parallel_for(10000, 100, [&](int64_t b, int64_t e) {
                    for (int64_t i = b; i < e; ++i) data[t][static_cast<std::size_t>(i)] += 1;
                });
        });
    }
    for (auto& c : callers) c.join();
    for (const auto& d : data)
        for (int v : d) ASSERT_EQ(v, 300);
}

}  // namespace
