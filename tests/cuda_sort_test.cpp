// The CUDA backend's sort / topk on long lines (CUB's radix sort, any length) and its deterministic
// select_add / scatter_add (stably sorted indices): all bit for bit against the CPU backend, for every dtype,
// NaN and -0 among floats, many duplicates, the sort dim first, in the middle and last, non-contiguous
// inputs, and bad indices. A naive stable sort checks the CPU on the longest case. Without a GPU (or
// without BURN_CUDA) the tests skip with the reason. DISABLED_ tests print timings on the GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <burn/burn.hpp>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>

#include "cuda_test_util.hpp"

#ifdef BURN_HAVE_CUDA
#include "backends/cuda/cuda.hpp"
#endif

namespace burn {
namespace {

/// Values with many duplicates in dt: floats from a small set plus NaN, +-inf, -0 and 0; integers
/// in a small range (bool: 0/1).
TensorData values_for(const Dims& shape, DType dt, uint32_t seed) {
    std::mt19937 gen(seed);
    std::vector<double> v(static_cast<std::size_t>(shape.numel()));
    const double nan = std::numeric_limits<double>::quiet_NaN(),
                 inf = std::numeric_limits<double>::infinity();
    for (double& x : v) {
        const uint32_t r = gen() % 1000;
        if (dt == DType::boolean) {
            x = r % 2;
        } else if (!is_float(dt)) {
            x = static_cast<double>(r % 11) - (dt == DType::u8 ? 0.0 : 5.0);
        } else if (r < 20) {
            x = nan;
        } else if (r < 30) {
            x = r % 2 ? inf : -inf;
        } else if (r < 60) {
            x = r % 2 ? -0.0 : 0.0;
        } else if (r < 500) {
            x = 0.25 * static_cast<double>(r % 37) - 4.0;  // ties
        } else {
            x = std::ldexp(static_cast<double>(gen() % 100000) - 50000.0, -10);
        }
    }
    return TensorData(v, shape).convert(dt);
}

TensorAny on(const TensorData& d, const Device& dev) {
    return ops::from_data(d, dev);
}

/// sort (ascending and descending) and topk of x along dim: values and indices equal the CPU's.
void expect_sort_matches(const TensorData& data, int64_t dim, int64_t k, const std::string& what) {
    const Device gpu = Device::cuda(0), cpu = Device::cpu();
    for (bool desc : {false, true}) {
        auto want = ops::sort_with_indices(on(data, cpu), dim, desc);
        auto got = ops::sort_with_indices(on(data, gpu), dim, desc);
        EXPECT_TRUE(ops::into_data(got.first) == ops::into_data(want.first)) << what << " desc " << desc;
        EXPECT_TRUE(ops::into_data(got.second) == ops::into_data(want.second)) << what << " desc " << desc;
    }
    auto want = ops::topk_with_indices(on(data, cpu), k, dim);
    auto got = ops::topk_with_indices(on(data, gpu), k, dim);
    EXPECT_TRUE(ops::into_data(got.first) == ops::into_data(want.first)) << what << " topk " << k;
    EXPECT_TRUE(ops::into_data(got.second) == ops::into_data(want.second)) << what << " topk " << k;
}

const std::vector<DType> kSortDtypes = {DType::f32, DType::f64, DType::f16, DType::bf16, DType::i32,
                                        DType::i64, DType::i16, DType::i8,  DType::u8,   DType::boolean};

TEST(CudaSort, LongLinesEveryDtypeAndDimMatchCpu) {
    REQUIRE_CUDA();
    uint32_t seed = 1;
    for (DType dt : kSortDtypes) {
        expect_sort_matches(values_for(Dims{3, 5000}, dt, seed++), 1, 17, "[3, 5000] dim 1");
        expect_sort_matches(values_for(Dims{5000, 3}, dt, seed++), 0, 5000, "[5000, 3] dim 0");
        expect_sort_matches(values_for(Dims{2, 4500, 3}, dt, seed++), 1, 1, "[2, 4500, 3] dim 1");
        expect_sort_matches(values_for(Dims{4097}, dt, seed++), 0, 4096, "[4097]");
    }
}

TEST(CudaSort, ShortLinesStillMatchCpu) {
    REQUIRE_CUDA();
    for (DType dt : {DType::f32, DType::i64, DType::f16}) {
        expect_sort_matches(values_for(Dims{7, 4096}, dt, 50), 1, 100, "[7, 4096]");
        expect_sort_matches(values_for(Dims{300, 5}, dt, 51), 0, 3, "[300, 5] dim 0");
    }
}

TEST(CudaSort, HundredThousandMatchesCpuAndNaiveStableSort) {
    REQUIRE_CUDA();
    const TensorData data = values_for(Dims{4, 100000}, DType::f32, 7);
    expect_sort_matches(data, 1, 1000, "[4, 100000] f32");
    expect_sort_matches(values_for(Dims{100000, 2}, DType::f32, 8), 0, 3, "[100000, 2] dim 0");
    expect_sort_matches(values_for(Dims{2, 100000}, DType::f64, 9), -1, 5, "[2, 100000] f64");
    // A naive stable sort (NaN last) of the first line, against the GPU.
    auto v = data.to_vec<float>();
    std::vector<int32_t> order(100000);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
        const float x = v[static_cast<std::size_t>(a)], y = v[static_cast<std::size_t>(b)];
        if (std::isnan(y)) return !std::isnan(x);
        return !std::isnan(x) && x < y;
    });
    auto got = ops::sort_with_indices(on(data, Device::cuda(0)), 1, false);
    auto idx = ops::into_data(got.second).to_vec<int32_t>();
    EXPECT_TRUE(std::equal(order.begin(), order.end(), idx.begin())) << "first line's order";
}

