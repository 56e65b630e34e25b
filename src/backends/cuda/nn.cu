// Module ops on CUDA: the fused Adam update. Convolutions: conv.cu (cuDNN: cudnn_conv.cpp); pooling:
// pool.cu.
#include <cmath>

#include "backends/cuda/adam.cuh"
#include "backends/cuda/conv.hpp"
#include "backends/cuda/kernels.cuh"

namespace burn::cuda {

namespace {

// ---- Adam: one pass, hyper-parameters read from the device (no host round trip)
template <class T>
__global__ void adam_k(const T* p, const T* g, const T* m, const T* v, const double* h, T* pw, T* mw, T* vw,
                       int64_t n) {
    const AdamConsts<T> c(h);
    BURN_GRID_STRIDE(i, n) {
        T pi, mi, vi;
        adam_update(c, p[i], g[i], m[i], v[i], pi, mi, vi);
        pw[i] = pi;
        mw[i] = mi;
        vw[i] = vi;
    }
}

TensorRefs adam_kernel(const OpCall& call, TensorRefs& in) {
    for (auto& t : in) t = contiguous(t);
    auto p = reuse_or_alloc(in, {0, 1}, call.shape, call.dtype);
    auto m = reuse_or_alloc(in, {2}, call.shape, call.dtype);
    auto v = reuse_or_alloc(in, {3}, call.shape, call.dtype);
    const int64_t n = call.shape.numel();
    if (n == 0) return {p, m, v};
    dispatch_float(call.dtype, [&](auto tag) {
        using T = decltype(tag);
        adam_k<T><<<blocks_for(n), kThreads, 0, ctx().stream>>>(
            as_cuda(in[0]).data<T>(), as_cuda(in[1]).data<T>(), as_cuda(in[2]).data<T>(),
            as_cuda(in[3]).data<T>(), as_cuda(in[4]).data<double>(), p->data<T>(), m->data<T>(), v->data<T>(),
            n);
    });
    BURN_CUDA_LAUNCHED();
    return {p, m, v};
}

bool adam_ok(const OpCall& call, const TensorRefs& in) {
    return is_float(call.dtype) && in.size() == 5 && in[4]->dtype == DType::f64;
}

}  // namespace

void register_nn(KernelTable& t) {
    register_conv(t);
    t[idx(OpId::adam_step)] = {&widening<&adam_kernel>, &adam_ok};
}

}  // namespace burn::cuda
