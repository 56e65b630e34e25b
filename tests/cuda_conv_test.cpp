// CUDA convolutions (cuDNN when it loads, else im2col + cuBLAS) against the CPU backend: 1-D, 2-D and
// 3-D conv and both adjoints over groups / stride / padding (asymmetric too) / dilation mixes in
// f32 (TF32 off: exact f32 is what the CPU computes), f64, f16 and bf16; transposed 3-D convolution;
// im2col and cuDNN agreeing; the BURN_CUDA_CUDNN switch (3-D unsupported without cuDNN); the TF32
// switch. The cuDNN status test runs without a GPU too (the library loads lazily or not at all).
#include <gtest/gtest.h>

#include <burn/burn.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "cuda_test_util.hpp"
#include "ops/module_ops_internal.hpp"
#include "reference.hpp"

#ifdef BURN_HAVE_CUDA
#include "backends/cuda/cuda.hpp"
#endif

namespace burn {
namespace {

#ifdef BURN_HAVE_CUDA

/// Exact f32 convolutions for the duration of a test (the CPU reference computes in f32).
struct ExactConv {
    ExactConv() : prev(cuda::allow_tf32_conv()) { cuda::set_allow_tf32_conv(false); }
    ~ExactConv() { cuda::set_allow_tf32_conv(prev); }
    bool prev;
};

/// Every convolution on cuDNN when it is loaded, however small (the default keeps small f32/f64
/// 1-D/2-D ones on im2col).
struct CudnnEvenWhenSmall {
    CudnnEvenWhenSmall() : prev(cuda::cudnn_min_macs()) { cuda::set_cudnn_min_macs(0); }
    ~CudnnEvenWhenSmall() { cuda::set_cudnn_min_macs(prev); }
    int64_t prev;
};

struct UseCudnn {
    explicit UseCudnn(bool on) : prev(cuda::use_cudnn()) { cuda::set_use_cudnn(on); }
    ~UseCudnn() { cuda::set_use_cudnn(prev); }
    bool prev;
};

/// max |a - b| / max |b|.
double rel_diff(const TensorData& a, const TensorData& b) {
    EXPECT_EQ(a.shape(), b.shape());
    double num = 0, den = 0;
    for (int64_t i = 0; i < a.numel(); ++i) {
        const double x = a.value_as_double(i), y = b.value_as_double(i);
        num = std::max(num, std::abs(x - y));
        den = std::max(den, std::abs(y));
    }
    return num / std::max(den, 1e-30);
}

struct Case {
    const char* name;
    Dims x, w;  // w = [O, C / groups, k...]
    std::vector<int64_t> stride, pb, pe, dil;
    int64_t groups;
    bool bias;
};

attrs::Conv spec_of(const Case& c) {
    attrs::Conv s;
    s.spatial = c.x.rank() - 2;
    for (int i = 0; i < s.spatial; ++i) {
        s.stride[i] = c.stride[static_cast<std::size_t>(i)];
        s.pad_begin[i] = c.pb[static_cast<std::size_t>(i)];
        s.pad_end[i] = c.pe[static_cast<std::size_t>(i)];
        s.dilation[i] = c.dil[static_cast<std::size_t>(i)];
    }
    s.groups = c.groups;
    return s;
}

Dims out_shape(const Case& c) {
    const attrs::Conv s = spec_of(c);
    Dims y = c.x;
    y[1] = c.w[0];
    for (int i = 0; i < s.spatial; ++i)
        y[i + 2] = ops::detail::conv_out_size(c.x[i + 2], c.w[i + 2], s.stride[i], s.pad_begin[i],
                                              s.pad_end[i], s.dilation[i]);
    return y;
}

const std::vector<Case>& cases() {
    static const std::vector<Case> v = {
        {"1-D stride 2 groups 2", {2, 4, 17}, {6, 2, 3}, {2}, {1}, {1}, {1}, 2, true},
        {"1-D asymmetric padding, dilation 2", {3, 3, 10}, {4, 3, 4}, {1}, {2}, {1}, {2}, 1, false},
        {"2-D 3x3 pad 1", {2, 3, 9, 8}, {5, 3, 3, 3}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, 1, true},
        {"2-D stride/dilation/groups 3",
         {2, 6, 11, 9},
         {6, 2, 3, 2},
         {2, 1},
         {1, 0},
         {1, 0},
         {1, 2},
         3,
         true},
        {"2-D asymmetric padding", {1, 2, 7, 7}, {3, 2, 3, 3}, {2, 2}, {0, 1}, {1, 0}, {1, 1}, 1, false},
        {"2-D depthwise", {2, 8, 6, 6}, {8, 1, 3, 3}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, 8, true},
        {"3-D stride/dilation",
         {2, 3, 5, 6, 7},
         {4, 3, 3, 2, 3},
         {1, 2, 1},
         {1, 0, 1},
         {1, 0, 1},
         {1, 1, 2},
         1,
         true},
        {"3-D groups 2 asymmetric padding",
         {1, 4, 6, 5, 4},
         {6, 2, 2, 3, 2},
         {2, 1, 1},
         {0, 1, 1},
         {1, 0, 1},
         {1, 1, 1},
         2,
         false},
        {"3-D 1x1x1", {2, 5, 3, 3, 3}, {7, 5, 1, 1, 1}, {1, 1, 1}, {0, 0, 0}, {0, 0, 0}, {1, 1, 1}, 1, true},
    };
    return v;
}

/// The three ops of `c` on `d` in dtype `dt` (inputs generated in f32 and cast).
std::vector<TensorData> run_case(const Case& c, DType dt, const Device& d) {
    const attrs::Conv spec = spec_of(c);
    const Dims y = out_shape(c);
    auto in = [&](const Dims& s, uint32_t seed) {
        return ops::cast(ops::from_data(ref::normal_data(s, seed), d), dt);
    };
    std::optional<TensorAny> b;
    if (c.bias) b = in(Dims{c.w[0]}, 3);
    std::vector<TensorData> out;
    out.push_back(ops::into_data(ops::detail::conv_call(in(c.x, 1), in(c.w, 2), b, spec, y)));
    out.push_back(ops::into_data(ops::detail::conv_backward_input(in(y, 4), in(c.w, 2), spec, c.x)));
    out.push_back(ops::into_data(ops::detail::conv_backward_weight(in(c.x, 1), in(y, 4), spec, c.w)));
    return out;
}

const char* const kOps[] = {"conv", "conv_backward_input", "conv_backward_weight"};

void expect_close(const std::vector<TensorData>& got, const std::vector<TensorData>& want, double tol) {
    for (int k = 0; k < 3; ++k) {
        EXPECT_EQ(got[k].dtype(), want[k].dtype()) << kOps[k];
        EXPECT_LE(rel_diff(got[k], want[k]), tol) << kOps[k];
    }
}

double tol_of(DType dt) {
    switch (dt) {
        case DType::f64:
            return 1e-12;
        case DType::f16:
            return 5e-3;
        case DType::bf16:
            return 3e-2;
        default:
            return 2e-5;
    }
}

TEST(CudaConv, MatchesCpuInEveryFloatDtype) {
    REQUIRE_CUDA();
    ExactConv exact;
    CudnnEvenWhenSmall all;
    const Device gpu = Device::cuda(0);
    const auto st0 = cuda::cudnn_status();
    const int64_t before = st0.convolutions;
    for (DType dt : {DType::f32, DType::f64, DType::f16, DType::bf16}) {
        for (const Case& c : cases()) {
            SCOPED_TRACE(::testing::Message() << c.name << " " << dt);
            expect_close(run_case(c, dt, gpu), run_case(c, dt, Device::cpu()), tol_of(dt));
        }
    }
    const auto st = cuda::cudnn_status();
    std::cout << "[  NOTE    ] " << st.detail << "; " << st.convolutions - before
              << " convolutions through cuDNN, " << st.declined << " declined\n";
    if (st.loaded) {
        EXPECT_GT(st.convolutions - before, 0);
        EXPECT_EQ(st.declined, st0.declined) << "cuDNN found no algorithm for some of these convolutions";
    }
}

TEST(CudaConv, Im2colAndCudnnAgree) {
    REQUIRE_CUDA();
    ExactConv exact;
    CudnnEvenWhenSmall all;
    const Device gpu = Device::cuda(0);
    for (const Case& c : cases()) {
        if (c.x.rank() == 5) continue;  // im2col covers 1-D and 2-D
        SCOPED_TRACE(c.name);
        std::vector<TensorData> a, b;
        {
            UseCudnn on(true);
            a = run_case(c, DType::f32, gpu);
        }
        {
            UseCudnn off(false);
            b = run_case(c, DType::f32, gpu);
        }
        expect_close(a, b, 2e-5);
    }
    if (!cuda::cudnn_status().loaded) GTEST_SKIP() << "cuDNN not loaded: " << cuda::cudnn_status().detail;
}

TEST(CudaConv, WithoutCudnnThreeDDecomposesAndTwoDStillRuns) {
    REQUIRE_CUDA();
    const Device gpu = Device::cuda(0);
    UseCudnn off(false);
    EXPECT_FALSE(cuda::cudnn_status().enabled);
    ExactConv exact;
    const int64_t before = cuda::cudnn_status().convolutions;
    // 3-D convolution has no CUDA kernel without cuDNN: it runs as its decomposition (per-tap matmuls).
    const Case& c3 = cases()[6];
    expect_close(run_case(c3, DType::f32, gpu), run_case(c3, DType::f32, Device::cpu()), 2e-5);
    expect_close(run_case(cases()[2], DType::f32, gpu), run_case(cases()[2], DType::f32, Device::cpu()),
                 2e-5);
    EXPECT_EQ(cuda::cudnn_status().convolutions, before) << "cuDNN ran while switched off";
}

TEST(CudaConv, TransposedConvolutionsMatchCpu) {
    REQUIRE_CUDA();
    ExactConv exact;
    CudnnEvenWhenSmall all;
    struct T {
        Dims x, w;  // w = [in, out / groups, k...]
        std::vector<int64_t> stride, pad, pad_out, dil;
        int64_t groups;
    };
    const std::vector<T> ts = {
        {{1, 4, 3, 4, 3}, {4, 2, 3, 3, 2}, {2, 2, 1}, {1, 0, 0}, {1, 1, 0}, {1, 1, 1}, 2},
        {{1, 2, 4, 4}, {2, 3, 3, 3}, {1, 1}, {1, 1}, {1, 0}, {2, 2}, 1},  // padding_out >= stride
        {{2, 3, 6}, {3, 2, 4}, {3}, {2}, {1}, {1}, 1},
    };
    for (const T& t : ts) {
        attrs::Conv s;
        s.spatial = t.x.rank() - 2;
        for (int i = 0; i < s.spatial; ++i) {
            s.stride[i] = t.stride[static_cast<std::size_t>(i)];
            s.pad_begin[i] = s.pad_end[i] = t.pad[static_cast<std::size_t>(i)];
            s.dilation[i] = t.dil[static_cast<std::size_t>(i)];
        }
        s.groups = t.groups;
        auto run = [&](const Device& d) {
            return ops::into_data(ops::detail::conv_transpose_nd(
                ops::from_data(ref::normal_data(t.x, 5), d), ops::from_data(ref::normal_data(t.w, 6), d),
                ops::from_data(ref::normal_data(Dims{t.w[1] * t.groups}, 7), d), s, t.pad_out.data(),
                "conv_transpose"));
        };
        SCOPED_TRACE(::testing::Message() << "transposed " << t.x);
        EXPECT_LE(rel_diff(run(Device::cuda(0)), run(Device::cpu())), 2e-5);
    }
}

TEST(CudaConv, Tf32FollowsItsSwitch) {
    REQUIRE_CUDA();
    const Device gpu = Device::cuda(0);
    CudnnEvenWhenSmall all;
    const Case c{
        "2-D 32 channels", {8, 32, 16, 16}, {32, 32, 3, 3}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, 1, false};
    const auto want = run_case(c, DType::f32, Device::cpu());
    const bool prev = cuda::allow_tf32_conv();
    EXPECT_TRUE(cuda::allow_tf32_conv() || std::getenv("BURN_CUDA_CONV_TF32"))
        << "TF32 for conv is on by default";
    cuda::set_allow_tf32_conv(false);
    const auto exact = run_case(c, DType::f32, gpu);
    cuda::set_allow_tf32_conv(true);
    const auto fast = run_case(c, DType::f32, gpu);
    cuda::set_allow_tf32_conv(prev);
    double worst = 0;
    for (int k = 0; k < 3; ++k) {
        EXPECT_LE(rel_diff(exact[k], want[k]), 2e-5) << kOps[k] << " with TF32 off";
        EXPECT_LE(rel_diff(fast[k], want[k]), 5e-3) << kOps[k] << " with TF32 on";  // 10-bit mantissa
        worst = std::max(worst, rel_diff(fast[k], want[k]));
    }
    std::cout << "[  NOTE    ] TF32 conv: largest relative difference to the CPU " << worst << "\n";
}

TEST(CudaConv, SmallConvolutionsStayOnIm2col) {
    REQUIRE_CUDA();
    if (!cuda::cudnn_status().loaded) GTEST_SKIP() << "cuDNN not loaded: " << cuda::cudnn_status().detail;
    ExactConv exact;
    const int64_t prev = cuda::cudnn_min_macs();
    cuda::set_cudnn_min_macs(int64_t{1} << 23);
    const Device gpu = Device::cuda(0);
    // 2 x 5 x 9 x 8 outputs x 27 taps: far below the threshold; 16 x 32 x 32 x 32 x 288: far above.
    const Case small = cases()[2];
    const Case big{"big", {16, 32, 32, 32}, {32, 32, 3, 3}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, 1, true};
    const int64_t n0 = cuda::cudnn_status().convolutions;
    expect_close(run_case(small, DType::f32, gpu), run_case(small, DType::f32, Device::cpu()), 2e-5);
    const int64_t n1 = cuda::cudnn_status().convolutions;
    (void)run_case(big, DType::f32, gpu);
    (void)run_case(small, DType::f16, gpu);  // 16-bit: cuDNN at any size (native, no widening)
    const int64_t n2 = cuda::cudnn_status().convolutions;
    cuda::set_cudnn_min_macs(prev);
    EXPECT_EQ(n1, n0) << "a small f32 convolution went to cuDNN";
    EXPECT_EQ(n2 - n1, 6) << "the big f32 and the f16 convolutions (3 ops each) should run on cuDNN";
}

#endif  // BURN_HAVE_CUDA

TEST(CudaConv, CudnnStatusIsConsistentWithoutAGpuToo) {
#ifndef BURN_HAVE_CUDA
    GTEST_SKIP() << "built without the CUDA backend";
#else
    const auto st = cuda::cudnn_status();  // may load libcudnn.so.9: must work without a GPU
    std::cout << "[  NOTE    ] " << st.detail << "\n";
    EXPECT_FALSE(st.detail.empty());
    if (!st.compiled || !st.enabled) {
        EXPECT_FALSE(st.loaded);
    }
    if (st.loaded) {
        EXPECT_EQ(st.version / 10000, 9) << st.detail;
    }
    EXPECT_GE(st.convolutions, 0);
#endif
}

TEST(CudaConv, MissingLibraryIsReportedNotFatal) {
#ifndef BURN_HAVE_CUDA
    GTEST_SKIP() << "built without the CUDA backend";
#else
    const bool enabled = cuda::use_cudnn();
    cuda::set_use_cudnn(false);  // so that cudnn_status() does not open the library in this process
    const bool compiled = cuda::cudnn_status().compiled;
    cuda::set_use_cudnn(enabled);
    if (!compiled) GTEST_SKIP() << "built without cuDNN";
    // A fresh process (the library is opened once per process) pointed at a file that does not exist:
    // cuDNN reports why it is not used, and nothing throws.
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(
        {
            setenv("BURN_CUDNN_LIBRARY", "/nonexistent/libcudnn.so.9", 1);
            cuda::set_use_cudnn(true);
            const auto st = cuda::cudnn_status();
            std::fprintf(stderr, "detail: %s\n", st.detail.c_str());
            std::exit(!st.loaded && st.detail.find("not loaded") != std::string::npos ? 0 : 1);
        },
        ::testing::ExitedWithCode(0), "detail: libcudnn.so.9 not loaded");
#endif
}

}  // namespace
}  // namespace burn
