// CUDA resource limits: a tensor larger than the device's total memory is a burn::Error before
// cudaMalloc is tried; filling the device makes cudaMalloc fail, which frees the cache, retries once,
// then throws a burn::Error with the CUDA error cleared, and the process keeps working. Skips without a
// GPU (or without BURN_CUDA).
#include <gtest/gtest.h>

#include <burn/burn.hpp>
#include <string>
#include <vector>

#include "cuda_test_util.hpp"

#ifdef BURN_HAVE_CUDA
#include "backends/cuda/cuda.hpp"
#endif

namespace burn {
namespace {

#ifdef BURN_HAVE_CUDA
float ones_sum(const Device& gpu) {
    return Tensor<1>::ones({1000}, gpu).sum().into_scalar();
}
#endif

TEST(CudaMemoryLimit, LargerThanTheDeviceIsAnErrorBeforeCudaMalloc) {
    REQUIRE_CUDA();
#ifdef BURN_HAVE_CUDA
    const Device gpu = Device::cuda(0);
    EXPECT_EQ(ones_sum(gpu), 1000.0f);
    const auto before = cuda::memory_stats(0);
    try {
        auto huge = Tensor<1>::zeros({int64_t(1) << 40}, gpu);  // 4 TiB of f32
        ADD_FAILURE() << "allocating 4 TiB on the GPU did not throw";
    } catch (const burn::Error& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("out of memory"), std::string::npos) << what;
        EXPECT_NE(what.find("4398046511104 bytes"), std::string::npos) << what;
        EXPECT_NE(what.find("in all"), std::string::npos) << what;
    }
    EXPECT_EQ(cuda::memory_stats(0).device_mallocs, before.device_mallocs) << "cudaMalloc was tried";
    EXPECT_EQ(ones_sum(gpu), 1000.0f);  // the process keeps working
#endif
}

TEST(CudaMemoryLimit, OutOfMemoryFreesTheCacheRetriesThenThrowsAndRecovers) {
    REQUIRE_CUDA();
#ifdef BURN_HAVE_CUDA
    const Device gpu = Device::cuda(0);
    cuda::empty_cache(0);
    const int64_t chunk = int64_t(1) << 31;  // 8 GiB of f32
    std::vector<Tensor<1>> held;
    bool threw = false;
    for (int i = 0; i < 128 && !threw; ++i) {
        try {
            held.push_back(Tensor<1>::empty({chunk}, gpu));
        } catch (const burn::Error& e) {
            threw = true;
            const std::string what = e.what();
            EXPECT_NE(what.find("out of memory"), std::string::npos) << what;
            EXPECT_NE(what.find("cache emptied"), std::string::npos) << what;
        }
    }
    ASSERT_TRUE(threw) << "filling the device with " << held.size() << " blocks of 8 GiB never failed";
    ASSERT_FALSE(held.empty());
    EXPECT_EQ(ones_sum(gpu), 1000.0f) << "the CUDA error was not cleared";

    // Every block back to the cache: a request the cache cannot serve (64 MiB larger than its blocks)
    // fails in cudaMalloc, frees the cache and succeeds on the retry.
    held.clear();
    const auto cached = cuda::memory_stats(0);
    EXPECT_GT(cached.reserved, cached.allocated);
    {
        auto big = Tensor<1>::full({chunk + (int64_t(1) << 24)}, 2.0, gpu);
        const auto after = cuda::memory_stats(0);
        EXPECT_EQ(after.oom_retries, cached.oom_retries + 1);
        EXPECT_LT(after.reserved, cached.reserved) << "the cache was not freed";
        EXPECT_EQ(big.slice({{0, 4}}).sum().into_scalar(), 8.0f);
    }
    cuda::empty_cache(0);
    EXPECT_EQ(ones_sum(gpu), 1000.0f);
#endif
}

}  // namespace
}  // namespace burn
