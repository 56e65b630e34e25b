#pragma once
// The [outer, n, inner] view of a contiguous tensor reduced (or scanned, or softmaxed) along one dim,
// shared by the CPU and CUDA reduction kernels.
#include <cstdint>

#include "burn/core/shape.hpp"

namespace burn::reduction {

struct Geometry {
    int64_t outer = 1, n = 1, inner = 1;
};

inline Geometry geometry(const Dims& shape, int dim) {
    Geometry g;
    for (int i = 0; i < dim; ++i) g.outer *= shape[i];
    g.n = shape[dim];
    for (int i = dim + 1; i < shape.rank(); ++i) g.inner *= shape[i];
    return g;
}

}  // namespace burn::reduction
