// Device::flush, memory_cleanup and supports_dtype, and the reads built on flush: Transaction and
// into_data_async / into_scalar_async (burn/tensor/transaction.hpp). Flushes are observed through the
// lazy decorator's pass counter; the values against the eager CPU. CUDA cases skip without a GPU.
#include <gtest/gtest.h>

#include <burn/backend/backend.hpp>  // DeviceStats, device_stats
#include <burn/backend/lazy.hpp>
#include <burn/burn.hpp>
#include <string>
#include <vector>

#include "cuda_test_util.hpp"

namespace burn::device_flush_test {  // named: unity builds merge anonymous namespaces

std::vector<float> values(const TensorData& d) {
    return d.convert(DType::f32).to_vec<float>();
}

/// Two chains off one input on `device`, pending on a lazy device: (x * 2 + 1).relu() and (x - 3) * x.
std::pair<Tensor<2>, Tensor<2>> chains(const Device& device) {
    auto x = Tensor<2>::from_data(TensorData(std::vector<float>{-2, -1, 0, 1, 2, 3}, Dims{2, 3}), device);
    return {activation::relu(x * 2.0 + 1.0), (x - 3.0) * x};
}

const std::vector<float> kFirst{0, 0, 1, 3, 5, 7}, kSecond{10, 4, 0, -2, -2, 0};

TEST(DeviceFlush, LazyPendingWorkRunsAtTheFlushNotAtTheRead) {
    const Device d = Device::cpu().lazy();
    auto [a, b] = chains(d);
    lazy::reset_stats();
    EXPECT_EQ(lazy::stats().fused_passes, 0) << "building the chains ran a pass";
    d.flush();
    const int64_t after_flush = lazy::stats().fused_passes;
    EXPECT_GE(after_flush, 1) << "flush ran nothing";
    EXPECT_EQ(values(a.into_data()), kFirst);
    EXPECT_EQ(values(b.into_data()), kSecond);
    EXPECT_EQ(lazy::stats().fused_passes, after_flush) << "the reads ran passes again after the flush";
}

TEST(DeviceFlush, ReachesALazyLevelUnderAutodiff) {
    const Device d = Device::cpu().lazy().autodiff();
    auto [a, b] = chains(d);
    lazy::reset_stats();
    d.flush();
    EXPECT_GE(lazy::stats().fused_passes, 1);
    EXPECT_EQ(values(a.into_data()), kFirst);
    Device::cpu().flush();  // eager: nothing to do, nothing fails
    Device::cpu().autodiff().flush();
}

TEST(Transaction, ReadsEveryTensorAfterOneFlushInOrder) {
    const Device d = Device::cpu().lazy();
    // Read one by one, each read evaluates its own graph.
    auto [a1, b1] = chains(d);
    lazy::reset_stats();
    EXPECT_EQ(values(a1.into_data()), kFirst);
    EXPECT_EQ(values(b1.into_data()), kSecond);
    const int64_t separate = lazy::stats().fused_passes;
    // In a transaction both are evaluated by the one flush.
    auto [a2, b2] = chains(d);
    auto eager = Tensor<1, Int>::arange(0, 4, Device::cpu());
    lazy::reset_stats();
    const std::vector<TensorData> got = Transaction().add(b2).add(a2).add(eager).execute();
    ASSERT_EQ(got.size(), 3u);
    EXPECT_EQ(values(got[0]), kSecond);
    EXPECT_EQ(values(got[1]), kFirst);
    EXPECT_EQ(got[2].to_vec<int32_t>(), (std::vector<int32_t>{0, 1, 2, 3}));
    EXPECT_EQ(got[2].dtype(), DType::i32);
    EXPECT_EQ(lazy::stats().fused_passes, 1) << "the transaction's graphs ran in more than one pass";
    EXPECT_EQ(separate, 2) << "reading the two chains one by one should take a pass each";
}

TEST(Transaction, RefusesAnUndefinedTensorNamingItsPosition) {
    Tensor<2> undefined;
    auto [a, b] = chains(Device::cpu().lazy());
    lazy::reset_stats();
    try {
        (void)Transaction().add(a).add(undefined).execute();
        FAIL() << "an undefined tensor was read";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("tensor 1 of 2 is undefined"), std::string::npos) << e.what();
    }
    EXPECT_EQ(lazy::stats().fused_passes, 0) << "the failed transaction flushed a device";
    EXPECT_TRUE(Transaction().execute().empty());
}

