#pragma once
// What the CUDA suites share: whether a GPU is there, and a skip that says why not.
#include <gtest/gtest.h>

#include <string>

#include "burn/burn.hpp"
#ifdef BURN_HAVE_CUDA
#include "backends/cuda/cuda.hpp"
#endif

namespace burn::cuda_test {

inline bool has_cuda() {
    for (const Device& d : Device::available())
        if (d.backend_name() == "cuda") return true;
    return false;
}

inline std::string why_no_cuda() {
#ifdef BURN_HAVE_CUDA
    return "no CUDA device: " + cuda::unavailable_reason();
#else
    return "built without the CUDA backend (-DBURN_CUDA=OFF or no toolkit)";
#endif
}

/// CUDA convolutions in exact f32 while it lives: TF32, their default like PyTorch's, is checked by
/// cuda_conv_test at TF32 tolerances; comparisons with the CPU or PyTorch at f32 tolerances need this.
struct ExactDeviceMath {
#ifdef BURN_HAVE_CUDA
    ExactDeviceMath() : tf32_conv(cuda::allow_tf32_conv()) {
        cuda::set_allow_tf32_conv(false);
    }
    ~ExactDeviceMath() {
        cuda::set_allow_tf32_conv(tf32_conv);
    }
    ExactDeviceMath(const ExactDeviceMath&) = delete;
    ExactDeviceMath& operator=(const ExactDeviceMath&) = delete;
    bool tf32_conv;
#endif
};

}  // namespace burn::cuda_test

#define REQUIRE_CUDA() \
    if (!::burn::cuda_test::has_cuda()) GTEST_SKIP() << ::burn::cuda_test::why_no_cuda()
