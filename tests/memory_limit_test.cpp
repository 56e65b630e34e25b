// CPU resource limits and the caching allocator: a tensor that needs more memory than the machine
// has is a burn::Error before allocation (naming the op, shape, dtype and both byte counts), the
// process keeps working, and the cache can be turned off.
#include <gtest/gtest.h>

#include <burn/burn.hpp>
#include <string>

#include "backends/cpu/cpu_tensor.hpp"
#include "platform/process.hpp"

namespace burn {
namespace {

TEST(CpuMemoryLimit, MoreThanTheMachineHasIsAnErrorBeforeAllocating) {
    const uint64_t limit = platform::memory_limit_bytes();
    if (limit == 0) GTEST_SKIP() << "this platform reports no memory size";
    ASSERT_LT(limit, uint64_t(1) << 42) << "a machine with 4 TiB: the test needs a larger tensor";
    const auto before = cpu::allocator_stats();
    if (sizeof(std::size_t) < 8) GTEST_SKIP() << "a 32-bit size_t cannot name 2^40 elements";
    try {
        auto t = Tensor<1>::zeros({static_cast<std::size_t>(uint64_t(1) << 40)});  // 4 TiB of f32
        ADD_FAILURE() << "allocating 4 TiB did not throw";
    } catch (const Error& e) {
        const std::string what = e.what(), have = std::to_string(limit) + " bytes";
        for (const char* needle :
             {"[fill]", "f32", "[1099511627776]", "4398046511104 bytes", "4.000 TiB", have.c_str()})
            EXPECT_NE(what.find(needle), std::string::npos) << needle << " not in: " << what;
    }
    EXPECT_EQ(cpu::allocator_stats().live_bytes, before.live_bytes);
    EXPECT_EQ(Tensor<1>::ones({1000}).sum().into_scalar(), 1000.0f);  // still working
    // Other creation ops go through the same check (2^40 f64 elements: 8 TiB).
    EXPECT_THROW((void)Tensor<2>::random({std::size_t(1) << 20, std::size_t(1) << 20}, Distribution::Default,
                                         Device::cpu(), DType::f64),
                 Error);
}

TEST(CpuMemoryLimit, ReportsTheMachine) {
    const uint64_t total = platform::total_memory_bytes(), limit = platform::memory_limit_bytes();
    if (total == 0) GTEST_SKIP() << "this platform reports no memory size";
    EXPECT_GT(limit, 0u);
    EXPECT_LE(limit, total);
}

TEST(CpuAllocator, CacheCanBeTurnedOff) {
    const bool was = cpu::cache_enabled();
    cpu::set_cache_enabled(true);
    { auto t = Tensor<1>::ones({1 << 16}); }  // 256 KiB: cached when freed
    EXPECT_GE(cpu::allocator_stats().cached_bytes, std::size_t(1) << 18);
    cpu::set_cache_enabled(false);
    EXPECT_EQ(cpu::allocator_stats().cached_bytes, 0u) << "turning the cache off empties it";
    {
        auto t = Tensor<1>::ones({1 << 16});
        EXPECT_EQ(t.sum().into_scalar(), float(1 << 16));
    }
    EXPECT_EQ(cpu::allocator_stats().cached_bytes, 0u) << "a freed block was cached with the cache off";
    cpu::set_cache_enabled(was);
}

TEST(CpuAllocator, ReusedBlocksHoldCorrectValues) {
    // Blocks of one size recycled through the cache (poisoned in between under ASan) keep working.
    for (int i = 0; i < 4; ++i) {
        auto a = Tensor<1>::full({1 << 15}, double(i));
        auto b = (a + 1.0).sum().into_scalar();
        EXPECT_EQ(b, float((i + 1) * (1 << 15)));
    }
}

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BURN_TEST_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define BURN_TEST_ASAN 1
#endif

#ifdef BURN_TEST_ASAN
// Under ASan a cached block is poisoned and a reused one addressable only up to its requested size.
TEST(CpuAllocatorAsan, CachedBlocksArePoisoned) {
    cpu::set_cache_enabled(true);
    const uint8_t* stale = nullptr;
    {
        auto t = Tensor<1>::ones({(1 << 16) + 3});
        stale = static_cast<const uint8_t*>(static_cast<const cpu::CpuTensor&>(*t.handle().ref()).raw());
    }
    EXPECT_DEATH((void)*static_cast<const volatile uint8_t*>(stale), "use-after-poison");
    auto t = Tensor<1>::ones({(1 << 16) + 3});
    const auto* p = static_cast<const uint8_t*>(static_cast<const cpu::CpuTensor&>(*t.handle().ref()).raw());
    EXPECT_DEATH((void)*static_cast<const volatile uint8_t*>(p + 4 * ((1 << 16) + 3)), "use-after-poison");
}
#endif

}  // namespace
}  // namespace burn
