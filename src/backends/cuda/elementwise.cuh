#pragma once
// Elementwise kernels from the CPU's scalar functors (backends/common/functors.hpp): a body per op
// class reads its operands either through strides (views, broadcast stride 0) or, when every operand
// is dense and aligned, as 16-byte vectors in a grid-stride loop.
#include <cstdint>

#include "backends/common/functors.hpp"
#include "backends/cuda/kernels.cuh"

namespace burn::cuda {

namespace ew {

constexpr int F = 0, N = 1, A = 2, B = 3, I = 4;  // the kinds column of elementwise.def

template <class T, int V>
struct alignas(sizeof(T) * V) Vec {
    T v[V];
};

template <class T>
constexpr int vec_width() {
    return sizeof(T) >= 8 ? 2 : sizeof(T) == 2 ? 8 : 4;
}

/// Strided operands: each thread gathers the operands of U elements (a grid stride apart) before
/// computing and storing any, so U independent loads per operand are in flight (one at a time left
/// the kernel latency-bound at about 40% of the copy bandwidth).
template <class Body>
__global__ void strided_kernel(Body body, Iter<Body::kN> it, int64_t n) {
    constexpr int U = 4;
    const int64_t stride = static_cast<int64_t>(blockDim.x) * gridDim.x;
    for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += U * stride) {
        typename Body::SRegs r[U];
#pragma unroll
        for (int u = 0; u < U; ++u)
            if (i + u * stride < n) {
                int64_t off[Body::kN];
                it.offsets(i + u * stride, off);
                r[u] = body.sload(off);
            }
#pragma unroll
        for (int u = 0; u < U; ++u)
            if (i + u * stride < n) body.sstore(i + u * stride, r[u]);
    }
}

/// Dense operands: each thread loads U vectors of every operand before computing any (independent
/// 16-byte loads in flight; in-place outputs stay correct since all loads precede the stores).
template <class Body>
__global__ void contig_kernel(Body body, int64_t n) {
    constexpr int V = Body::kV, U = 4;
    const int64_t nv = n / V;
    const int64_t stride = static_cast<int64_t>(blockDim.x) * gridDim.x;
    for (int64_t j = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; j < nv; j += U * stride) {
        typename Body::Regs r[U];
#pragma unroll
        for (int u = 0; u < U; ++u)
            if (j + u * stride < nv) r[u] = body.load(j + u * stride);
#pragma unroll
        for (int u = 0; u < U; ++u)
            if (j + u * stride < nv) body.apply(j + u * stride, r[u]);
    }
    BURN_GRID_STRIDE(i, n - nv * V) body.at(nv * V + i);
}

/// One pass of U = 4 vectors per thread over the whole range (no grid-stride tail effects).
inline unsigned dense_blocks(int64_t nv) {
    int64_t b = (nv + 4 * kThreads - 1) / (4 * kThreads);
    return static_cast<unsigned>(std::max<int64_t>(1, std::min<int64_t>(b, int64_t(1) << 24)));
}

inline bool aligned(const void* p, int bytes) {
    return (reinterpret_cast<uintptr_t>(p) % bytes) == 0;
}

/// Launches body over out's n elements with operands ins (all of the output's shape).
template <class Body>
void launch(const Body& body, const CudaTensor& out, const CudaTensor* const* ins, const int* vec_bytes) {
    const int64_t n = out.shape.numel();
    if (n == 0) return;
    bool dense = true;
    for (int k = 0; k < Body::kN; ++k)
        dense = dense && ins[k]->is_contiguous() && aligned(ins[k]->raw(), vec_bytes[k]);
    dense = dense && aligned(out.raw(), vec_bytes[Body::kN]);
    if (dense) {
        contig_kernel<<<dense_blocks(n / Body::kV), kThreads, 0, ctx().stream>>>(body, n);
    } else {
        const Dims* strides[Body::kN];
        int64_t base[Body::kN];
        for (int k = 0; k < Body::kN; ++k) {
            strides[k] = &ins[k]->strides;
            base[k] = 0;  // bodies hold each operand's base pointer (storage + offset)
        }
        auto it = make_iter<Body::kN>(out.shape, strides, base);
        strided_kernel<<<blocks_for(n, 4), kThreads, 0, ctx().stream>>>(body, it, n);
    }
    BURN_CUDA_LAUNCHED();
}

template <class Fn, class T>
struct UnaryBody {
    using C = dc_t<T>;
    static constexpr int kN = 1, kV = vec_width<T>();
    const T* a;
    T* o;
    double p0, p1;
    struct SRegs {
        T x;
    };
    __device__ SRegs sload(const int64_t* off) const { return SRegs{a[off[0]]}; }
    __device__ void sstore(int64_t i, const SRegs& r) const { o[i] = T(Fn{}(C(r.x), p0, p1)); }
    __device__ void at(int64_t i) const { o[i] = T(Fn{}(C(a[i]), p0, p1)); }
    struct Regs {
        Vec<T, kV> x;
    };
    __device__ Regs load(int64_t j) const { return Regs{reinterpret_cast<const Vec<T, kV>*>(a)[j]}; }
    __device__ void apply(int64_t j, const Regs& r) const {
        Vec<T, kV> y;
#pragma unroll
        for (int k = 0; k < kV; ++k) y.v[k] = T(Fn{}(C(r.x.v[k]), p0, p1));
        reinterpret_cast<Vec<T, kV>*>(o)[j] = y;
    }
};

template <class Fn, class T>
struct PredBody {
    using C = dc_t<T>;
    static constexpr int kN = 1, kV = 4;
    const T* a;
    bool* o;
    struct SRegs {
        T x;
    };
    __device__ SRegs sload(const int64_t* off) const { return SRegs{a[off[0]]}; }
    __device__ void sstore(int64_t i, const SRegs& r) const { o[i] = Fn{}(C(r.x)); }
    __device__ void at(int64_t i) const { o[i] = Fn{}(C(a[i])); }
    struct Regs {
        Vec<T, kV> x;
    };
    __device__ Regs load(int64_t j) const { return Regs{reinterpret_cast<const Vec<T, kV>*>(a)[j]}; }
    __device__ void apply(int64_t j, const Regs& r) const {
        Vec<bool, kV> y;
#pragma unroll
        for (int k = 0; k < kV; ++k) y.v[k] = Fn{}(C(r.x.v[k]));
        reinterpret_cast<Vec<bool, kV>*>(o)[j] = y;
    }
};

template <class Fn, class T, class TO>
struct BinaryBody {
    using C = dc_t<T>;
    static constexpr int kN = 2, kV = vec_width<T>();
    const T* a;
    const T* b;
    TO* o;
    struct SRegs {
        T x, y;
    };
    __device__ SRegs sload(const int64_t* off) const { return SRegs{a[off[0]], b[off[1]]}; }
    __device__ void sstore(int64_t i, const SRegs& r) const { o[i] = TO(Fn{}(C(r.x), C(r.y))); }
    __device__ void at(int64_t i) const { o[i] = TO(Fn{}(C(a[i]), C(b[i]))); }
    struct Regs {
        Vec<T, kV> x, y;
    };
    __device__ Regs load(int64_t j) const {
        return Regs{reinterpret_cast<const Vec<T, kV>*>(a)[j], reinterpret_cast<const Vec<T, kV>*>(b)[j]};
    }
    __device__ void apply(int64_t j, const Regs& r) const {
        Vec<TO, kV> z;
#pragma unroll
        for (int k = 0; k < kV; ++k) z.v[k] = TO(Fn{}(C(r.x.v[k]), C(r.y.v[k])));
        reinterpret_cast<Vec<TO, kV>*>(o)[j] = z;
    }
};

template <class Fn, class T>
struct TernaryBody {
    using C = dc_t<T>;
    static constexpr int kN = 3, kV = vec_width<T>();
    const bool* c;
    const T* a;
    const T* b;
    T* o;
    struct SRegs {
        bool m;
        T x, y;
    };
    __device__ SRegs sload(const int64_t* off) const { return SRegs{c[off[0]], a[off[1]], b[off[2]]}; }
    __device__ void sstore(int64_t i, const SRegs& r) const { o[i] = T(Fn{}(r.m, C(r.x), C(r.y))); }
    __device__ void at(int64_t i) const { o[i] = T(Fn{}(c[i], C(a[i]), C(b[i]))); }
    struct Regs {
        Vec<bool, kV> m;
        Vec<T, kV> x, y;
    };
    __device__ Regs load(int64_t j) const {
        return Regs{reinterpret_cast<const Vec<bool, kV>*>(c)[j], reinterpret_cast<const Vec<T, kV>*>(a)[j],
                    reinterpret_cast<const Vec<T, kV>*>(b)[j]};
    }
    __device__ void apply(int64_t j, const Regs& r) const {
        Vec<T, kV> z;
#pragma unroll
        for (int k = 0; k < kV; ++k) z.v[k] = T(Fn{}(r.m.v[k], C(r.x.v[k]), C(r.y.v[k])));
        reinterpret_cast<Vec<T, kV>*>(o)[j] = z;
    }
};

/// Calls f(T{}) for the dtypes of kinds K that are instantiated.
template <int K, class Fun>
void dispatch_kinds(DType d, Fun&& f) {
    if constexpr (K == F) {
        dispatch_float_ew(d, f);
    } else if constexpr (K == N) {
        dispatch_numeric_ew(d, f);
    } else if constexpr (K == B) {
        if (d == DType::boolean)
            f(bool{});
        else
            BURN_THROW_KIND(dtype, "[", ctx().op, "] needs bool, got ", d);
    } else if constexpr (K == I) {
        if (is_numeric_ew(d) && !is_float_ew(d))
            dispatch_numeric_ew(d, f);  // the bit functors give 0 for floats, never dispatched here
        else
            BURN_THROW_KIND(dtype, "[", ctx().op, "] needs an int dtype, got ", d);
    } else {
        if (d == DType::boolean)
            f(bool{});
        else
            dispatch_numeric_ew(d, f);
    }
}

template <int K>
bool kinds_ok(DType d) {
    if constexpr (K == F)
        return is_float_ew(d);
    else if constexpr (K == N)
        return is_numeric_ew(d);
    else if constexpr (K == B)
        return d == DType::boolean;
    else if constexpr (K == I)
        return is_numeric_ew(d) && !is_float_ew(d);
    else
        return true;
}

template <int K>
bool supports_first(const OpCall& call, const TensorRefs& in) {
    return kinds_ok<K>(in.empty() ? call.dtype : in[0]->dtype);
}
template <int K>
bool supports_second(const OpCall& call, const TensorRefs& in) {  // where: the value dtype
    return kinds_ok<K>(in.size() > 1 ? in[1]->dtype : call.dtype);
}

}  // namespace ew

void register_unary(KernelTable& t);   // elementwise_unary.cu
void register_binary(KernelTable& t);  // elementwise_binary.cu

}  // namespace burn::cuda
