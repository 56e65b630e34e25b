// CPU pooling kernels: max_pool2d (values and i32 indices) and its backward, avg_pool2d and
// adaptive_avg_pool2d with their backwards. Every kernel runs in parallel over the N * C planes;
// f16/bf16 compute in f32. The window rules are PyTorch's (first maximum wins, NaN propagates; the
// average's divisor counts the padding up to the padded edge when count_include_pad).
#include <algorithm>
#include <cmath>
#include <limits>

#include "backends/cpu/nn_common.hpp"

namespace burn::cpu {

namespace {

struct Planes {
    int64_t planes, h, w, oh, ow;
};

Planes planes_of(const Dims& x, const Dims& y) { return {x[0] * x[1], x[2], x[3], y[2], y[3]}; }

/// Planes per parallel chunk: about 32K elements of work each.
int64_t plane_grain(int64_t plane_size) { return std::max<int64_t>(1, kGrain / std::max<int64_t>(1, plane_size)); }

template <class T>
void max_pool_forward(const OpCall& call, const Planes& p, const T* x, T* y, int32_t* ind) {
    const auto& a = call.ints;
    const int64_t kh = a[0], kw = a[1], sh = a[2], sw = a[3], ph = a[4], pw = a[5], dh = a[6], dw = a[7];
    platform::parallel_for(p.planes, plane_grain(p.h * p.w), [&](int64_t b, int64_t e) {
        for (int64_t pl = b; pl < e; ++pl) {
            const T* xp = x + pl * p.h * p.w;
            T* yp = y + pl * p.oh * p.ow;
            int32_t* ip = ind + pl * p.oh * p.ow;
            for (int64_t i = 0; i < p.oh; ++i) {
                int64_t h0 = i * sh - ph;
                const int64_t h1 = std::min(h0 + (kh - 1) * dh + 1, p.h);
                while (h0 < 0) h0 += dh;
                for (int64_t j = 0; j < p.ow; ++j) {
                    int64_t w0 = j * sw - pw;
                    const int64_t w1 = std::min(w0 + (kw - 1) * dw + 1, p.w);
                    while (w0 < 0) w0 += dw;
                    int64_t best_i = h0 * p.w + w0;
                    T best = -std::numeric_limits<T>::infinity();
                    for (int64_t hh = h0; hh < h1; hh += dh) {
                        const T* row = xp + hh * p.w;
                        for (int64_t ww = w0; ww < w1; ww += dw) {
                            const T v = row[ww];
                            if (v > best || std::isnan(v)) {
                                best = v;
                                best_i = hh * p.w + ww;
                            }
                        }
                    }
                    yp[i * p.ow + j] = best;
                    ip[i * p.ow + j] = static_cast<int32_t>(best_i);
                }
            }
        }
    });
}

TensorRefs max_pool2d_kernel(const OpCall& call, TensorRefs& in) {
    TensorRef x = nn::to_compute(in[0]);
    const Planes p = planes_of(x->shape, call.shape);
    auto y = alloc(call.shape, x->dtype, in[0]->device);
    auto ind = alloc(call.shape, DType::i32, in[0]->device);
    if (call.shape.numel() > 0) {
        nn::dispatch_compute(x->dtype, [&](auto tag) {
            using T = decltype(tag);
            max_pool_forward<T>(call, p, as_cpu(x).data<T>(), y->data<T>(), ind->data<int32_t>());
        });
    }
    return {nn::from_compute(y, call.dtype), ind};
}

/// Index reader for any integer dtype of the indices tensor.
template <class F>
void with_indices(const CpuTensor& t, F&& f) {
    visit_dtype(t.dtype, [&](auto tag) {
        using I = decltype(tag);
        if constexpr (std::is_integral_v<I> && !std::is_same_v<I, bool>) f(t.data<I>());
    });
}

TensorRefs max_pool2d_backward_kernel(const OpCall& call, TensorRefs& in) {
    TensorRef g = nn::to_compute(in[0]);
    TensorRef idx_ref = contiguous(in[1]);
    const Planes p = planes_of(call.shape, g->shape);
    auto dx = alloc(call.shape, g->dtype, in[0]->device);
    nn::dispatch_compute(g->dtype, [&](auto tag) {
        using T = decltype(tag);
        T* o = dx->data<T>();
        std::fill(o, o + call.shape.numel(), T(0));
        const T* gp = as_cpu(g).data<T>();
        const int64_t plane = p.h * p.w, oplane = p.oh * p.ow;
        with_indices(as_cpu(idx_ref), [&](const auto* ip) {
            platform::parallel_for(p.planes, plane_grain(plane), [&](int64_t b, int64_t e) {
                for (int64_t pl = b; pl < e; ++pl)
                    for (int64_t q = 0; q < oplane; ++q) {
                        const int64_t at = static_cast<int64_t>(ip[pl * oplane + q]);
                        if (at >= 0 && at < plane) o[pl * plane + at] += gp[pl * oplane + q];
                    }
            });
        });
    });
    return {nn::from_compute(dx, call.dtype)};
}

/// The window of output (i, j) of avg_pool2d clipped to the input, and its divisor.
struct AvgWindow {
    int64_t h0, h1, w0, w1;
    double divisor;
};

inline AvgWindow avg_window(const std::vector<int64_t>& a, const Planes& p, int64_t i, int64_t j) {
    const int64_t kh = a[0], kw = a[1], sh = a[2], sw = a[3], ph = a[4], pw = a[5], phe = a[6], pwe = a[7];
    int64_t h0 = i * sh - ph, w0 = j * sw - pw;
    int64_t h1 = std::min(h0 + kh, p.h + phe), w1 = std::min(w0 + kw, p.w + pwe);
    const int64_t padded = (h1 - h0) * (w1 - w0);
    h0 = std::max<int64_t>(h0, 0);
    w0 = std::max<int64_t>(w0, 0);
    h1 = std::min(h1, p.h);
    w1 = std::min(w1, p.w);
    const int64_t inside = std::max<int64_t>(0, h1 - h0) * std::max<int64_t>(0, w1 - w0);
    return {h0, h1, w0, w1, static_cast<double>(a[8] ? padded : inside)};
}

TensorRefs avg_pool2d_kernel(const OpCall& call, TensorRefs& in) {
    TensorRef x = nn::to_compute(in[0]);
    const Planes p = planes_of(x->shape, call.shape);
    auto y = alloc(call.shape, x->dtype, in[0]->device);
    nn::dispatch_compute(x->dtype, [&](auto tag) {
        using T = decltype(tag);
        const T* xb = as_cpu(x).data<T>();
        T* yb = y->data<T>();
        platform::parallel_for(p.planes, plane_grain(p.h * p.w), [&](int64_t b, int64_t e) {
            for (int64_t pl = b; pl < e; ++pl) {
                const T* xp = xb + pl * p.h * p.w;
                for (int64_t i = 0; i < p.oh; ++i)
                    for (int64_t j = 0; j < p.ow; ++j) {
                        const AvgWindow win = avg_window(call.ints, p, i, j);
                        T sum = 0;
                        for (int64_t hh = win.h0; hh < win.h1; ++hh)
                            for (int64_t ww = win.w0; ww < win.w1; ++ww) sum += xp[hh * p.w + ww];
                        yb[(pl * p.oh + i) * p.ow + j] = win.divisor > 0 ? sum / static_cast<T>(win.divisor) : T(0);
                    }
            }
        });
    });
    return {nn::from_compute(y, call.dtype)};
}

TensorRefs avg_pool2d_backward_kernel(const OpCall& call, TensorRefs& in) {
    TensorRef g = nn::to_compute(in[0]);
    const Planes p = planes_of(call.shape, g->shape);
    auto dx = alloc(call.shape, g->dtype, in[0]->device);
    nn::dispatch_compute(g->dtype, [&](auto tag) {
        using T = decltype(tag);
        const T* gb = as_cpu(g).data<T>();
        T* ob = dx->data<T>();
        platform::parallel_for(p.planes, plane_grain(p.h * p.w), [&](int64_t b, int64_t e) {
            for (int64_t pl = b; pl < e; ++pl) {
                T* op = ob + pl * p.h * p.w;
                std::fill(op, op + p.h * p.w, T(0));
                for (int64_t i = 0; i < p.oh; ++i)
                    for (int64_t j = 0; j < p.ow; ++j) {
                        const AvgWindow win = avg_window(call.ints, p, i, j);
                        if (win.divisor <= 0) continue;
                        const T v = gb[(pl * p.oh + i) * p.ow + j] / static_cast<T>(win.divisor);
                        for (int64_t hh = win.h0; hh < win.h1; ++hh)
                            for (int64_t ww = win.w0; ww < win.w1; ++ww) op[hh * p.w + ww] += v;
                    }
            }
        });
    });
    return {nn::from_compute(dx, call.dtype)};
}

/// Adaptive bins: output i of out covers [floor(i * in / out), ceil((i + 1) * in / out)).
inline int64_t bin_start(int64_t i, int64_t in, int64_t out) { return (i * in) / out; }
inline int64_t bin_end(int64_t i, int64_t in, int64_t out) { return ((i + 1) * in + out - 1) / out; }

TensorRefs adaptive_avg_pool2d_kernel(const OpCall& call, TensorRefs& in) {
    TensorRef x = nn::to_compute(in[0]);
    const Planes p = planes_of(x->shape, call.shape);
    auto y = alloc(call.shape, x->dtype, in[0]->device);
    nn::dispatch_compute(x->dtype, [&](auto tag) {
        using T = decltype(tag);
        const T* xb = as_cpu(x).data<T>();
        T* yb = y->data<T>();
        platform::parallel_for(p.planes, plane_grain(p.h * p.w), [&](int64_t b, int64_t e) {
            for (int64_t pl = b; pl < e; ++pl) {
                const T* xp = xb + pl * p.h * p.w;
                for (int64_t i = 0; i < p.oh; ++i) {
                    const int64_t h0 = bin_start(i, p.h, p.oh), h1 = bin_end(i, p.h, p.oh);
                    for (int64_t j = 0; j < p.ow; ++j) {
                        const int64_t w0 = bin_start(j, p.w, p.ow), w1 = bin_end(j, p.w, p.ow);
                        T sum = 0;
                        for (int64_t hh = h0; hh < h1; ++hh)
                            for (int64_t ww = w0; ww < w1; ++ww) sum += xp[hh * p.w + ww];
                        yb[(pl * p.oh + i) * p.ow + j] = sum / static_cast<T>((h1 - h0) * (w1 - w0));
                    }
                }
            }
        });
    });
    return {nn::from_compute(y, call.dtype)};
}

TensorRefs adaptive_avg_pool2d_backward_kernel(const OpCall& call, TensorRefs& in) {
    TensorRef g = nn::to_compute(in[0]);
    const Planes p = planes_of(call.shape, g->shape);
    auto dx = alloc(call.shape, g->dtype, in[0]->device);
    nn::dispatch_compute(g->dtype, [&](auto tag) {
        using T = decltype(tag);
        const T* gb = as_cpu(g).data<T>();
        T* ob = dx->data<T>();
        platform::parallel_for(p.planes, plane_grain(p.h * p.w), [&](int64_t b, int64_t e) {
            for (int64_t pl = b; pl < e; ++pl) {
                T* op = ob + pl * p.h * p.w;
                std::fill(op, op + p.h * p.w, T(0));
                for (int64_t i = 0; i < p.oh; ++i) {
                    const int64_t h0 = bin_start(i, p.h, p.oh), h1 = bin_end(i, p.h, p.oh);
                    for (int64_t j = 0; j < p.ow; ++j) {
                        const int64_t w0 = bin_start(j, p.w, p.ow), w1 = bin_end(j, p.w, p.ow);
                        const T v = gb[(pl * p.oh + i) * p.ow + j] / static_cast<T>((h1 - h0) * (w1 - w0));
                        for (int64_t hh = h0; hh < h1; ++hh)
                            for (int64_t ww = w0; ww < w1; ++ww) op[hh * p.w + ww] += v;
                    }
                }
            }
        });
    });
    return {nn::from_compute(dx, call.dtype)};
}

}  // namespace

void register_pool(KernelTable& t) {
    t[idx(OpId::max_pool2d)] = &max_pool2d_kernel;
    t[idx(OpId::max_pool2d_backward)] = &max_pool2d_backward_kernel;
    t[idx(OpId::avg_pool2d)] = &avg_pool2d_kernel;
    t[idx(OpId::avg_pool2d_backward)] = &avg_pool2d_backward_kernel;
    t[idx(OpId::adaptive_avg_pool2d)] = &adaptive_avg_pool2d_kernel;
    t[idx(OpId::adaptive_avg_pool2d_backward)] = &adaptive_avg_pool2d_backward_kernel;
}

}  // namespace burn::cpu
