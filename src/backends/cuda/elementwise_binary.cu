// Binary ops, comparisons and where of elementwise.def on CUDA.
#include "backends/cuda/elementwise.cuh"

namespace burn::cuda {

namespace {
using namespace ew;

template <class Fn, int K>
TensorRefs binary_kernel(const OpCall& call, TensorRefs& in) {
    auto out = reuse_or_alloc(in, {0, 1}, call.shape, call.dtype);
    const CudaTensor& x = as_cuda(in[0]);
    const CudaTensor& y = as_cuda(in[1]);
    dispatch_kinds<K>(x.dtype, [&](auto tag) {
        using T = decltype(tag);
        BinaryBody<Fn, T, T> body{x.data<T>(), y.data<T>(), out->data<T>()};
        const CudaTensor* ins[2] = {&x, &y};
        const int w = int(sizeof(T)) * body.kV;
        const int vb[3] = {w, w, w};
        launch(body, *out, ins, vb);
    });
    return {out};
}

template <class Fn, int K>
TensorRefs compare_kernel(const OpCall& call, TensorRefs& in) {
    auto out = alloc(call.shape, DType::boolean);
    const CudaTensor& x = as_cuda(in[0]);
    const CudaTensor& y = as_cuda(in[1]);
    dispatch_kinds<K>(x.dtype, [&](auto tag) {
        using T = decltype(tag);
        BinaryBody<Fn, T, bool> body{x.data<T>(), y.data<T>(), out->data<bool>()};
        const CudaTensor* ins[2] = {&x, &y};
        const int w = int(sizeof(T)) * body.kV;
        const int vb[3] = {w, w, body.kV};
        launch(body, *out, ins, vb);
    });
    return {out};
}

template <class Fn, int K>
TensorRefs ternary_kernel(const OpCall& call, TensorRefs& in) {
    auto out = reuse_or_alloc(in, {1, 2}, call.shape, call.dtype);
    const CudaTensor& c = as_cuda(in[0]);
    const CudaTensor& x = as_cuda(in[1]);
    const CudaTensor& y = as_cuda(in[2]);
    dispatch_kinds<K>(x.dtype, [&](auto tag) {
        using T = decltype(tag);
        TernaryBody<Fn, T> body{c.data<bool>(), x.data<T>(), y.data<T>(), out->data<T>()};
        const CudaTensor* ins[3] = {&c, &x, &y};
        const int w = int(sizeof(T)) * body.kV;
        const int vb[4] = {body.kV, w, w, w};
        launch(body, *out, ins, vb);
    });
    return {out};
}

}  // namespace

void register_binary(KernelTable& t) {
#define BURN_BINARY(name, kinds, body, vjp_a, vjp_b, domain) \
    t[idx(OpId::name)] = {&binary_kernel<fn::name##_fn, kinds>, &supports_first<kinds>};
#define BURN_COMPARE(name, kinds, body, domain) \
    t[idx(OpId::name)] = {&compare_kernel<fn::name##_fn, kinds>, &supports_first<kinds>};
#define BURN_TERNARY(name, kinds, body, domain) \
    t[idx(OpId::name)] = {&ternary_kernel<fn::name##_fn, kinds>, &supports_second<kinds>};
#include "burn/backend/elementwise.def"
}

void register_elementwise(KernelTable& t) {
    register_unary(t);
    register_binary(t);
}

}  // namespace burn::cuda
