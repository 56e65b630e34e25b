// CPU creation kernels, and the view rows, which are the strided layer's (backends/common/strided_ops.hpp):
// views edit strides over the same storage; reshape of a non-contiguous tensor copies first.
#include <cmath>

#include "backends/common/philox.hpp"
#include "backends/cpu/kernels.hpp"

namespace burn::cpu {

namespace {

TensorRefs fill_kernel(const OpCall& call, TensorRefs&) {
    auto out = alloc(call.shape, call.dtype, Device::cpu());
    const double v = call.attrs<attrs::Fill>().value;
    visit_kernel_dtype(call.dtype, "fill", [&](auto tag) {
        using T = decltype(tag);
        T value = static_cast<T>(static_cast<compute_t<T>>(v));
        T* o = out->data<T>();
        platform::parallel_for(call.shape.numel(), kGrain, [&](int64_t b, int64_t e) {
            for (int64_t i = b; i < e; ++i) o[i] = value;
        });
    });
    return {out};
}

TensorRefs arange_kernel(const OpCall& call, TensorRefs&) {
    auto out = alloc(call.shape, call.dtype, Device::cpu());
    const auto ar = call.attrs<attrs::Arange>();
    const double start = ar.start, step = ar.step;
    visit_kernel_dtype(call.dtype, "arange", [&](auto tag) {
        using T = decltype(tag);
        T* o = out->data<T>();
        for (int64_t i = 0; i < call.shape.numel(); ++i)
            o[i] = static_cast<T>(static_cast<compute_t<T>>(start + step * static_cast<double>(i)));
    });
    return {out};
}

TensorRefs random_kernel(const OpCall& call, TensorRefs&) {
    auto out = alloc(call.shape, call.dtype, Device::cpu());
    const auto r = call.attrs<attrs::Random>();
    const int kind = static_cast<int>(r.distribution);
    const uint64_t key = r.key;
    const uint64_t offset = r.offset;
    const double a = r.a, b = r.b;
    visit_kernel_dtype(call.dtype, "random", [&](auto tag) {
        using T = decltype(tag);
        T* o = out->data<T>();
        platform::parallel_for(call.shape.numel(), 4096, [&](int64_t s, int64_t e) {
            for (int64_t i = s; i < e; ++i) {
                double v = rng::sample(kind, a, b, key, offset + static_cast<uint64_t>(i));
                if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) v = std::floor(v);
                o[i] = static_cast<T>(static_cast<compute_t<T>>(v));
            }
        });
    });
    return {out};
}

}  // namespace

void register_creation(KernelTable& t) {
    t[idx(OpId::fill)] = &fill_kernel;
    t[idx(OpId::arange)] = &arange_kernel;
    t[idx(OpId::random)] = &random_kernel;
}

void register_views(KernelTable& t) {
    t[idx(OpId::reshape)] = &Strided::reshape;
    t[idx(OpId::permute)] = &Strided::permute;
    t[idx(OpId::expand)] = &Strided::expand;
    t[idx(OpId::slice)] = &Strided::slice;
}

}  // namespace burn::cpu
