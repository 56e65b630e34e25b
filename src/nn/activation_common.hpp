#pragma once
// Helpers shared by the composite activations (src/nn/activation_*.cpp, src/nn/prelu.cpp).
#include <limits>

#include "burn/tensor/tensor.hpp"

namespace burn::activation::any::detail {

inline void check_float(const TensorAny& x, const char* name) {
    BURN_CHECK(x.defined(), "[", name, "] got an undefined tensor");
    BURN_CHECK_KIND(is_float(x.dtype()), dtype, "[", name, "] needs a Float tensor, got ", x.dtype(), " ",
                    x.shape());
}
/// min(x, 0) - exp of it never overflows, and its gradient is 0 for x > 0.
inline TensorAny neg_part(const TensorAny& x) {
    return ops::clamp(x, -std::numeric_limits<double>::infinity(), 0.0);
}

}  // namespace burn::activation::any::detail
