// Convolutions through cuDNN 9's convolution API (cudnnConvolutionForward / BackwardData /
// BackwardFilter on Nd descriptors), with the library loaded lazily (cudnn_library.cpp). One handle
// per device on the device's stream; the algorithm (cudnnFind for the forward, cuDNN's heuristics for
// the backward; BURN_CUDA_CUDNN_BENCHMARK changes that) and the descriptors are chosen once per geometry +
// dtype + math mode and cached; the workspace comes from the caching allocator. Padding that cuDNN cannot
// express (begin != end, or a transposed convolution's extra output padding) goes through a zero-padded
// window of the input.
#include <algorithm>
#include <cstdio>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "backends/cuda/cudnn_library.hpp"

namespace burn::cuda::cudnn {

#ifndef BURN_HAVE_CUDNN

bool handles(const OpCall&, const TensorRefs&) {
    return false;
}
std::shared_ptr<CudaTensor> run(Dir, const OpCall&, TensorRefs&) {
    return nullptr;
}

#else  // BURN_HAVE_CUDNN

namespace {

std::mutex g_mutex;

void check(cudnnStatus_t st, const char* what) {
    if (st == CUDNN_STATUS_SUCCESS) return;
    BURN_THROW_KIND(device, "[", ctx().op, "] cuDNN error ", api().cudnnGetErrorString(st), " in ", what);
}

cudnnHandle_t handle() {
    static cudnnHandle_t handles[64] = {};
    std::lock_guard<std::mutex> lock(g_mutex);
    cudnnHandle_t& h = handles[ctx().device];
    if (!h) {
        check(api().cudnnCreate(&h), "cudnnCreate");
        check(api().cudnnSetStream(h, ctx().stream), "cudnnSetStream");  // the device's one stream
    }
    return h;
}

cudnnDataType_t data_type(DType d) {
    switch (d) {
        case DType::f64:
            return CUDNN_DATA_DOUBLE;
        case DType::f16:
            return CUDNN_DATA_HALF;
        case DType::bf16:
            return CUDNN_DATA_BFLOAT16;
        default:
            return CUDNN_DATA_FLOAT;
    }
}

/// The shapes of one call in the ops.def layout, and how cuDNN sees them.
struct Geometry {
    int s = 0;
    Dims x, w, y;
    int64_t stride[3], pb[3], pe[3], dil[3], groups;
    bool window = false;  // cuDNN convolves a zero-padded copy xw of x (pads 0)
    Dims xw;              // its shape
    int64_t off[3];       // xw[p] = x[p - off]
};

Geometry geometry(Dir dir, const OpCall& call, const TensorRefs& in) {
    Geometry g;
    const auto a = call.attrs<attrs::Conv>();
    g.s = a.spatial;
    for (int i = 0; i < g.s; ++i) {
        const auto k = static_cast<std::size_t>(i);
        g.stride[i] = a.stride[k];
        g.pb[i] = a.pad_begin[k];
        g.pe[i] = a.pad_end[k];
        g.dil[i] = a.dilation[k];
    }
    g.groups = a.groups;
    g.x = dir == Dir::backward_data ? call.shape : in[0]->shape;
    g.w = dir == Dir::backward_filter ? call.shape : in[1]->shape;
    g.y = dir == Dir::forward ? call.shape : dir == Dir::backward_data ? in[0]->shape : in[1]->shape;
    g.xw = g.x;
    for (int i = 0; i < g.s; ++i) {
        const int64_t span = g.dil[i] * (g.w[i + 2] - 1) + 1;
        const int64_t room = g.x[i + 2] + 2 * g.pb[i] - span;
        if (g.pb[i] != g.pe[i] || room < 0 || room / g.stride[i] + 1 != g.y[i + 2]) g.window = true;
    }
    if (g.window) {
        for (int i = 0; i < g.s; ++i) {
            g.xw[i + 2] = (g.y[i + 2] - 1) * g.stride[i] + g.dil[i] * (g.w[i + 2] - 1) + 1;
            g.off[i] = g.pb[i];
        }
    }
    return g;
}

/// A cached choice for one geometry: descriptors, algorithm, math type and workspace size.
struct Plan {
    bool ok = false;
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    int algo = 0;
    std::size_t workspace = 0;
};

/// cuDNN's rank: 1-D convolutions are 2-D ones of height 1.
std::vector<int> cudnn_dims(const Dims& d, int s) {
    std::vector<int> v;
    for (int i = 0; i < d.rank(); ++i) {
        if (s == 1 && i == 2) v.push_back(1);
        v.push_back(static_cast<int>(d[i]));
    }
    return v;
}

std::string to_string(DType d) {
    std::ostringstream os;
    os << d;
    return os.str();
}

bool fits_int(const Dims& d) {
    return d.numel() <= 0x7fffffff;
}

template <class Perf, class Get, class Workspace>
bool choose(Plan& p, bool strict_f32, Get get, Workspace workspace_of) {
    Perf perf[16];
    int n = 0;
    if (get(perf, &n) != CUDNN_STATUS_SUCCESS) return false;
    for (int i = 0; i < n; ++i) {
        if (perf[i].status != CUDNN_STATUS_SUCCESS) continue;
        if (strict_f32 && perf[i].mathType != CUDNN_FMA_MATH) continue;  // no TF32
        if (api().cudnnSetConvolutionMathType(p.conv, perf[i].mathType) != CUDNN_STATUS_SUCCESS) continue;
        std::size_t bytes = 0;
        if (workspace_of(static_cast<int>(perf[i].algo), &bytes) != CUDNN_STATUS_SUCCESS) continue;
        p.algo = static_cast<int>(perf[i].algo);
        p.workspace = bytes;
        return true;
    }
    return false;
}

Plan make_plan(Dir dir, DType dt, const Geometry& g, bool tf32) {
    Plan p;
    const Api& a = api();
    const Dims& xs = g.window ? g.xw : g.x;
    if (!fits_int(xs) || !fits_int(g.w) || !fits_int(g.y)) return p;
    const std::vector<int> xd = cudnn_dims(xs, g.s), wd = cudnn_dims(g.w, g.s), yd = cudnn_dims(g.y, g.s);
    const int nd = static_cast<int>(xd.size());
    auto strides = [](const std::vector<int>& d) {
        std::vector<int> st(d.size(), 1);
        for (int i = static_cast<int>(d.size()) - 2; i >= 0; --i) st[i] = st[i + 1] * d[i + 1];
        return st;
    };
    std::vector<int> pad, stride, dil;
    if (g.s == 1) pad = {0}, stride = {1}, dil = {1};
    for (int i = 0; i < g.s; ++i) {
        pad.push_back(g.window ? 0 : static_cast<int>(g.pb[i]));
        stride.push_back(static_cast<int>(g.stride[i]));
        dil.push_back(static_cast<int>(g.dil[i]));
    }
    const cudnnDataType_t t = data_type(dt);
    check(a.cudnnCreateTensorDescriptor(&p.x), "cudnnCreateTensorDescriptor");
    check(a.cudnnCreateTensorDescriptor(&p.y), "cudnnCreateTensorDescriptor");
    check(a.cudnnCreateFilterDescriptor(&p.w), "cudnnCreateFilterDescriptor");
    check(a.cudnnCreateConvolutionDescriptor(&p.conv), "cudnnCreateConvolutionDescriptor");
    if (a.cudnnSetTensorNdDescriptor(p.x, t, nd, xd.data(), strides(xd).data()) != CUDNN_STATUS_SUCCESS ||
        a.cudnnSetTensorNdDescriptor(p.y, t, nd, yd.data(), strides(yd).data()) != CUDNN_STATUS_SUCCESS ||
        a.cudnnSetFilterNdDescriptor(p.w, t, CUDNN_TENSOR_NCHW, nd, wd.data()) != CUDNN_STATUS_SUCCESS ||
        a.cudnnSetConvolutionNdDescriptor(
            p.conv, nd - 2, pad.data(), stride.data(), dil.data(), CUDNN_CROSS_CORRELATION,
            dt == DType::f64 ? CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT) != CUDNN_STATUS_SUCCESS ||
        a.cudnnSetConvolutionGroupCount(p.conv, static_cast<int>(g.groups)) != CUDNN_STATUS_SUCCESS)
        return p;
    // The output cuDNN computes for these descriptors must be ours.
    std::vector<int> out(static_cast<std::size_t>(nd));
    if (a.cudnnGetConvolutionNdForwardOutputDim(p.conv, p.x, p.w, nd, out.data()) != CUDNN_STATUS_SUCCESS ||
        out != yd)
        return p;
    // PyTorch's math modes: f32 exact (FMA) unless TF32 is allowed, 16-bit on the tensor cores.
    const bool strict = dt == DType::f32 && !tf32;
    const cudnnMathType_t math = strict                                  ? CUDNN_FMA_MATH
                                 : dt == DType::f16 || dt == DType::bf16 ? CUDNN_TENSOR_OP_MATH
                                                                         : CUDNN_DEFAULT_MATH;
    if (a.cudnnSetConvolutionMathType(p.conv, math) != CUDNN_STATUS_SUCCESS) return p;
    cudnnHandle_t h = handle();
    switch (dir) {
        case Dir::forward:
            p.ok = choose<cudnnConvolutionFwdAlgoPerf_t>(
                p, strict,
                [&](cudnnConvolutionFwdAlgoPerf_t* r, int* n) {
                    return benchmark(true)
                               ? a.cudnnFindConvolutionForwardAlgorithm(h, p.x, p.w, p.conv, p.y, 16, n, r)
                               : a.cudnnGetConvolutionForwardAlgorithm_v7(h, p.x, p.w, p.conv, p.y, 16, n, r);
                },
                [&](int algo, std::size_t* b) {
                    return a.cudnnGetConvolutionForwardWorkspaceSize(
                        h, p.x, p.w, p.conv, p.y, static_cast<cudnnConvolutionFwdAlgo_t>(algo), b);
                });
            break;
        case Dir::backward_data:
            p.ok = choose<cudnnConvolutionBwdDataAlgoPerf_t>(
                p, strict,
                [&](cudnnConvolutionBwdDataAlgoPerf_t* r, int* n) {
                    return benchmark(false) ? a.cudnnFindConvolutionBackwardDataAlgorithm(h, p.w, p.y, p.conv,
                                                                                          p.x, 16, n, r)
                                            : a.cudnnGetConvolutionBackwardDataAlgorithm_v7(
                                                  h, p.w, p.y, p.conv, p.x, 16, n, r);
                },
                [&](int algo, std::size_t* b) {
                    return a.cudnnGetConvolutionBackwardDataWorkspaceSize(
                        h, p.w, p.y, p.conv, p.x, static_cast<cudnnConvolutionBwdDataAlgo_t>(algo), b);
                });
            break;
        case Dir::backward_filter:
            p.ok = choose<cudnnConvolutionBwdFilterAlgoPerf_t>(
                p, strict,
                [&](cudnnConvolutionBwdFilterAlgoPerf_t* r, int* n) {
                    return benchmark(false) ? a.cudnnFindConvolutionBackwardFilterAlgorithm(
                                                  h, p.x, p.y, p.conv, p.w, 16, n, r)
                                            : a.cudnnGetConvolutionBackwardFilterAlgorithm_v7(
                                                  h, p.x, p.y, p.conv, p.w, 16, n, r);
                },
                [&](int algo, std::size_t* b) {
                    return a.cudnnGetConvolutionBackwardFilterWorkspaceSize(
                        h, p.x, p.y, p.conv, p.w, static_cast<cudnnConvolutionBwdFilterAlgo_t>(algo), b);
                });
            break;
    }
    return p;
}

const Plan& plan_for(Dir dir, DType dt, const Geometry& g) {
    static std::map<std::vector<int64_t>, Plan> plans;  // live for the process, like the handles
    const bool tf32 = dt == DType::f32 && allow_tf32_conv();
    std::vector<int64_t> key{static_cast<int64_t>(dir), static_cast<int64_t>(dt), tf32, ctx().device,
                             g.window};
    for (const Dims* d : {&g.x, &g.w, &g.y})
        for (int i = 0; i < d->rank(); ++i) key.push_back((*d)[i]);
    for (int i = 0; i < g.s; ++i) key.insert(key.end(), {g.stride[i], g.pb[i], g.pe[i], g.dil[i]});
    key.push_back(g.groups);
    {
        std::lock_guard<std::mutex> lock(g_mutex);
        auto it = plans.find(key);
        if (it != plans.end()) return it->second;
    }
    Plan p = make_plan(dir, dt, g, tf32);
    if (verbose() && !p.ok)
        std::fprintf(stderr, "burn cuda: cuDNN has no algorithm for this %s (%s); using im2col\n", ctx().op,
                     to_string(dt).c_str());
    std::lock_guard<std::mutex> lock(g_mutex);
    return plans.emplace(key, p).first->second;
}

}  // namespace

bool handles(const OpCall& call, const TensorRefs& in) {
    if (!use_cudnn() || !is_float(call.dtype) || !library().ok) return false;
    if (in[0]->shape.rank() > 4 || (call.dtype != DType::f32 && call.dtype != DType::f64)) return true;
    const Dims& y = call.op == OpId::conv                  ? call.shape
                    : call.op == OpId::conv_backward_input ? in[0]->shape
                                                           : in[1]->shape;
    const Dims& w = call.op == OpId::conv_backward_weight ? call.shape : in[1]->shape;
    // im2col loops over the groups (an im2col launch and a gemm each): a depthwise convolution of
    // MobileNetV2 made hundreds of launches per call (97 ms per batch-1 forward against PyTorch's 3 ms).
    const auto a = call.attrs<attrs::Conv>();
    if (a.groups > 1) return true;
    const int64_t macs = w[0] > 0 ? y.numel() * (w.numel() / w[0]) : 0;
    if (pointwise(a, call.op == OpId::conv_backward_input ? call.shape : in[0]->shape, w, y))
        return macs > pointwise_gemm_max_macs();
    return macs >= cudnn_min_macs();  // small ones: im2col
}

std::shared_ptr<CudaTensor> run(Dir dir, const OpCall& call, TensorRefs& in) {
    const Geometry g = geometry(dir, call, in);
    const DType dt = call.dtype;
    const std::size_t es = size_of(dt);
    auto out = alloc(call.shape, dt);
    const int64_t n_out = call.shape.numel();
    if (n_out == 0) return out;
    const bool bias = dir == Dir::forward && in.size() > 2;
    TensorRef a = contiguous(in[0]), b = contiguous(in[1]);
    const int64_t ly = g.y.numel() / std::max<int64_t>(g.y[0] * g.y[1], 1);
    if (g.x.numel() == 0 || g.w.numel() == 0 || g.y.numel() == 0) {  // an empty sum: zeros (+ bias)
        BURN_CUDA_CHECK(cudaMemsetAsync(out->raw(), 0, static_cast<std::size_t>(n_out) * es, ctx().stream));
        if (bias) add_bias(dt, out->raw(), as_cuda(contiguous(in[2])).raw(), g.w[0], ly, n_out);
        return out;
    }
    const Plan& p = plan_for(dir, dt, g);
    if (!p.ok) {
        count(false);
        return nullptr;
    }
    const Api& f = api();
    cudnnHandle_t h = handle();
    std::shared_ptr<Storage> ws = p.workspace ? scratch(p.workspace) : nullptr;
    void* wsp = ws ? ws->data : nullptr;
    const double one_d = 1.0, zero_d = 0.0;
    const float one_f = 1.f, zero_f = 0.f;
    const void* one = dt == DType::f64 ? static_cast<const void*>(&one_d) : &one_f;
    const void* zero = dt == DType::f64 ? static_cast<const void*>(&zero_d) : &zero_f;
    // The input as cuDNN reads it (or the buffer its gradient lands in): x itself or the padded window.
    std::shared_ptr<Storage> xw;
    auto windowed_x = [&](const TensorRef& x) -> const void* {
        if (!g.window) return as_cuda(x).raw();
        xw = scratch(static_cast<std::size_t>(g.xw.numel()) * es);
        int64_t neg[3];
        for (int i = 0; i < g.s; ++i) neg[i] = -g.off[i];
        window_copy(dt, as_cuda(x).raw(), g.x, xw->data, g.xw, neg);
        return xw->data;
    };
    const auto algo = p.algo;
    switch (dir) {
        case Dir::forward: {
            const void* xp = windowed_x(a);
            check(f.cudnnConvolutionForward(h, one, p.x, xp, p.w, as_cuda(b).raw(), p.conv,
                                            static_cast<cudnnConvolutionFwdAlgo_t>(algo), wsp, p.workspace,
                                            zero, p.y, out->raw()),
                  "cudnnConvolutionForward");
            if (bias) add_bias(dt, out->raw(), as_cuda(contiguous(in[2])).raw(), g.w[0], ly, n_out);
            break;
        }
        case Dir::backward_data: {
            void* dst = out->raw();
            if (g.window) {
                xw = scratch(static_cast<std::size_t>(g.xw.numel()) * es);
                dst = xw->data;
            }
            check(f.cudnnConvolutionBackwardData(h, one, p.w, as_cuda(b).raw(), p.y, as_cuda(a).raw(), p.conv,
                                                 static_cast<cudnnConvolutionBwdDataAlgo_t>(algo), wsp,
                                                 p.workspace, zero, p.x, dst),
                  "cudnnConvolutionBackwardData");
            if (g.window) window_copy(dt, xw->data, g.xw, out->raw(), g.x, g.off);
            break;
        }
        case Dir::backward_filter: {
            const void* xp = windowed_x(a);
            check(f.cudnnConvolutionBackwardFilter(h, one, p.x, xp, p.y, as_cuda(b).raw(), p.conv,
                                                   static_cast<cudnnConvolutionBwdFilterAlgo_t>(algo), wsp,
                                                   p.workspace, zero, p.w, out->raw()),
                  "cudnnConvolutionBackwardFilter");
            break;
        }
    }
    count(true);
    return out;
}

#endif  // BURN_HAVE_CUDNN

}  // namespace burn::cuda::cudnn
