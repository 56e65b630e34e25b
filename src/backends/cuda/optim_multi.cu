// The multi-tensor Adam update on CUDA (ops.def adam_step_multi): n tensors in ceil(n / kTensors)
// launches instead of n. Each launch carries up to kTensors tensors' pointers in its kernel parameters
// (no pointer table to copy to the device); a block takes a chunk of kChunk consecutive elements of the
// launch's concatenated range, which may cross tensor boundaries. The arithmetic is adam.cuh's
// adam_update, as nn.cu's adam_k, so each element equals adam_step's bit for bit.
#include <algorithm>
#include <vector>

#include "backends/cuda/adam.cuh"
#include "backends/cuda/kernels.cuh"

namespace burn::cuda {

namespace {

constexpr int kTensors = 24;          // 24 * 4 pointers + 25 offsets: ~1 KB of kernel parameters
constexpr int64_t kChunk = 4 * 1024;  // elements per block

template <class T>
struct TensorList {
    const T* p[kTensors];
    const T* g[kTensors];
    const T* m[kTensors];
    const T* v[kTensors];
    int64_t start[kTensors + 1];  // within the launch's range; start[count] = its length
    int64_t base;                 // the launch's offset in the flat outputs
    int count;
};

template <class T>
__global__ void adam_multi_k(TensorList<T> list, const double* h, T* pw, T* mw, T* vw) {
    const AdamConsts<T> c(h);
    const int64_t total = list.start[list.count];
    const int64_t c0 = static_cast<int64_t>(blockIdx.x) * kChunk;
    const int64_t c1 = c0 + kChunk < total ? c0 + kChunk : total;
    int j = 0;
    for (int64_t e = c0 + threadIdx.x; e < c1; e += blockDim.x) {
        while (e >= list.start[j + 1]) ++j;  // monotonic per thread: a few steps per chunk
        const int64_t i = e - list.start[j];
        T pi, mi, vi;
        adam_update(c, list.p[j][i], list.g[j][i], list.m[j][i], list.v[j][i], pi, mi, vi);
        pw[list.base + e] = pi;
        mw[list.base + e] = mi;
        vw[list.base + e] = vi;
    }
}

TensorRefs adam_multi_kernel(const OpCall& call, TensorRefs& in) {
    const std::size_t n = (in.size() - 1) / 4;
    for (auto& t : in) t = contiguous(t);
    auto p = alloc(call.shape, call.dtype);
    auto m = alloc(call.shape, call.dtype);
    auto v = alloc(call.shape, call.dtype);
    dispatch_float(call.dtype, [&](auto tag) {
        using T = decltype(tag);
        int64_t base = 0;
        for (std::size_t first = 0; first < n;) {
            TensorList<T> list{};
            list.base = base;
            int64_t len = 0;
            int c = 0;
            for (; c < kTensors && first + static_cast<std::size_t>(c) < n; ++c) {
                const std::size_t k = first + static_cast<std::size_t>(c);
                list.p[c] = as_cuda(in[k]).data<T>();
                list.g[c] = as_cuda(in[n + k]).data<T>();
                list.m[c] = as_cuda(in[2 * n + k]).data<T>();
                list.v[c] = as_cuda(in[3 * n + k]).data<T>();
                list.start[c] = len;
                len += in[k]->shape.numel();
            }
            list.start[c] = len;
            list.count = c;
            if (len > 0) {
                const auto blocks = static_cast<unsigned>((len + kChunk - 1) / kChunk);
                adam_multi_k<T><<<blocks, kThreads, 0, ctx().stream>>>(
                    list, as_cuda(in[4 * n]).data<double>(), p->data<T>(), m->data<T>(), v->data<T>());
                BURN_CUDA_LAUNCHED();
            }
            first += static_cast<std::size_t>(c);
            base += len;
        }
    });
    return {p, m, v};
}

bool adam_multi_ok(const OpCall& call, const TensorRefs& in) {
    return is_float(call.dtype) && in.size() >= 5 && in.back()->dtype == DType::f64;
}

}  // namespace

void register_optim_multi(KernelTable& t) {
    t[idx(OpId::adam_step_multi)] = {&widening<&adam_multi_kernel>, &adam_multi_ok};
}

}  // namespace burn::cuda
