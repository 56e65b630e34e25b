// Creation and layout kernels: fill, arange, random (Philox, the CPU's sampler), cast of strided views,
// and copy_region, the hook over which the strided layer (backends/common/strided_ops.hpp) writes copy,
// cat and slice_assign.
#include <cmath>

#include "backends/common/philox.hpp"
#include "backends/cuda/kernels.cuh"

namespace burn::cuda {

namespace {

template <class T>
__host__ __device__ __forceinline__ T from_double(double v) {
    if constexpr (std::is_same_v<T, bool>)
        return v != 0.0;
    else if constexpr (is_half_v<T>)
        return T(static_cast<float>(v));  // the CPU's rounding: via float
    else
        return static_cast<T>(v);
}

template <class T>
__global__ void fill_k(T* o, T v, int64_t n) {
    BURN_GRID_STRIDE(i, n) o[i] = v;
}

template <class T>
__global__ void arange_k(T* o, double start, double step, int64_t n) {
    BURN_GRID_STRIDE(i, n) o[i] = from_double<T>(start + step * static_cast<double>(i));
}

template <class T>
__global__ void random_k(T* o, int kind, double a, double b, uint64_t key, uint64_t offset, int64_t n) {
    BURN_GRID_STRIDE(i, n) {
        double v = rng::sample(kind, a, b, key, offset + static_cast<uint64_t>(i));
        if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) v = floor(v);
        o[i] = from_double<T>(v);
    }
}

/// dst[off1] = src[off0] over an iteration shape (a strided region copy).
template <class T>
__global__ void copy_k(const T* s, T* d, Iter<2> it, int64_t n) {
    BURN_GRID_STRIDE(i, n) {
        int64_t off[2];
        it.offsets(i, off);
        d[off[1]] = s[off[0]];
    }
}

template <class TIn, class TOut>
__device__ __forceinline__ TOut convert(TIn x) {
    const dc_t<TIn> v = dc_t<TIn>(x);
    if constexpr (std::is_same_v<TOut, bool>)
        return static_cast<float>(v) != 0.0f;
    else
        return TOut(static_cast<dc_t<TOut>>(v));
}

template <class TIn, class TOut>
__global__ void cast_k(const TIn* s, TOut* d, Iter<1> it, int64_t n) {
    BURN_GRID_STRIDE(i, n) {
        int64_t off[1];
        it.offsets(i, off);
        d[i] = convert<TIn, TOut>(s[off[0]]);
    }
}

/// Contiguous cast, kCastVec elements per thread and step: one 16-byte load of the wider side (float4
/// of f32, 8 bf16 ...) and one store of the narrower. The strided kernel above computes an offset per
/// element and moves 2-4 bytes per access; autocast's casts (f32 <-> bf16 around every matmul) ran at
/// ~40% of the H100's bandwidth through it.
template <class T, int V>
struct alignas(sizeof(T) * V) Pack {
    T v[V];
};
template <class TIn, class TOut>
constexpr int cast_vec() {
    constexpr std::size_t wide = sizeof(TIn) > sizeof(TOut) ? sizeof(TIn) : sizeof(TOut);
    return static_cast<int>(16 / wide);
}
template <class TIn, class TOut>
__global__ void cast_vec_k(const TIn* s, TOut* d, int64_t packs) {
    constexpr int V = cast_vec<TIn, TOut>();
    const auto* in = reinterpret_cast<const Pack<TIn, V>*>(s);
    auto* out = reinterpret_cast<Pack<TOut, V>*>(d);
    BURN_GRID_STRIDE(i, packs) {
        const Pack<TIn, V> a = in[i];
        Pack<TOut, V> b;
#pragma unroll
        for (int k = 0; k < V; ++k) b.v[k] = convert<TIn, TOut>(a.v[k]);
        out[i] = b;
    }
}
template <class TIn, class TOut>
__global__ void cast_tail_k(const TIn* s, TOut* d, int64_t from, int64_t n) {
    BURN_GRID_STRIDE(i, n - from) d[from + i] = convert<TIn, TOut>(s[from + i]);
}

TensorRefs fill_kernel(const OpCall& call, TensorRefs&) {
    const double value = call.attrs<attrs::Fill>().value;
    auto out = alloc(call.shape, call.dtype);
    const int64_t n = call.shape.numel();
    if (n == 0) return {out};
    dispatch_all(call.dtype, [&](auto tag) {
        using T = decltype(tag);
        const T v = from_double<T>(value);
        fill_k<T><<<blocks_for(n), kThreads, 0, ctx().stream>>>(out->data<T>(), v, n);
    });
    BURN_CUDA_LAUNCHED();
    return {out};
}

TensorRefs arange_kernel(const OpCall& call, TensorRefs&) {
    const auto ar = call.attrs<attrs::Arange>();
    auto out = alloc(call.shape, call.dtype);
    const int64_t n = call.shape.numel();
    if (n == 0) return {out};
    dispatch_all(call.dtype, [&](auto tag) {
        using T = decltype(tag);
        arange_k<T><<<blocks_for(n), kThreads, 0, ctx().stream>>>(out->data<T>(), ar.start, ar.step, n);
    });
    BURN_CUDA_LAUNCHED();
    return {out};
}

TensorRefs random_kernel(const OpCall& call, TensorRefs&) {
    auto out = alloc(call.shape, call.dtype);
    const int64_t n = call.shape.numel();
    if (n == 0) return {out};
    const auto ra = call.attrs<attrs::Random>();
    const int kind = static_cast<int>(ra.distribution);
    const uint64_t key = ra.key;
    const uint64_t offset = ra.offset;
    dispatch_all(call.dtype, [&](auto tag) {
        using T = decltype(tag);
        random_k<T>
            <<<blocks_for(n), kThreads, 0, ctx().stream>>>(out->data<T>(), kind, ra.a, ra.b, key, offset, n);
    });
    BURN_CUDA_LAUNCHED();
    return {out};
}

}  // namespace