TEST(CudaSort, NonContiguousInputMatchesCpu) {
    REQUIRE_CUDA();
    const TensorData data = values_for(Dims{6000, 3}, DType::f32, 11);
    auto cpu_x = ops::flip(ops::swap_dims(on(data, Device::cpu()), 0, 1), Dims{1});  // [3, 6000] strided
    auto gpu_x = ops::flip(ops::swap_dims(on(data, Device::cuda(0)), 0, 1), Dims{1});
    auto want = ops::sort_with_indices(cpu_x, 1, true);
    auto got = ops::sort_with_indices(gpu_x, 1, true);
    EXPECT_TRUE(ops::into_data(got.first) == ops::into_data(want.first));
    EXPECT_TRUE(ops::into_data(got.second) == ops::into_data(want.second));
}

// ------------------------------------------------------------------------------------ select_add

/// select_assign(x, dim, indices, values) on the GPU equals the CPU's, bit for bit.
void expect_select_add_matches(const Dims& xs, int64_t dim, int64_t m, DType dt, DType it, int64_t hot,
                               uint32_t seed, bool strided = false) {
    std::mt19937 gen(seed);
    const int d = static_cast<int>(dim < 0 ? dim + xs.rank() : dim);
    const int64_t n = xs[d];
    std::vector<double> iv(static_cast<std::size_t>(m));
    for (double& x : iv)  // most indices among `hot` rows: long runs of one index
        x = static_cast<double>(gen() % 4 ? gen() % static_cast<uint32_t>(hot)
                                          : gen() % static_cast<uint32_t>(n));
    Dims vs = xs;
    vs[d] = m;
    std::normal_distribution<double> nd(0.0, 1.0);
    auto random_data = [&](const Dims& s) {
        std::vector<double> v(static_cast<std::size_t>(s.numel()));
        for (double& x : v) x = is_float(dt) ? nd(gen) : static_cast<double>(gen() % 200) - 100.0;
        return TensorData(v, s).convert(dt);
    };
    const TensorData x = random_data(xs), vals = random_data(vs), idx = TensorData(iv, Dims{m}).convert(it);
    auto run = [&](const Device& dev) {
        TensorAny values = on(vals, dev), indices = on(idx, dev);
        if (strided) {  // values transposed twice (same shape, strided), indices a stepped slice
            TensorData tv =
                ops::into_data(ops::contiguous(ops::swap_dims(on(vals, Device::cpu()), 0, vs.rank() - 1)));
            values = ops::swap_dims(on(tv, dev), 0, vs.rank() - 1);
            std::vector<double> twice(static_cast<std::size_t>(2 * m));
            for (int64_t i = 0; i < m; ++i)
                twice[static_cast<std::size_t>(2 * i)] = iv[static_cast<std::size_t>(i)];
            indices =
                ops::slice(on(TensorData(twice, Dims{2 * m}).convert(it), dev), {SliceArg(0, 2 * m, 2)});
        }
        return ops::into_data(ops::select_assign(on(x, dev), dim, indices, values));
    };
    const TensorData want = run(Device::cpu());
    const TensorData got = run(Device::cuda(0));
    EXPECT_TRUE(got == want) << "select_add " << xs << " dim " << dim << " m " << m << " " << dt
                             << " indices " << it << (strided ? " strided" : "");
}

