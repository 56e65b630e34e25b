#pragma once
// The kernels every strided backend shares, written once over two hooks of the backend: allocating a
// contiguous tensor, and copying a strided tensor into a strided region of another (copy_region). The
// views (reshape, permute, expand, slice), in-place reuse of an input, contiguous copies, cat and
// slice_assign are then the same code on the CPU and CUDA backends. A new strided backend writes its
// Traits and copy_region and registers these rows (docs/backends.md, "The strided layer").
//
//   struct Traits {
//       using Tensor = ...;   // derived from strided::Tensor<its storage>
//       static std::shared_ptr<Tensor> alloc(const Dims& shape, DType dtype, const Device& device);
//       // dst's region (src's shape, dst_strides, dst_offset) = src, same dtype
//       static void copy_region(const Tensor& src, const Tensor& dst, const Dims& dst_strides,
//                               int64_t dst_offset);
//   };
#include <initializer_list>
#include <memory>

#include "backends/common/strided_tensor.hpp"
#include "backends/common/view_geometry.hpp"
#include "burn/backend/op_attrs.hpp"

namespace burn::strided {

template <class Traits>
struct Ops {
    using T = typename Traits::Tensor;

    static const T& as(const TensorRef& t) { return static_cast<const T&>(*t); }

    static std::shared_ptr<T> view_of(const T& x, const Dims& shape, const Dims& strides, int64_t offset) {
        return std::make_shared<T>(shape, x.dtype, x.device, x.storage, strides, offset);
    }

    /// The output for an op producing shape/dtype: input i's tensor itself when the caller handed over
    /// the only reference to a dense buffer of that shape and dtype (in place), a new tensor otherwise.
    static std::shared_ptr<T> reuse_or_alloc(TensorRefs& inputs, std::initializer_list<int> candidates,
                                             const Dims& shape, DType dtype, const Device& device) {
        for (int i : candidates) {
            const TensorRef& t = inputs[static_cast<std::size_t>(i)];
            const T& c = as(t);
            if (c.dtype == dtype && c.shape == shape && c.is_unique_dense(t.use_count()))
                return std::static_pointer_cast<T>(t);
        }
        return Traits::alloc(shape, dtype, device);
    }

    /// A contiguous copy of t (same dtype).
    static TensorRef contiguous_copy(const TensorRef& t) {
        const T& x = as(t);
        auto out = Traits::alloc(x.shape, x.dtype, x.device);
        if (x.shape.numel() > 0) Traits::copy_region(x, *out, out->strides, out->offset);
        return out;
    }
    /// t itself when contiguous, a contiguous copy otherwise.
    static TensorRef contiguous(const TensorRef& t) { return as(t).is_contiguous() ? t : contiguous_copy(t); }

    // ---- kernels (KernelTable rows)

    static TensorRefs copy(const OpCall&, TensorRefs& in) { return {contiguous_copy(in[0])}; }

    static TensorRefs reshape(const OpCall& call, TensorRefs& in) {
        TensorRef src = contiguous(in[0]);
        const T& x = as(src);
        return {view_of(x, call.shape, call.shape.contiguous_strides(), x.offset)};
    }
    static TensorRefs permute(const OpCall& call, TensorRefs& in) {
        const T& x = as(in[0]);
        const view::Geometry g = view::permute(call, x.shape, x.strides, x.offset);
        return {view_of(x, g.shape, g.strides, g.offset)};
    }
    static TensorRefs expand(const OpCall& call, TensorRefs& in) {
        const T& x = as(in[0]);
        const view::Geometry g = view::expand(call, x.shape, x.strides, x.offset);
        return {view_of(x, g.shape, g.strides, g.offset)};
    }
    static TensorRefs slice(const OpCall& call, TensorRefs& in) {
        const T& x = as(in[0]);
        const view::Geometry g = view::slice(call, x.shape, x.strides, x.offset);
        return {view_of(x, g.shape, g.strides, g.offset)};
    }

    /// Each input copied into its region of the output along the attrs::Dim dim.
    static TensorRefs cat(const OpCall& call, TensorRefs& in) {
        const int dim = static_cast<int>(call.attrs<attrs::Dim>().dim);
        auto out = Traits::alloc(call.shape, call.dtype, in[0]->device);
        int64_t at = 0;
        for (const TensorRef& t : in) {
            const T& x = as(t);
            if (x.shape.numel() > 0)
                Traits::copy_region(x, *out, out->strides, out->offset + at * out->strides[dim]);
            at += x.shape[dim];
        }
        return {out};
    }

    /// A writable output of in[0]'s shape and dtype holding its values: in[0] itself when uniquely owned.
    static std::shared_ptr<T> copy_of_input0(const OpCall& call, TensorRefs& in) {
        auto out = reuse_or_alloc(in, {0}, call.shape, call.dtype, in[0]->device);
        if (out.get() != in[0].get() && out->shape.numel() > 0)
            Traits::copy_region(as(in[0]), *out, out->strides, out->offset);
        return out;
    }

    /// in[0] with the attrs::Slice region replaced by in[1] (the region is a slice view of the output).
    static TensorRefs slice_assign(const OpCall& call, TensorRefs& in) {
        auto out = copy_of_input0(call, in);
        const T& values = as(in[1]);
        if (values.shape.numel() == 0) return {out};
        const view::Geometry g = view::slice(call, out->shape, out->strides, out->offset);
        Traits::copy_region(values, *out, g.strides, g.offset);
        return {out};
    }
};

}  // namespace burn::strided
