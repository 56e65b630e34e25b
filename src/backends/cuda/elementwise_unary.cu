// Unary ops and predicates of elementwise.def on CUDA.
#include "backends/cuda/elementwise.cuh"

namespace burn::cuda {

namespace {
using namespace ew;

template <class Fn, int K>
TensorRefs unary_kernel(const OpCall& call, TensorRefs& in) {
    auto out = reuse_or_alloc(in, {0}, call.shape, call.dtype);
    const CudaTensor& x = as_cuda(in[0]);
    dispatch_kinds<K>(x.dtype, [&](auto tag) {
        using T = decltype(tag);
        UnaryBody<Fn, T> body{x.data<T>(), out->data<T>(), call.scalars[0], call.scalars[1]};
        const CudaTensor* ins[1] = {&x};
        const int vb[2] = {int(sizeof(T)) * body.kV, int(sizeof(T)) * body.kV};
        launch(body, *out, ins, vb);
    });
    return {out};
}

template <class Fn, int K>
TensorRefs pred_kernel(const OpCall& call, TensorRefs& in) {
    auto out = alloc(call.shape, DType::boolean);
    const CudaTensor& x = as_cuda(in[0]);
    dispatch_kinds<K>(x.dtype, [&](auto tag) {
        using T = decltype(tag);
        PredBody<Fn, T> body{x.data<T>(), out->data<bool>()};
        const CudaTensor* ins[1] = {&x};
        const int vb[2] = {int(sizeof(T)) * 4, 4};
        launch(body, *out, ins, vb);
    });
    return {out};
}

}  // namespace

void register_unary(KernelTable& t) {
#define BURN_UNARY(name, kinds, body, vjp, domain) \
    t[idx(OpId::name)] = {&unary_kernel<fn::name##_fn, kinds>, &supports_first<kinds>};
#define BURN_UNARY_PRED(name, kinds, body, domain) \
    t[idx(OpId::name)] = {&pred_kernel<fn::name##_fn, kinds>, &supports_first<kinds>};
#include "burn/backend/elementwise.def"
}

}  // namespace burn::cuda
