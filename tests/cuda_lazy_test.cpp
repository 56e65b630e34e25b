// The lazy decorator over CUDA (docs/fusion.md): a chain becomes one generated kernel (NVRTC) that
// writes only what someone holds, values match the eager CUDA kernels and the CPU, changing constants
// reuse the compiled kernel, and the disk cache serves a kernel to a fresh memory cache. Skipped
// without a GPU.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>

#include "burn/backend/lazy.hpp"
#include "cuda_test_util.hpp"
#ifdef BURN_HAVE_CUDA
#include "backends/cuda/nvrtc.hpp"
#endif

namespace burn::cuda_lazy_test {
namespace {

using ops::from_data;
using ops::into_data;

#define BURN_REQUIRE_CUDA() \
    if (!cuda_test::has_cuda()) GTEST_SKIP() << cuda_test::why_no_cuda()

TensorData randn(const Dims& shape, uint64_t seed) {
    Device::cpu().seed(seed);
    return into_data(ops::random(shape, Distribution::Normal(0.0, 1.0), DType::f32, Device::cpu()));
}

void expect_close(const TensorAny& got, const TensorAny& want, double tol = 1e-6) {
    TensorData a = into_data(got), b = into_data(want);
    ASSERT_EQ(a.dtype(), b.dtype());
    ASSERT_EQ(a.shape(), b.shape());
    for (int64_t i = 0; i < a.numel(); ++i) {
        const double x = a.value_as_double(i), y = b.value_as_double(i);
        if (std::isnan(x) && std::isnan(y)) continue;
        ASSERT_NEAR(x, y, tol * (1 + std::abs(y))) << "element " << i;
    }
}

TEST(CudaLazy, ChainIsOneKernelWritingOneBuffer) {
    BURN_REQUIRE_CUDA();
    const Device cuda = Device::cuda(0), lazy = Device::cuda(0).lazy();
    const Dims shape{3, 100003};  // not a multiple of 4: the vectorised body and its tail
    const TensorData x = randn(shape, 1), y = randn(shape, 2), z = randn(shape, 3);
    TensorAny want =
        ops::relu(ops::add(ops::mul(from_data(x, cuda), from_data(y, cuda)), from_data(z, cuda)));
    lazy::reset_stats();
    TensorAny got = ops::relu(ops::add(ops::mul(from_data(x, lazy), from_data(y, lazy)), from_data(z, lazy)));
    EXPECT_EQ(lazy::stats().fused_passes, 0);  // nothing has run yet
    // the same functors; the product and sum may contract into one fused multiply-add (one rounding
    // where eager rounds twice): within an ulp
    expect_close(got, want, 1.2e-7);
    EXPECT_EQ(lazy::stats().fused_passes, 1);
    EXPECT_EQ(lazy::stats().fused_ops, 3);
    EXPECT_EQ(lazy::stats().materialized, 1);
    // and against the CPU
    TensorAny cpu = ops::relu(ops::add(ops::mul(from_data(x, Device::cpu()), from_data(y, Device::cpu())),
                                       from_data(z, Device::cpu())));
    expect_close(got, cpu, 1e-6);
}

TEST(CudaLazy, SingleOpRunsTheEagerKernel) {
    BURN_REQUIRE_CUDA();
    const Device lazy = Device::cuda(0).lazy();
    TensorAny x = from_data(randn({1000}, 15), lazy);
    (void)into_data(x);
    lazy::reset_stats();
    TensorAny y = ops::relu(x);  // one op over a computed tensor: no kernel to generate
    expect_close(y, ops::relu(from_data(randn({1000}, 15), Device::cuda(0))), 0);
    EXPECT_EQ(lazy::stats().fused_passes, 0);
    EXPECT_EQ(lazy::stats().passthrough, 1);
}

TEST(CudaLazy, StridedBroadcastCastAndMaskInputs) {
    BURN_REQUIRE_CUDA();
    [[maybe_unused]] cuda_test::ExactDeviceMath exact;
    auto run = [](const Device& d) {
        TensorAny a = from_data(randn({64, 48}, 4), d);
        TensorAny at = ops::permute(from_data(randn({48, 64}, 5), d), {1, 0});        // strided
        TensorAny bias = ops::expand(from_data(randn({1, 48}, 6), d), Dims{64, 48});  // broadcast
        TensorAny ints = ops::cast(ops::mul_scalar(a, 3.0), DType::i32);              // materialised i32
        TensorAny half = ops::cast(from_data(randn({64, 48}, 7), d), DType::f16);
        TensorAny mask = ops::greater(a, at);  // bool
        TensorAny v = ops::add(ops::mul(a, at), bias);
        v = ops::add(
            v, ops::cast(ops::sub(ops::cast(ints, DType::f32), ops::cast(half, DType::f32)), DType::f32));
        v = ops::where(mask, ops::exp(ops::neg(ops::abs(v))), ops::mul_scalar(v, 0.25));
        return std::make_pair(v, mask);
    };
    auto [want, want_mask] = run(Device::cuda(0));
    auto [got, got_mask] = run(Device::cuda(0).lazy());
    expect_close(got, want, 1e-6);
    expect_close(got_mask, want_mask, 0);
    auto [cpu, cpu_mask] = run(Device::cpu());
    expect_close(got, cpu, 1e-5);
}

TEST(CudaLazy, RowSumTailIsPartOfThePass) {
    BURN_REQUIRE_CUDA();
    const Device lazy = Device::cuda(0).lazy();
    for (int64_t row : {10, 64, 100, 1000, 16384}) {  // 32, 64, 128 and 256 threads per row
        SCOPED_TRACE(::testing::Message() << "row " << row);
        const Dims shape{std::max<int64_t>(3, 40000 / row), row};
        const TensorData x = randn(shape, 13), y = randn(shape, 14);
        lazy::reset_stats();
        TensorAny e = ops::exp(ops::sub(ops::mul_scalar(from_data(x, lazy), 0.5), from_data(y, lazy)));
        TensorAny s = ops::sum_dim(e, 1);  // e is held: written by the same pass
        const TensorData got_s = into_data(s), got_e = into_data(e);
        EXPECT_EQ(lazy::stats().fused_passes, 1);
        EXPECT_EQ(lazy::stats().passthrough, 0);
        const Device cpu = Device::cpu();
        TensorAny we = ops::exp(ops::sub(ops::mul_scalar(from_data(x, cpu), 0.5), from_data(y, cpu)));
        expect_close(from_data(got_e, cpu), we, 1e-6);
        expect_close(from_data(got_s, cpu), ops::sum_dim(we, 1), 1e-5);
    }
}

#ifdef BURN_HAVE_CUDA
TEST(CudaLazy, ConstantsAreArgumentsNotRecompiles) {
    BURN_REQUIRE_CUDA();
    const Device lazy = Device::cuda(0).lazy();
    const TensorData x = randn({4096}, 8);
    TensorAny first = ops::add_scalar(ops::mul_scalar(from_data(x, lazy), 1.5), 0.5);
    (void)into_data(first);  // compiles (or loads) the kernel once
    const cuda::rtc::Stats before = cuda::rtc::stats();
    for (int k = 0; k < 5; ++k) {
        const double s = 0.1 * (k + 1);
        TensorAny got = ops::add_scalar(ops::mul_scalar(from_data(x, lazy), s), 1.0 - s);
        TensorAny want = ops::add_scalar(ops::mul_scalar(from_data(x, Device::cpu()), s), 1.0 - s);
        expect_close(got, want, 1e-6);
    }
    const cuda::rtc::Stats after = cuda::rtc::stats();
    EXPECT_EQ(after.compiled, before.compiled);
    EXPECT_EQ(after.disk_hits, before.disk_hits);
    EXPECT_GE(after.memory_hits - before.memory_hits, 5);
}

TEST(CudaLazy, DiskCacheServesAFreshProcess) {
    BURN_REQUIRE_CUDA();
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("burn_kernel_cache_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    const char* old = std::getenv("BURN_KERNEL_CACHE");
    const std::string saved = old ? old : "";
    ::setenv("BURN_KERNEL_CACHE", dir.c_str(), 1);
    const Device lazy = Device::cuda(0).lazy();
    auto run = [&] {  // a chain no other test builds: sin(x) * cos(x) - 0.5
        TensorAny x = from_data(randn({1000}, 9), lazy);
        return into_data(ops::sub_scalar(ops::mul(ops::sin(x), ops::cos(x)), 0.5));
    };
    cuda::rtc::clear_memory_cache();
    const cuda::rtc::Stats s0 = cuda::rtc::stats();
    const TensorData a = run();
    const cuda::rtc::Stats s1 = cuda::rtc::stats();
    EXPECT_EQ(s1.compiled - s0.compiled, 1);
    int cubins = 0;
    for (const auto& f : fs::directory_iterator(dir)) cubins += f.path().extension() == ".cubin";
    EXPECT_EQ(cubins, 1);
    cuda::rtc::clear_memory_cache();  // as a new process would start
    const TensorData b = run();
    const cuda::rtc::Stats s2 = cuda::rtc::stats();
    EXPECT_EQ(s2.compiled, s1.compiled);
    EXPECT_EQ(s2.disk_hits - s1.disk_hits, 1);
    EXPECT_TRUE(a == b);
    if (old)
        ::setenv("BURN_KERNEL_CACHE", saved.c_str(), 1);
    else
        ::unsetenv("BURN_KERNEL_CACHE");
    fs::remove_all(dir);
}
#endif

TEST(CudaLazy, AutodiffOverLazyMatchesEager) {
    BURN_REQUIRE_CUDA();
    auto grads = [](const Device& d) {
        TensorAny w = ops::require_grad(from_data(randn({256, 64}, 10), d));
        TensorAny x = from_data(randn({256, 64}, 11), d);
        TensorAny h = ops::gelu(ops::add(ops::mul(w, x), ops::mul_scalar(w, 0.5)));
        TensorAny loss = ops::sum(ops::mul(ops::sigmoid(h), h));
        Gradients g = ops::backward(loss);
        return into_data(*ops::grad(w, g));
    };
    const TensorData want = grads(Device::cuda(0).autodiff());
    const TensorData got = grads(Device::cuda(0).lazy().autodiff());
    expect_close(from_data(got, Device::cpu()), from_data(want, Device::cpu()), 1e-5);
}

TEST(CudaLazy, DumpNamesTheKernel) {
    BURN_REQUIRE_CUDA();
    lazy::set_dump(true);
    const Device lazy = Device::cuda(0).lazy();
    TensorAny x = from_data(randn({256}, 12), lazy);
    (void)into_data(ops::tanh(ops::mul_scalar(x, 2.0)));
    lazy::set_dump(false);
    const std::string listing = lazy::last_program();
    EXPECT_NE(listing.find("one CUDA kernel"), std::string::npos) << listing;
    EXPECT_NE(listing.find("tanh"), std::string::npos) << listing;
}

}  // namespace
}  // namespace burn::cuda_lazy_test
