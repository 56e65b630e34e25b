#pragma once
/// The backend-side tensor: what TensorAny holds. Kept apart from backend.hpp (the op table's OpId and
/// OpCall) so that code using tensors does not depend on the op tables: editing a row of ops.def
/// rebuilds the op files and backends, not every file that holds a tensor.
#include <memory>
#include <vector>

#include "burn/core/device.hpp"
#include "burn/core/dtype.hpp"
#include "burn/core/shape.hpp"

namespace burn {

/// A backend's tensor. Metadata is immutable; backends subclass it with their storage.
struct TensorImpl {
    TensorImpl(Dims shape_, DType dtype_, Device device_) : shape(shape_), dtype(dtype_), device(device_) {}
    virtual ~TensorImpl() = default;
    const Dims shape;
    const DType dtype;
    const Device device;
};
using TensorRef = std::shared_ptr<TensorImpl>;
using TensorRefs = std::vector<TensorRef>;

}  // namespace burn