TEST(PendingData, StartsAtTheCallAndGivesTheValuesOnce) {
    const Device d = Device::cpu().lazy();
    auto [a, b] = chains(d);
    lazy::reset_stats();
    PendingData pending = a.into_data_async();
    EXPECT_GE(lazy::stats().fused_passes, 1) << "into_data_async did not start the work";
    EXPECT_TRUE(pending.valid());
    EXPECT_EQ(values(pending.get()), kFirst);
    EXPECT_FALSE(pending.valid());
    EXPECT_THROW((void)pending.get(), Error);

    auto total = b.sum();
    EXPECT_FLOAT_EQ(total.into_scalar_async().scalar<float>(), 10.0f);
    try {
        (void)b.into_scalar_async();
        FAIL() << "into_scalar_async of six elements";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("[into_scalar_async] the tensor has shape [2, 3]"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_THROW((void)PendingData(TensorAny()), Error);
}

TEST(DeviceMemory, CleanupReturnsTheCpuCacheAndKeepsLiveTensors) {
    const Device d = Device::cpu();
    auto keep = Tensor<1>::ones({1 << 16}, d);      // 256 kB, live
    { auto gone = Tensor<1>::ones({1 << 18}, d); }  // 1 MB, freed into the cache
    const DeviceStats before = device_stats(d);
    ASSERT_TRUE(before.allocated_bytes && before.reserved_bytes);
    if (*before.reserved_bytes == *before.allocated_bytes)
        GTEST_SKIP() << "the CPU allocator's cache is off (BURN_CPU_CACHE=0)";
    EXPECT_GE(*before.reserved_bytes - *before.allocated_bytes, int64_t(1) << 20);
    d.autodiff().memory_cleanup();  // through a decorator: the physical device's allocator
    const DeviceStats after = device_stats(d);
    EXPECT_EQ(*after.reserved_bytes, *after.allocated_bytes);
    EXPECT_EQ(*after.allocated_bytes, *before.allocated_bytes);
    EXPECT_EQ(keep.sum().into_scalar(), float(1 << 16)) << "cleanup touched a live tensor";
}

TEST(DeviceDtypes, CpuSupportsWhatItsKernelsWereBuiltFor) {
    for (DType dt : {DType::f32, DType::f64, DType::f16, DType::bf16, DType::i64, DType::i32, DType::i16,
                     DType::i8, DType::u8, DType::boolean}) {
        const bool yes = Device::cpu().supports_dtype(dt);
        EXPECT_EQ(yes, Device::cpu().lazy().autodiff().supports_dtype(dt)) << dt;
        // The answer matches whether an op on that dtype runs (this build's BURN_CPU_DTYPES).
        bool ran = true;
        try {
            (void)ops::into_data(ops::cast(ops::full(Dims{2, 4}, 1, dt, Device::cpu()), DType::f32));
            (void)ops::into_data(ops::cast(ops::full(Dims{2, 4}, 1, DType::f32, Device::cpu()), dt));
        } catch (const Error&) {
            ran = false;
        }
        EXPECT_EQ(yes, ran) << dt;
    }
}

TEST(DeviceMemory, CleanupReturnsCudaCachedBlocks) {
    if (!cuda_test::has_cuda()) GTEST_SKIP() << cuda_test::why_no_cuda();
    const Device d = Device::cuda(0);
    EXPECT_TRUE(d.supports_dtype(DType::f32));
    EXPECT_TRUE(d.supports_dtype(DType::bf16));
    auto keep = Tensor<1>::ones({1 << 20}, d);
    { auto gone = Tensor<1>::ones({1 << 24}, d); }  // 64 MB back into the caching allocator
    d.sync();
    const DeviceStats before = device_stats(d);
    ASSERT_TRUE(before.allocated_bytes && before.reserved_bytes);
    EXPECT_GE(*before.reserved_bytes - *before.allocated_bytes, int64_t(64) << 20);
    d.memory_cleanup();
    const DeviceStats after = device_stats(d);
    EXPECT_EQ(*after.reserved_bytes, *after.allocated_bytes);
    EXPECT_EQ(keep.sum().into_scalar(), float(1 << 20));
    const std::vector<TensorData> got = Transaction().add(keep.slice({{0, 3}})).add(keep.sum()).execute();
    EXPECT_EQ(got[0].to_vec<float>(), (std::vector<float>{1, 1, 1}));
    EXPECT_EQ(got[1].to_vec<float>(), (std::vector<float>{float(1 << 20)}));
}

}  // namespace burn::device_flush_test
