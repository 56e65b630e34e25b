// conv_fused (ops.def: clamp(conv(x, w) + b + residual, lo, hi)): for f32, oneDNN's convolution with
// post-ops (dnnl_conv.cpp: the residual summed into the output, then relu or clip) saves a pass over the
// output per fused op, which is what ONNX CNNs spend between convolutions. Otherwise the conv row's
// kernel, then one pass for the epilogue in the compute type with the rounding of the decomposition
// (the sum rounded to the dtype, then the clamp).
#include <cmath>

#include "backends/cpu/dnnl_conv.hpp"
#include "backends/cpu/kernels.hpp"
#include "backends/cpu/nn_common.hpp"

namespace burn::cpu {

namespace {

template <class T>
void epilogue(T* y, const T* r, int64_t n, double lo_d, double hi_d) {
    using C = compute_t<T>;
    const C lo = C(lo_d), hi = C(hi_d);
    const bool clamp = !std::isinf(lo_d) || !std::isinf(hi_d);
    platform::parallel_for(n, kGrain, [=](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i) {
            C v = C(y[i]);
            if (r) v = C(T(v + C(r[i])));
            if (clamp) v = v < lo ? lo : (v > hi ? hi : v);  // NaN stays NaN
            y[i] = T(v);
        }
    });
}

TensorRefs conv_fused_kernel(const OpCall& call, TensorRefs& in) {
    const auto a = call.attrs<attrs::ConvFused>();
    const std::size_t n_conv = in.size() - (a.residual ? 1 : 0);
    TensorRef residual = a.residual ? in.back() : nullptr;
    if (call.dtype == DType::f32 && call.shape.numel() > 0 && dnnl_conv_available()) {
        const CpuTensor& x0 = as_cpu(in[0]);
        const TensorRef x = x0.dtype == DType::f32 && x0.is_channels_last() ? in[0] : nn::to_compute(in[0]);
        const TensorRef w = nn::to_compute(in[1]), b = n_conv > 2 ? nn::to_compute(in[2]) : nullptr;
        const ConvEpilogue e{residual ? &as_cpu(residual) : nullptr, a.lo, a.hi};
        if (auto y =
                dnnl_conv_forward(a.conv, as_cpu(x), as_cpu(w), b ? &as_cpu(b) : nullptr, call.shape, &e))
            return {y};
    }
    OpCall conv = make_call(OpId::conv, a.conv);
    conv.dtype = call.dtype;
    TensorRefs conv_in(in.begin(), in.begin() + static_cast<std::ptrdiff_t>(n_conv));
    TensorRef y = conv_row_kernel(conv, conv_in)[0];  // a new tensor, dense (row-major or channels-last)
    if (call.shape.numel() == 0) return {y};
    if (residual && !as_cpu(y).same_layout(as_cpu(residual))) {
        y = contiguous(y);
        residual = contiguous(residual);
    }
    const CpuTensor& yt = as_cpu(y);
    visit_kernel_dtype(call.dtype, "conv_fused", [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, f16> || std::is_same_v<T, bf16>)
            epilogue<T>(yt.data<T>(), residual ? as_cpu(residual).data<T>() : nullptr, yt.shape.numel(), a.lo,
                        a.hi);
    });
    return {y};
}

}  // namespace

void register_conv_fused(KernelTable& t) {
    t[idx(OpId::conv_fused)] = &conv_fused_kernel;
}

}  // namespace burn::cpu