TEST(CudaSelectAdd, ManyRepeatedIndicesBitEqualToCpu) {
    REQUIRE_CUDA();
    expect_select_add_matches(Dims{1000, 64}, 0, 5000, DType::f32, DType::i32, 20, 1);
    expect_select_add_matches(Dims{1000, 64}, 0, 5000, DType::f32, DType::i64, 3, 2, true);
    expect_select_add_matches(Dims{8, 300, 16}, 1, 2000, DType::f32, DType::i32, 10, 3);
    expect_select_add_matches(Dims{8, 300, 16}, -1, 100, DType::f64, DType::i64, 4, 4, true);
    expect_select_add_matches(Dims{50, 7}, 1, 33, DType::f32, DType::i32, 2, 5);  // just past the threshold
    expect_select_add_matches(Dims{50, 7}, 1, 20, DType::f32, DType::i32, 2, 6);  // the serial path
    expect_select_add_matches(Dims{200}, 0, 3000, DType::f32, DType::u8, 30, 7);
    for (DType dt : {DType::f16, DType::bf16, DType::i32, DType::i64, DType::i16, DType::i8, DType::u8})
        expect_select_add_matches(Dims{200, 24}, 0, 1500, dt, DType::i32, 5, 8);
}

TEST(CudaSelectAdd, BadIndexThrowsAndTheDeviceStaysUsable) {
    REQUIRE_CUDA();
    const Device gpu = Device::cuda(0);
    for (int32_t bad : {-1, 100}) {
        std::vector<int32_t> iv(500, 3);
        iv[321] = bad;
        auto x = on(TensorData(std::vector<float>(100 * 8, 1.f), Dims{100, 8}), gpu);
        auto v = on(TensorData(std::vector<float>(500 * 8, 1.f), Dims{500, 8}), gpu);
        try {
            (void)ops::into_data(ops::select_assign(x, 0, on(TensorData(iv, Dims{500}), gpu), v));
            ADD_FAILURE() << "index " << bad << " did not throw";
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find("[select_assign]"), std::string::npos) << e.what();
            EXPECT_NE(std::string(e.what()).find(std::to_string(bad)), std::string::npos) << e.what();
        }
    }
    expect_select_add_matches(Dims{100, 8}, 0, 500, DType::f32, DType::i32, 3, 9);
}

// ----------------------------------------------------------------------------------- scatter_add