void copy_region(const CudaTensor& src, const CudaTensor& dst, const Dims& dst_strides, int64_t dst_offset) {
    const int64_t n = src.shape.numel();
    if (n == 0) return;
    const Dims* st[2] = {&src.strides, &dst_strides};
    const int64_t base[2] = {src.offset, dst_offset};
    auto it = make_iter<2>(src.shape, st, base);
    dispatch_bits(src.dtype, [&](auto tag) {
        using T = decltype(tag);
        if (it.rank == 1 && it.stride[0][0] == 1 && it.stride[1][0] == 1) {
            BURN_CUDA_CHECK(cudaMemcpyAsync(static_cast<T*>(dst.storage->data) + dst_offset,
                                            static_cast<const T*>(src.storage->data) + src.offset,
                                            static_cast<std::size_t>(n) * sizeof(T), cudaMemcpyDeviceToDevice,
                                            ctx().stream));
            return;
        }
        copy_k<T><<<blocks_for(n), kThreads, 0, ctx().stream>>>(static_cast<const T*>(src.storage->data),
                                                                static_cast<T*>(dst.storage->data), it, n);
        BURN_CUDA_LAUNCHED();
    });
}

namespace {

TensorRefs cast_kernel(const OpCall& call, TensorRefs& in) {
    const CudaTensor& x = as_cuda(in[0]);
    if (x.dtype == call.dtype) return {contiguous_copy(in[0])};
    // A dense view in another order (the heads of a projection, a transposed weight, channels-last)
    // keeps its layout, as torch's preserve_format: one linear pass over its run of memory, and the
    // consumer (a GEMM, attention) reads the layout as it would have read the input's.
    const bool keep = !x.is_contiguous() && x.is_dense() && keep_layout();
    auto out = keep ? alloc_strided(call.shape, call.dtype, x.strides) : alloc(call.shape, call.dtype);
    const int64_t n = x.shape.numel();
    if (n == 0) return {out};
    const bool aligned = (keep || x.is_contiguous()) && reinterpret_cast<uintptr_t>(x.raw()) % 16 == 0 &&
                         reinterpret_cast<uintptr_t>(out->raw()) % 16 == 0;
    // kept layouts are one run on both sides: walk it linearly
    const Dims flat{n}, unit{1};
    const Dims* st[1] = {keep ? &unit : &x.strides};
    const int64_t base[1] = {0};
    auto it = make_iter<1>(keep ? flat : x.shape, st, base);
    dispatch_all(x.dtype, [&](auto tin) {
        using TI = decltype(tin);
        dispatch_all(call.dtype, [&](auto tout) {
            using TO = decltype(tout);
            constexpr int V = cast_vec<TI, TO>();
            if (aligned && V > 1 && n >= 4 * V) {
                const int64_t packs = n / V;
                cast_vec_k<TI, TO>
                    <<<blocks_for(packs), kThreads, 0, ctx().stream>>>(x.data<TI>(), out->data<TO>(), packs);
                if (packs * V < n)
                    cast_tail_k<TI, TO>
                        <<<1, kThreads, 0, ctx().stream>>>(x.data<TI>(), out->data<TO>(), packs * V, n);
                return;
            }
            cast_k<TI, TO>
                <<<blocks_for(n), kThreads, 0, ctx().stream>>>(x.data<TI>(), out->data<TO>(), it, n);
        });
    });
    BURN_CUDA_LAUNCHED();
    return {out};
}

bool cast_ok(const OpCall& call, const TensorRefs& in) {
    return is_any_k(call.dtype) && (in.empty() || is_any_k(in[0]->dtype));
}
bool creation_ok(const OpCall& call, const TensorRefs&) {
    return is_any_k(call.dtype);
}

bool same_dtype_ok(const OpCall& call, const TensorRefs&) {
    return is_any_k(call.dtype);
}

}  // namespace

TensorRef cast_to(const TensorRef& t, DType d) {
    OpCall c{OpId::cast, d, t->shape, {}, {0, 0}};
    TensorRefs in{t};
    return cast_kernel(c, in)[0];
}

TensorRefs run_widened(Kernel k, const OpCall& call, TensorRefs& in) {
    const DType d = in[0]->dtype, w = widened(d);
    TensorRefs wide;
    for (const auto& t : in) wide.push_back(t->dtype == d ? cast_to(t, w) : t);
    OpCall c = call;
    if (c.dtype == d) c.dtype = w;
    TensorRefs out = k(c, wide);
    for (auto& t : out)
        if (t->dtype == w) t = cast_to(t, d);
    return out;
}

void register_layout(KernelTable& t) {
    t[idx(OpId::fill)] = {&fill_kernel, &creation_ok};
    t[idx(OpId::arange)] = {&arange_kernel, &creation_ok};
    t[idx(OpId::random)] = {&random_kernel, &creation_ok};
    t[idx(OpId::cast)] = {&cast_kernel, &cast_ok};
    t[idx(OpId::copy)] = {&Strided::copy, nullptr};
    t[idx(OpId::cat)] = {&Strided::cat, nullptr};
    t[idx(OpId::slice_assign)] = {&Strided::slice_assign, &same_dtype_ok};
}

}  // namespace burn::cuda
