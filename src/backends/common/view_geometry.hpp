#pragma once
// The geometry of the view ops (permute, expand, slice): the new shape, strides and element offset of
// a view of a strided tensor. Every backend with strided storage (CPU, CUDA) builds its views from
// these, so a view means the same thing on each.
#include <cstdint>

#include "burn/backend/op_attrs.hpp"
#include "burn/core/shape.hpp"
#include "burn/tensor/slice.hpp"

namespace burn::view {

struct Geometry {
    Dims shape, strides;
    int64_t offset = 0;
};

/// permute: dimension i of the view is dimension axes[i] of the source (attrs::Permute).
inline Geometry permute(const OpCall& call, const Dims& shape, const Dims& strides, int64_t offset) {
    Geometry g{shape, strides, offset};
    const auto axes = call.attrs<attrs::Permute>().axes;
    for (int i = 0; i < shape.rank(); ++i) {
        g.shape[i] = shape[static_cast<int>(axes[static_cast<std::size_t>(i)])];
        g.strides[i] = strides[static_cast<int>(axes[static_cast<std::size_t>(i)])];
    }
    return g;
}

/// expand to call.shape: new leading dimensions and broadcast (size-1) ones get stride 0.
inline Geometry expand(const OpCall& call, const Dims& shape, const Dims& strides, int64_t offset) {
    const int lead = call.shape.rank() - shape.rank();
    Geometry g{call.shape, Dims::filled(call.shape.rank(), 0), offset};
    for (int i = 0; i < shape.rank(); ++i)
        g.strides[lead + i] = (shape[i] == call.shape[lead + i]) ? strides[i] : 0;
    return g;
}

/// slice: one range (start, end, step) per dimension (attrs::Slice); a negative step walks
/// [start, end) backwards.
inline Geometry slice(const OpCall& call, const Dims& shape, const Dims& strides, int64_t offset) {
    Geometry g{shape, strides, offset};
    const auto ranges = call.attrs<attrs::Slice>().ranges;
    for (int d = 0; d < shape.rank(); ++d) {
        const auto& a = ranges[static_cast<std::size_t>(d)];
        SliceRange r{a.start, a.end, a.step};
        const int64_t len = r.length();
        g.shape[d] = len;
        if (len == 0) continue;
        const int64_t first = r.step > 0 ? r.start : r.end - 1;
        g.offset += first * strides[d];
        g.strides[d] = strides[d] * r.step;
    }
    return g;
}

}  // namespace burn::view