/// scatter(x, dim, indices, values) on the GPU equals the CPU's, bit for bit. Indices have shape
/// is (values vs, x xs); `strided` presents values transposed and indices flipped along dim.
void expect_scatter_matches(const Dims& xs, const Dims& is, const Dims& vs, int dim, DType dt, DType it,
                            int64_t hot, uint32_t seed, bool strided = false) {
    std::mt19937 gen(seed);
    const int64_t n = xs[dim];
    std::vector<double> iv(static_cast<std::size_t>(is.numel()));
    for (double& x : iv)
        x = static_cast<double>(gen() % 4 ? gen() % static_cast<uint32_t>(hot)
                                          : gen() % static_cast<uint32_t>(n));
    std::normal_distribution<double> nd(0.0, 1.0);
    auto random_data = [&](const Dims& s) {
        std::vector<double> v(static_cast<std::size_t>(s.numel()));
        for (double& x : v) x = is_float(dt) ? nd(gen) : static_cast<double>(gen() % 200) - 100.0;
        return TensorData(v, s).convert(dt);
    };
    const TensorData x = random_data(xs), vals = random_data(vs), idx = TensorData(iv, is).convert(it);
    const int last = vs.rank() - 1;
    auto run = [&](const Device& dev) {
        TensorAny values = on(vals, dev), indices = on(idx, dev);
        if (strided) {
            TensorData tv = ops::into_data(ops::contiguous(ops::swap_dims(on(vals, Device::cpu()), 0, last)));
            values = ops::swap_dims(on(tv, dev), 0, last);
            TensorData fi = ops::into_data(ops::contiguous(ops::flip(on(idx, Device::cpu()), Dims{dim})));
            indices = ops::flip(on(fi, dev), Dims{dim});
        }
        return ops::into_data(ops::scatter(on(x, dev), dim, indices, values));
    };
    const TensorData want = run(Device::cpu());
    const TensorData got = run(Device::cuda(0));
    EXPECT_TRUE(got == want) << "scatter " << xs << " dim " << dim << " indices " << is << " values " << vs
                             << " " << dt << (strided ? " strided" : "");
}

TEST(CudaScatterAdd, LongRunsBitEqualToCpu) {
    REQUIRE_CUDA();
    expect_scatter_matches(Dims{40, 6}, Dims{3000, 6}, Dims{3000, 6}, 0, DType::f32, DType::i32, 4, 1);
    expect_scatter_matches(Dims{40, 6}, Dims{3000, 5}, Dims{3001, 6}, 0, DType::f32, DType::i64, 4, 2, true);
    expect_scatter_matches(Dims{5, 30, 4}, Dims{5, 500, 3}, Dims{5, 500, 4}, 1, DType::f64, DType::i32, 3, 3);
    expect_scatter_matches(Dims{5, 30, 4}, Dims{4, 500, 3}, Dims{5, 501, 4}, 1, DType::f32, DType::i32, 3, 4,
                           true);
    expect_scatter_matches(Dims{6, 50}, Dims{6, 700}, Dims{6, 700}, 1, DType::f32, DType::u8, 5, 5);
    expect_scatter_matches(Dims{6, 50}, Dims{6, 20}, Dims{6, 20}, 1, DType::f32, DType::i32, 5,
                           6);  // serial path
    for (DType dt : {DType::f16, DType::bf16, DType::i32, DType::i64, DType::i8})
        expect_scatter_matches(Dims{30, 3}, Dims{900, 3}, Dims{900, 3}, 0, dt, DType::i32, 6, 7);
}

TEST(CudaScatterAdd, BadIndexThrows) {
    REQUIRE_CUDA();
    const Device gpu = Device::cuda(0);
    std::vector<int32_t> iv(2 * 300, 1);
    iv[451] = 30;
    auto x = on(TensorData(std::vector<float>(30 * 2, 1.f), Dims{30, 2}), gpu);
    auto v = on(TensorData(std::vector<float>(300 * 2, 1.f), Dims{300, 2}), gpu);
    try {
        (void)ops::into_data(ops::scatter(x, 0, on(TensorData(iv, Dims{300, 2}), gpu), v));
        ADD_FAILURE() << "index 30 of 30 did not throw";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("[scatter]"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("30"), std::string::npos) << e.what();
    }
    expect_scatter_matches(Dims{30, 2}, Dims{300, 2}, Dims{300, 2}, 0, DType::f32, DType::i32, 3, 8);
}

