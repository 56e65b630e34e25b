#pragma once
// Elementwise kernels from the CPU's scalar functors (backends/common/functors.hpp): a body per op
// class reads its operands either through strides (views, broadcast stride 0) or, when every operand
// is dense and aligned, as 16-byte vectors in a grid-stride loop.
#include <cstdint>

#include "backends/common/functors.hpp"
#include "backends/cuda/kernels.cuh"

namespace burn::cuda {

namespace ew {

constexpr int F = 0, N = 1, A = 2, B = 3;  // the kinds column of elementwise.def

template <class T, int V>
struct alignas(sizeof(T) * V) Vec {
    T v[V];
};

template <class T>
constexpr int vec_width() {
    return sizeof(T) >= 8 ? 2 : 4;
}

template <class Body>
__global__ void strided_kernel(Body body, Iter<Body::kN> it, int64_t n) {
    BURN_GRID_STRIDE(i, n) {
        int64_t off[Body::kN];
        it.offsets(i, off);
        body.strided(i, off);
    }
}

template <class Body>
__global__ void contig_kernel(Body body, int64_t n) {
    constexpr int V = Body::kV;
    const int64_t nv = n / V;
    BURN_GRID_STRIDE(j, nv) body.vec(j);
    BURN_GRID_STRIDE(i, n - nv * V) body.at(nv * V + i);
}

inline bool aligned(const void* p, int bytes) { return (reinterpret_cast<uintptr_t>(p) % bytes) == 0; }

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
        contig_kernel<<<blocks_for(n, Body::kV), kThreads, 0, ctx().stream>>>(body, n);
    } else {
        const Dims* strides[Body::kN];
        int64_t base[Body::kN];
        for (int k = 0; k < Body::kN; ++k) {
            strides[k] = &ins[k]->strides;
            base[k] = 0;  // bodies hold each operand's base pointer (storage + offset)
        }
        auto it = make_iter<Body::kN>(out.shape, strides, base);
        strided_kernel<<<blocks_for(n), kThreads, 0, ctx().stream>>>(body, it, n);
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
    __device__ void strided(int64_t i, const int64_t* off) const { o[i] = T(Fn{}(C(a[off[0]]), p0, p1)); }
    __device__ void at(int64_t i) const { o[i] = T(Fn{}(C(a[i]), p0, p1)); }
    __device__ void vec(int64_t j) const {
        Vec<T, kV> x = reinterpret_cast<const Vec<T, kV>*>(a)[j], y;
#pragma unroll
        for (int k = 0; k < kV; ++k) y.v[k] = T(Fn{}(C(x.v[k]), p0, p1));
        reinterpret_cast<Vec<T, kV>*>(o)[j] = y;
    }
};

template <class Fn, class T>
struct PredBody {
    using C = dc_t<T>;
    static constexpr int kN = 1, kV = 4;
    const T* a;
    bool* o;
    __device__ void strided(int64_t i, const int64_t* off) const { o[i] = Fn{}(C(a[off[0]])); }
    __device__ void at(int64_t i) const { o[i] = Fn{}(C(a[i])); }
    __device__ void vec(int64_t j) const {
        Vec<T, kV> x = reinterpret_cast<const Vec<T, kV>*>(a)[j];
        Vec<bool, kV> y;
#pragma unroll
        for (int k = 0; k < kV; ++k) y.v[k] = Fn{}(C(x.v[k]));
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
    __device__ void strided(int64_t i, const int64_t* off) const { o[i] = TO(Fn{}(C(a[off[0]]), C(b[off[1]]))); }
    __device__ void at(int64_t i) const { o[i] = TO(Fn{}(C(a[i]), C(b[i]))); }
    __device__ void vec(int64_t j) const {
        Vec<T, kV> x = reinterpret_cast<const Vec<T, kV>*>(a)[j];
        Vec<T, kV> y = reinterpret_cast<const Vec<T, kV>*>(b)[j];
        Vec<TO, kV> z;
#pragma unroll
        for (int k = 0; k < kV; ++k) z.v[k] = TO(Fn{}(C(x.v[k]), C(y.v[k])));
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
    __device__ void strided(int64_t i, const int64_t* off) const { o[i] = T(Fn{}(c[off[0]], C(a[off[1]]), C(b[off[2]]))); }
    __device__ void at(int64_t i) const { o[i] = T(Fn{}(c[i], C(a[i]), C(b[i]))); }
    __device__ void vec(int64_t j) const {
        Vec<bool, kV> m = reinterpret_cast<const Vec<bool, kV>*>(c)[j];
        Vec<T, kV> x = reinterpret_cast<const Vec<T, kV>*>(a)[j];
        Vec<T, kV> y = reinterpret_cast<const Vec<T, kV>*>(b)[j];
#pragma unroll
        for (int k = 0; k < kV; ++k) x.v[k] = T(Fn{}(m.v[k], C(x.v[k]), C(y.v[k])));
        reinterpret_cast<Vec<T, kV>*>(o)[j] = x;
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
        if (d == DType::boolean) f(bool{});
        else BURN_THROW_KIND(dtype, "[", ctx().op, "] needs bool, got ", d);
    } else {
        if (d == DType::boolean) f(bool{});
        else dispatch_numeric_ew(d, f);
    }
}

template <int K>
bool kinds_ok(DType d) {
    if constexpr (K == F) return is_float_ew(d);
    else if constexpr (K == N) return is_numeric_ew(d);
    else if constexpr (K == B) return d == DType::boolean;
    else return true;
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
