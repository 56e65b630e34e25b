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

}  // namespace burn::cuda_test

#define REQUIRE_CUDA() \
    if (!::burn::cuda_test::has_cuda()) GTEST_SKIP() << ::burn::cuda_test::why_no_cuda()
