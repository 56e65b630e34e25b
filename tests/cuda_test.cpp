// The CUDA backend: availability without a GPU (always runs), and on a GPU: transfers, strided
// elementwise, reductions, matmul and conv against the CPU, the caching allocator (blocks return to
// the cache at once, memory flat over training steps, OOM recovers) and an end-to-end training run.
// Without a GPU (or without BURN_CUDA) the GPU tests skip with the reason.
#include <gtest/gtest.h>

#include <burn/burn.hpp>
#include <cmath>
#include <random>

#include "burn/backend/host_fallback.hpp"
#include "cuda_test_util.hpp"
#include "reference.hpp"

#ifdef BURN_HAVE_CUDA
#include "backends/cuda/cuda.hpp"
#endif

namespace burn {
namespace {

double max_rel_diff(const TensorData& a, const TensorData& b) {
    EXPECT_EQ(a.shape(), b.shape());
    double num = 0, den = 0;
    for (int64_t i = 0; i < a.numel(); ++i) {
        const double x = a.value_as_double(i), y = b.value_as_double(i);
        num = std::max(num, std::abs(x - y));
        den = std::max(den, std::abs(y));
    }
    return num / std::max(den, 1e-30);
}

TEST(Cuda, AvailabilityIsConsistent) {
    if (cuda_test::has_cuda()) {
        EXPECT_NO_THROW(Device::cuda(0));
        EXPECT_EQ(Device::cuda(0).str(), "cuda:0");
        EXPECT_THROW(Device::cuda(1000), DeviceError);
    } else {
        // No GPU or no driver: the binary starts, lists only the CPU, and Device::cuda explains.
        EXPECT_EQ(Device::available().size(), 1u);
        try {
            Device::cuda(0);
            ADD_FAILURE() << "Device::cuda(0) did not throw without a GPU";
        } catch (const DeviceError& e) {
            EXPECT_NE(std::string(e.what()).find("Device::cuda(0)"), std::string::npos) << e.what();
        }
    }
}

TEST(Cuda, RoundTripAndToDevice) {
    REQUIRE_CUDA();
    const Device gpu = Device::cuda(0);
    auto v = ref::normal_values(1000, 1);
    auto host = Tensor<2>::from_data(TensorData(v, Dims{10, 100}), Device::cpu());
    auto dev = host.to_device(gpu);
    EXPECT_EQ(dev.device(), gpu);
    auto back = dev.to_device(Device::cpu());
    EXPECT_TRUE(back.into_data() == host.into_data());
    // views survive the transfer (transpose, slice with step)
    auto t = dev.transpose().to_device(Device::cpu());
    EXPECT_TRUE(t.into_data() == host.transpose().into_data());
}

TEST(Cuda, KernelIndexErrorsRaiseAtTheNextSynchronisation) {
    REQUIRE_CUDA();
    const Device gpu = Device::cuda(0);
    auto x = Tensor<2>::from_floats({{1, 2, 3}, {4, 5, 6}}, gpu);
    auto bad = Tensor<2, Int>::from_ints({{0, 7, 1}, {2, 1, 0}}, gpu);
    // No synchronisation per op: the gather returns, the error comes with the next read.
    Tensor<2> g = x.gather(1, bad);
    try {
        (void)g.into_data();
        ADD_FAILURE() << "reading the result of a gather with index 7 did not throw";
    } catch (const IndexError& e) {
        EXPECT_NE(std::string(e.what()).find("[gather] index 7 is out of range for dim 1 of size 3"),
                  std::string::npos)
            << e.what();
    }
    // The slot is free again: good ops and reads go on, and Device::sync raises too.
    auto good = Tensor<2, Int>::from_ints({{2, 1, 0}, {0, 0, 1}}, gpu);
    EXPECT_TRUE(x.gather(1, good).into_data() ==
                x.to_device(Device::cpu()).gather(1, good.to_device(Device::cpu())).into_data());
    (void)x.gather(1, bad);
    EXPECT_THROW(gpu.sync(), IndexError);
    EXPECT_NO_THROW(gpu.sync());
    // cross_entropy's targets take the same path.
    auto logits = Tensor<2>::from_floats({{1, 2, 3}, {3, 2, 1}}, gpu);
    auto targets = Tensor<1, Int>::from_ints({1, 5}, gpu);
    auto loss = nn::loss::CrossEntropyLoss().forward(logits, targets);
    EXPECT_THROW((void)loss.into_data(), IndexError);
}

TEST(Cuda, StridedElementwiseMatchesCpu) {
    REQUIRE_CUDA();
    const Device gpu = Device::cuda(0);
    auto a = ref::normal_values(64 * 48, 2), b = ref::normal_values(48, 3);
    auto ca = Tensor<2>::from_data(TensorData(a, Dims{64, 48}), Device::cpu());
    auto cb = Tensor<2>::from_data(TensorData(b, Dims{1, 48}), Device::cpu());
    auto ga = ca.to_device(gpu), gb = cb.to_device(gpu);
    auto want = (ca.transpose().exp() * ca.transpose().sin()).into_data();
    auto got = (ga.transpose().exp() * ga.transpose().sin()).into_data();
    EXPECT_LT(max_rel_diff(got, want), 1e-6);
    // broadcast (stride 0) and a dense aligned vectorised path
    EXPECT_LT(max_rel_diff((ga + gb).into_data(), (ca + cb).into_data()), 1e-7);
    EXPECT_LT(
        max_rel_diff(activation::relu(ga * ga - ga).into_data(), activation::relu(ca * ca - ca).into_data()),
        1e-7);
}

TEST(Cuda, ReductionsAndSoftmaxMatchCpu) {
    REQUIRE_CUDA();
    const Device gpu = Device::cuda(0);
    for (int64_t n : {7, 100, 5000}) {
        auto v = ref::normal_values(static_cast<std::size_t>(3 * n), 4);
        auto c = Tensor<2>::from_data(TensorData(v, Dims{3, n}), Device::cpu());
        auto g = c.to_device(gpu);
        for (int dim : {0, 1}) {
            SCOPED_TRACE(::testing::Message() << "n=" << n << " dim=" << dim);
            EXPECT_LT(max_rel_diff(g.sum_dim(dim).into_data(), c.sum_dim(dim).into_data()), 1e-5);
            EXPECT_TRUE(g.max_dim(dim).into_data() == c.max_dim(dim).into_data());
            EXPECT_TRUE(g.argmax(dim).into_data() == c.argmax(dim).into_data());
            EXPECT_LT(max_rel_diff(activation::softmax(g, dim).into_data(),
                                   activation::softmax(c, dim).into_data()),
                      1e-5);
            EXPECT_LT(max_rel_diff(activation::log_softmax(g, dim).into_data(),
                                   activation::log_softmax(c, dim).into_data()),
                      1e-5);
        }
    }
}

// Regression: rows holding -inf (masks written as -inf, f16 fills) gave NaN on CUDA when a lane's
// first value was -inf (the online max/sum added exp(-inf - -inf)).
TEST(Cuda, SoftmaxOfRowsWithMinusInfinityMatchesCpu) {
    REQUIRE_CUDA();
    const Device gpu = Device::cuda(0);
    for (int64_t n : {8, 40, 1024, 3000}) {
        auto v = ref::normal_values(static_cast<std::size_t>(4 * n), 5);
        for (int64_t i = 0; i < 4 * n; ++i)
            if (i % 3 == 0 || (i / n == 2 && i % n < n / 2)) v[static_cast<std::size_t>(i)] = -INFINITY;
        auto c = Tensor<2>::from_data(TensorData(v, Dims{4, n}), Device::cpu());
        auto g = c.to_device(gpu);
        SCOPED_TRACE(::testing::Message() << "n=" << n);
        for (auto* f : {&activation::softmax<2>, &activation::log_softmax<2>}) {
            auto want = f(c, 1).into_data(), got = f(g, 1).into_data();
            for (int64_t i = 0; i < want.numel(); ++i) {
                const double a = got.value_as_double(i), b = want.value_as_double(i);
                ASSERT_FALSE(std::isnan(a)) << "NaN at " << i;
                if (std::isinf(b)) {
                    ASSERT_EQ(a, b) << "at " << i;
                } else {
                    ASSERT_NEAR(a, b, 1e-5 * (1 + std::abs(b))) << "at " << i;
                }
            }
        }
    }
}

TEST(Cuda, MatmulMatchesCpu) {
    REQUIRE_CUDA();
    const Device gpu = Device::cuda(0);
    auto a = ref::normal_values(4 * 70 * 50, 5), b = ref::normal_values(50 * 30, 6);
    auto ca = Tensor<3>::from_data(TensorData(a, Dims{4, 70, 50}), Device::cpu());
    auto cb = Tensor<2>::from_data(TensorData(b, Dims{50, 30}), Device::cpu());
    auto ga = ca.to_device(gpu);
    auto gb = cb.to_device(gpu);
    EXPECT_LT(
        max_rel_diff(ga.matmul(gb.unsqueeze<3>()).into_data(), ca.matmul(cb.unsqueeze<3>()).into_data()),
        1e-5);
    // transposed operands go to cuBLAS without copies
    auto gt = gb.transpose();
    auto ct = cb.transpose();
    EXPECT_LT(max_rel_diff(gt.matmul(gt.transpose()).into_data(), ct.matmul(ct.transpose()).into_data()),
              1e-5);
}

#ifdef BURN_HAVE_CUDA
TEST(CudaAllocator, FreedBlockReturnsToCacheAtOnce) {
    REQUIRE_CUDA();
    const Device gpu = Device::cuda(0);
    gpu.sync();
    const auto before = cuda::memory_stats(0);
    {
        auto t = Tensor<1>::zeros({1 << 20}, gpu);  // 4 MiB
        const auto held = cuda::memory_stats(0);
        EXPECT_GE(held.allocated, before.allocated + (4u << 20));
    }
    const auto freed = cuda::memory_stats(0);
    EXPECT_EQ(freed.allocated, before.allocated) << "the block did not return at once";
    auto again = Tensor<1>::zeros({1 << 20}, gpu);
    const auto reused = cuda::memory_stats(0);
    EXPECT_EQ(reused.device_mallocs, freed.device_mallocs) << "the cached block was not reused";
    EXPECT_GT(reused.cache_hits, freed.cache_hits);
    cuda::empty_cache(0);
}

TEST(CudaAllocator, OutOfMemoryThrowsAndRecovers) {
    REQUIRE_CUDA();
    const Device gpu = Device::cuda(0);
    try {
        auto huge = Tensor<1>::zeros({int64_t(1) << 50}, gpu);  // 4 PiB
        ADD_FAILURE() << "allocating 4 PiB did not throw";
    } catch (const burn::Error& e) {
        EXPECT_NE(std::string(e.what()).find("out of memory"), std::string::npos) << e.what();
    }
    auto ok = Tensor<1>::ones({1000}, gpu).sum().into_scalar();
    EXPECT_EQ(ok, 1000.0f);
}

TEST(CudaBackend, OpsWithoutAKernelDecomposeOrFallBackToTheHost) {
    REQUIRE_CUDA();
    const Device gpu = Device::cuda(0);
    auto xv = ref::normal_values(2 * 2 * 4 * 4 * 4, 8), wv = ref::normal_values(3 * 2 * 2 * 2 * 2, 9);
    auto cx = Tensor<5>::from_data(TensorData(xv, Dims{2, 2, 4, 4, 4}), Device::cpu());
    auto cw = Tensor<5>::from_data(TensorData(wv, Dims{3, 2, 2, 2, 2}), Device::cpu());
    auto gx = cx.to_device(gpu), gw = cw.to_device(gpu);
    const TensorData want = tensor::module::conv3d(cx, cw, std::nullopt, {}).into_data();
    const bool with_cudnn = cuda::use_cudnn();
    // Without cuDNN, 3-D convolution has no CUDA kernel: dispatch runs its decomposition (per-tap
    // matmuls) on the GPU.
    cuda::set_use_cudnn(false);
    auto composed = tensor::module::conv3d(gx, gw, std::nullopt, {});
    EXPECT_EQ(composed.device(), gpu);
    EXPECT_LT(max_rel_diff(composed.into_data(), want), 1e-5);
    // A host_fallback device decomposes first as well: nothing goes through the host.
    const Device fallback = gpu.decorate("host_fallback");
    const int64_t before = host_fallback_ops();
    auto got = tensor::module::conv3d(gx.to_device(fallback), gw.to_device(fallback), std::nullopt, {});
    cuda::set_use_cudnn(with_cudnn);
    EXPECT_EQ(got.device(), fallback);
    EXPECT_EQ(host_fallback_ops(), before);
    EXPECT_LT(max_rel_diff(got.into_data(), want), 1e-5);
}

TEST(CudaBackend, SortAndTopkMatchCpu) {
    REQUIRE_CUDA();
    const Device gpu = Device::cuda(0);
    auto v = ref::normal_values(5 * 3000, 10);
    for (int i = 0; i < 300; ++i)
        v[static_cast<std::size_t>(i * 7)] = v[static_cast<std::size_t>(i * 7 + 1)];  // ties
    auto c = Tensor<2>::from_data(TensorData(v, Dims{5, 3000}), Device::cpu());
    auto g = c.to_device(gpu);
    EXPECT_TRUE(g.sort(1).into_data() == c.sort(1).into_data());
    EXPECT_TRUE(g.argsort(1, true).into_data() == c.argsort(1, true).into_data());
    EXPECT_TRUE(g.topk(3, 0).into_data() == c.topk(3, 0).into_data());
}

struct Net {
    nn::Conv2d conv;
    nn::MaxPool2d pool;
    nn::Linear fc;
    BURN_MODULE(Net, conv, pool, fc)
    Tensor<2> forward(const Tensor<4>& x) const {
        auto h = pool.forward(activation::relu(conv.forward(x)));  // [b, 8, 6, 6]
        return fc.forward(h.flatten<2>(1, 3));
    }
};

Net make_net(const Device& d) {
    return Net{nn::Conv2dConfig{{1, 8}, {3, 3}}.with_padding(nn::Explicit2d{1, 1}).init(d),
               nn::MaxPool2dConfig{{2, 2}, {2, 2}}.init(), nn::LinearConfig{8 * 6 * 6, 4}.init(d)};
}

/// Synthetic 4-class images: class k lights quadrant k.
std::pair<Tensor<4>, Tensor<1, Int>> batch(int64_t b, uint32_t seed, const Device& d) {
    std::mt19937 gen(seed);
    std::normal_distribution<float> noise(0.f, 0.3f);
    std::vector<float> x(static_cast<std::size_t>(b * 144));
    std::vector<int32_t> y(static_cast<std::size_t>(b));
    for (int64_t i = 0; i < b; ++i) {
        const int k = static_cast<int>(gen() % 4);
        y[static_cast<std::size_t>(i)] = k;
        for (int r = 0; r < 12; ++r)
            for (int c = 0; c < 12; ++c)
                x[static_cast<std::size_t>(i * 144 + r * 12 + c)] =
                    noise(gen) + ((r / 6) * 2 + (c / 6) == k ? 1.f : 0.f);
    }
    return {Tensor<4>::from_data(TensorData(x, Dims{b, 1, 12, 12}), d),
            Tensor<1, Int>::from_data(TensorData(y, Dims{b}), d)};
}

TEST(CudaTraining, ConvNetTrainsAndMemoryStaysFlat) {
    REQUIRE_CUDA();
    const Device gpu = Device::cuda(0).autodiff();
    gpu.seed(7);
    Net net = make_net(gpu);
    auto opt = optim::AdamConfig{}.init();
    const auto data = batch(64, 11, gpu);
    const Tensor<4>& x = data.first;
    const Tensor<1, Int>& y = data.second;
    auto step = [&]() {  // every tensor of a step is dropped when it returns
        auto loss = nn::loss::CrossEntropyLoss().forward(net.forward(x), y);
        const double value = loss.into_scalar();
        auto grads = optim::GradientsParams::from_grads(loss.backward(), net);
        net = opt.step(1e-2, std::move(net), grads);
        return value;
    };
    const double first = step();
    for (int i = 1; i < 20; ++i) step();
    gpu.sync();
    const auto mid = cuda::memory_stats(0);
    double last = 0;
    for (int i = 20; i < 1000; ++i) last = step();  // the 1,000 training steps
    gpu.sync();
    const auto end = cuda::memory_stats(0);
    EXPECT_LT(last, 0.2 * first) << "loss " << first << " -> " << last;
    EXPECT_EQ(end.allocated, mid.allocated) << "device memory in use grew over training steps";
    EXPECT_EQ(end.reserved, mid.reserved) << "the allocator kept asking the driver for memory";
}

TEST(CudaTraining, OneStepMatchesCpu) {
    REQUIRE_CUDA();
    const Device cpu = Device::cpu().autodiff();
    const Device gpu = Device::cuda(0).autodiff();
    cpu.seed(3);
    Net a = make_net(cpu);
    Net b = a.to_device(gpu);
    const bool tf32 = cuda::allow_tf32_conv();
    cuda::set_allow_tf32_conv(false);  // the CPU computes exact f32; TF32 is checked in cuda_conv_test
    auto [x, y] = batch(16, 5, cpu);
    auto la = nn::loss::CrossEntropyLoss().forward(a.forward(x), y);
    auto lb = nn::loss::CrossEntropyLoss().forward(b.forward(x.to_device(gpu)), y.to_device(gpu));
    EXPECT_NEAR(la.into_scalar(), lb.into_scalar(), 1e-5);
    auto ga = la.backward();
    auto gb = lb.backward();
    cuda::set_allow_tf32_conv(tf32);
    auto wa = a.conv.weight.val().grad(ga), wb = b.conv.weight.val().grad(gb);
    ASSERT_TRUE(wa.has_value() && wb.has_value());
    EXPECT_LT(max_rel_diff(wb->into_data(), wa->into_data()), 1e-4);
}
#endif

}  // namespace
}  // namespace burn
