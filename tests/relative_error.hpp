#pragma once
// The real-model suites' measure (src/onnx/onnx_real_models_test.cpp, tests/onnx_codegen_real.cpp):
// max |got - want| / max(max |want|, 1e-6) over the whole tensor, in double; infinity when the sizes
// differ or got holds a non-finite value.
#include <algorithm>
#include <cmath>

#include "burn/burn.hpp"

namespace burn::testing {

inline double relative_error(const TensorAny& got, const TensorData& want) {
    const auto g = ops::into_data(got).convert(DType::f64).to_vec<double>();
    const auto w = want.convert(DType::f64).to_vec<double>();
    if (g.size() != w.size()) return INFINITY;
    double diff = 0, scale = 1e-6;
    for (std::size_t i = 0; i < g.size(); ++i) {
        if (!std::isfinite(g[i])) return INFINITY;
        diff = std::max(diff, std::abs(g[i] - w[i]));
        scale = std::max(scale, std::abs(w[i]));
    }
    return diff / scale;
}

}  // namespace burn::testing
