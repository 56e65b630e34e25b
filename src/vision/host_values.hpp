#pragma once
// The vision ops that run on the host read a tensor's values as float64 and write their result back
// in the input's dtype on the input's device.
#include <vector>

#include "burn/tensor/ops.hpp"
#include "burn/tensor/tensor.hpp"

namespace burn::vision::detail {

inline std::vector<double> host_values(const TensorAny& t) {
    return burn::ops::into_data(t).convert(DType::f64).to_vec<double>();
}

inline TensorAny from_host(const std::vector<double>& values, const Dims& shape, DType dtype,
                           const Device& device) {
    return burn::ops::from_data(TensorData(values, shape).convert(dtype), device);
}

}  // namespace burn::vision::detail