// ------------------------------------------------------------------------------------ timings

/// Milliseconds per call of f on the device (after a warm-up call; Device::sync waits for the stream).
template <class F>
double ms_per_call(const Device& d, F&& f, int reps) {
    f();  // warm-up (allocator, CUB temporary storage)
    d.sync();
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < reps; ++i) f();
    d.sync();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() / reps;
}

TEST(CudaSort, DISABLED_Timing) {
    REQUIRE_CUDA();
    const Device gpu = Device::cuda(0);
    auto x = on(values_for(Dims{64, 100000}, DType::f32, 3), gpu);
    std::printf("sort [64, 100000] f32 dim 1: %.3f ms\n",
                ms_per_call(
                    gpu, [&] { (void)ops::sort_with_indices(x, 1, false); }, 20));
    std::printf("topk k=10 of [64, 100000] f32: %.3f ms\n",
                ms_per_call(
                    gpu, [&] { (void)ops::topk_with_indices(x, 10, 1); }, 20));
    auto x1 = on(values_for(Dims{1, 1000000}, DType::f32, 3), gpu);
    std::printf("sort [1, 1000000] f32: %.3f ms\n",
                ms_per_call(
                    gpu, [&] { (void)ops::sort_with_indices(x1, 1, false); }, 20));
    auto xt = on(values_for(Dims{100000, 64}, DType::f32, 3), gpu);
    std::printf("sort [100000, 64] f32 dim 0: %.3f ms\n",
                ms_per_call(
                    gpu, [&] { (void)ops::sort_with_indices(xt, 0, false); }, 20));
    auto y = on(values_for(Dims{4096, 1024}, DType::f32, 4), gpu);
    std::printf("sort [4096, 1024] f32 dim 1 (bitonic): %.3f ms\n",
                ms_per_call(
                    gpu, [&] { (void)ops::sort_with_indices(y, 1, false); }, 20));
    std::mt19937 gen(5);
    std::vector<int32_t> iv(8192);
    for (auto& v : iv) v = static_cast<int32_t>(gen() % 4 ? gen() % 500 : gen() % 50304);
    std::vector<int32_t> uv(8192);
    for (auto& v : uv) v = static_cast<int32_t>(gen() % 50304);
    auto table = on(TensorData(std::vector<float>(50304 * 768, 0.f), Dims{50304, 768}), gpu);
    auto vals = on(values_for(Dims{8192, 768}, DType::f32, 6), gpu);
    for (const auto* ids : {&iv, &uv}) {
        auto idx = on(TensorData(*ids, Dims{8192}), gpu);
        // The table moves through the op (updated in place, as in an embedding's backward).
        std::printf("select_add 8192 rows (%s) into [50304, 768] f32, in place: %.3f ms\n",
                    ids == &iv ? "3/4 among 500 rows" : "uniform",
                    ms_per_call(
                        gpu, [&] { table = ops::select_assign(std::move(table), 0, idx, vals); }, 20));
    }
    std::vector<int32_t> sv(64 * 4096);
    for (auto& v : sv) v = static_cast<int32_t>(gen() % 1000);
    auto sidx = on(TensorData(sv, Dims{64, 4096}), gpu);
    auto svals = on(values_for(Dims{64, 4096}, DType::f32, 7), gpu);
    auto dst = on(TensorData(std::vector<float>(64 * 1000, 0.f), Dims{64, 1000}), gpu);
    std::printf("scatter_add [64, 4096] into [64, 1000] dim 1, in place: %.3f ms\n",
                ms_per_call(
                    gpu, [&] { dst = ops::scatter(std::move(dst), 1, sidx, svals); }, 20));
}

}  // namespace
}  // namespace burn
