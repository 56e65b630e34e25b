// CPU pooling kernels: max_pool2d (values and i32 indices) and its backward, avg_pool2d and
// adaptive_avg_pool2d with their backwards. Every kernel runs in parallel over the N * C planes;
// f16/bf16 compute in f32. The window rules are PyTorch's (first maximum wins, NaN propagates; the
// average's divisor counts the padding up to the padded edge when count_include_pad).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "backends/cpu/gemm.hpp"
#include "backends/cpu/nn_common.hpp"
#include "backends/cpu/pool_channels_last.hpp"
#include "backends/cpu/pool_simd128.hpp"

#if defined(__GNUC__)
#define BURN_POOL_INLINE __attribute__((always_inline)) inline
#else
#define BURN_POOL_INLINE inline
#endif
#if defined(__GNUC__) && defined(__x86_64__)
#define BURN_POOL_X86 1
#else
#define BURN_POOL_X86 0
#endif

namespace burn::cpu {

namespace {

struct Planes {
    int64_t planes, h, w, oh, ow;
};

Planes planes_of(const Dims& x, const Dims& y) {
    return {x[0] * x[1], x[2], x[3], y[2], y[3]};
}

/// Planes per parallel chunk: about 32K elements of work each.
int64_t plane_grain(int64_t plane_size) {
    return std::max<int64_t>(1, kGrain / std::max<int64_t>(1, plane_size));
}

/// The range [lo, hi) of outputs j whose position j * s - p + q * d lies in [0, n).
inline void valid_cols(int64_t out, int64_t n, int64_t s, int64_t p, int64_t q, int64_t d, int64_t& lo,
                       int64_t& hi) {
    const int64_t first = p - q * d, last = n - 1 + p - q * d;
    lo = first <= 0 ? 0 : (first + s - 1) / s;
    hi = last < 0 ? 0 : std::min(out, last / s + 1);
    if (hi < lo) hi = lo;
}

/// Per-call column geometry of a max pool: each output column's first valid input column, and per
/// kernel column q the outputs [lo[q], hi[q]) whose tap q falls inside the input.
struct MaxCols {
    std::vector<int32_t> first;
    std::vector<int64_t> lo, hi;
};

MaxCols max_cols(const Planes& p, const attrs::PoolWindow& a) {
    const int64_t kw = a.kernel[1], sw = a.stride[1], pw = a.pad[1], dw = a.dilation[1];
    MaxCols c;
    for (int64_t j = 0; j < p.ow; ++j) {
        int64_t w0 = j * sw - pw;
        while (w0 < 0) w0 += dw;
        c.first.push_back(static_cast<int32_t>(w0));
    }
    c.lo.resize(static_cast<std::size_t>(kw));
    c.hi.resize(static_cast<std::size_t>(kw));
    for (int64_t q = 0; q < kw; ++q)
        valid_cols(p.ow, p.w, sw, pw, q, dw, c.lo[static_cast<std::size_t>(q)],
                   c.hi[static_cast<std::size_t>(q)]);
    return c;
}

#if defined(__GNUC__) || defined(__clang__)
#define BURN_POOL_VECEXT 1
template <class T>
struct MaxLanes;
template <>
struct MaxLanes<float> {
    typedef float v __attribute__((vector_size(32)));
    typedef int32_t m __attribute__((vector_size(32)));
};
template <>
struct MaxLanes<double> {
    typedef double v __attribute__((vector_size(64)));
    typedef int64_t m __attribute__((vector_size(64)));
};
#else
#define BURN_POOL_VECEXT 0
#endif
#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 12)
#define BURN_POOL_SHUFFLE 1
#else
#define BURN_POOL_SHUFFLE 0
#endif

/// One output row. The window's input rows are first copied into a scratch buffer with -inf where the
/// padding is, wide enough for whole blocks of 8 outputs; each block then runs branch-free on vectors
/// (the comparisons on real data are unpredictable, so branches would cost more than the work). The
/// taps are visited in PyTorch's order (rows, then columns); a tap replaces the best value when it is
/// larger or NaN. SW: the stride if it is 1 or 2, else 0.
template <class T, int SW>
BURN_POOL_INLINE void max_pool_row(const T* __restrict xp, T* __restrict yr, int32_t* __restrict ir,
                                   int64_t i, const Planes& p, const attrs::PoolWindow& a, const MaxCols& c,
                                   T* __restrict buf, int64_t wb) {
    constexpr int64_t V = 8;
    const int64_t kh = a.kernel[0], kw = a.kernel[1], sh = a.stride[0], sw = SW ? SW : a.stride[1],
                  ph = a.pad[0], pw = a.pad[1], dh = a.dilation[0], dw = a.dilation[1];
    const T ninf = -std::numeric_limits<T>::infinity();
    int64_t h0 = i * sh - ph;
    const int64_t h1 = std::min(h0 + (kh - 1) * dh + 1, p.h);
    while (h0 < 0) h0 += dh;
    const auto row0 = static_cast<int32_t>(h0 * p.w);
    int64_t rows = 0;
    for (int64_t hh = h0; hh < h1; hh += dh, ++rows) {
        T* b = buf + rows * wb;
        const T* src = xp + hh * p.w;
        for (int64_t x = 0; x < pw && x < wb; ++x) b[x] = ninf;
        const int64_t n = std::min(p.w, wb - pw);
        for (int64_t x = 0; x < n; ++x) b[pw + x] = src[x];
        for (int64_t x = std::max<int64_t>(pw + n, 0); x < wb; ++x) b[x] = ninf;
    }
    for (int64_t j0 = 0; j0 < p.ow; j0 += V) {
#if BURN_POOL_VECEXT
        using VT = typename MaxLanes<T>::v;
        using VI = typename MaxLanes<T>::m;
        using I = std::remove_reference_t<decltype(VI{}[0])>;
        VT best = VT{} + ninf;
        VI idx{}, lane{};  // every lane is set below; {} keeps arm-none-eabi-g++ from -Wmaybe-uninitialized
        for (int64_t t = 0; t < V; ++t) {
            idx[t] = static_cast<I>(row0 + c.first[static_cast<std::size_t>(std::min(j0 + t, p.ow - 1))]);
            lane[t] = static_cast<I>(t * sw);
        }
        for (int64_t r = 0; r < rows; ++r) {
            const int64_t hh = h0 + r * dh;
            for (int64_t q = 0; q < kw; ++q) {
                const T* src = buf + r * wb + j0 * sw + q * dw;
                VT v;
                if constexpr (SW == 1) {
                    std::memcpy(&v, src, sizeof v);
#if BURN_POOL_SHUFFLE
                } else if constexpr (SW == 2) {
                    VT lo, hi;  // the even elements of 2V consecutive ones
                    std::memcpy(&lo, src, sizeof lo);
                    std::memcpy(&hi, src + V, sizeof hi);
                    v = __builtin_shufflevector(lo, hi, 0, 2, 4, 6, 8, 10, 12, 14);
#endif
                } else {
                    for (int64_t t = 0; t < V; ++t) v[t] = src[t * sw];
                }
                const VI take = (v > best) | (v != v);
                best = take ? v : best;
                idx = take ? lane + static_cast<I>(hh * p.w + j0 * sw + q * dw - pw) : idx;
            }
        }
#else
        T best[V];
        int32_t idx[V];
        for (int64_t t = 0; t < V; ++t) {
            best[t] = ninf;
            idx[t] = row0 + c.first[static_cast<std::size_t>(std::min(j0 + t, p.ow - 1))];
        }
        for (int64_t r = 0; r < rows; ++r)
            for (int64_t q = 0; q < kw; ++q) {
                const T* src = buf + r * wb + j0 * sw + q * dw;
                for (int64_t t = 0; t < V; ++t)
                    if (src[t * sw] > best[t] || src[t * sw] != src[t * sw]) {
                        best[t] = src[t * sw];
                        idx[t] = static_cast<int32_t>((h0 + r * dh) * p.w + (j0 + t) * sw + q * dw - pw);
                    }
            }
#endif
        const int64_t n = std::min(V, p.ow - j0);
        for (int64_t t = 0; t < n; ++t) {
            yr[j0 + t] = best[t];
            ir[j0 + t] = static_cast<int32_t>(idx[t]);
        }
    }
}

template <class T, int SW>
BURN_POOL_INLINE void max_pool_range(const OpCall& call, const Planes& p, const T* x, T* y, int32_t* ind,
                                     const MaxCols& cols, int64_t wb, int64_t b, int64_t e) {
    const attrs::PoolWindow a = call.attrs<attrs::MaxPool2d>().window;
    T* buf = nn::scratch<T>(3, a.kernel[0] * wb);
    for (int64_t pl = b; pl < e; ++pl)
        for (int64_t i = 0; i < p.oh; ++i)
            max_pool_row<T, SW>(x + pl * p.h * p.w, y + (pl * p.oh + i) * p.ow, ind + (pl * p.oh + i) * p.ow,
                                i, p, a, cols, buf, wb);
}

#define BURN_POOL_VARIANT(ATTR, SUFFIX)                                                                    \
    template <class T, int SW>                                                                             \
    ATTR void max_pool_range_##SUFFIX(const OpCall& call, const Planes& p, const T* x, T* y, int32_t* ind, \
                                      const MaxCols& cols, int64_t wb, int64_t b, int64_t e) {             \
        max_pool_range<T, SW>(call, p, x, y, ind, cols, wb, b, e);                                         \
    }
BURN_POOL_VARIANT(, base)
#if BURN_POOL_X86
BURN_POOL_VARIANT(__attribute__((target("avx2,fma"))), avx2)
BURN_POOL_VARIANT(__attribute__((target("avx512f,avx512dq,avx512vl,avx512bw,avx2,fma"))), avx512)
#endif

template <class T, int SW>
void max_pool_planes(const OpCall& call, const Planes& p, const T* x, T* y, int32_t* ind) {
    const attrs::PoolWindow a = call.attrs<attrs::MaxPool2d>().window;
    const MaxCols cols = max_cols(p, a);
    // Room for whole blocks of 8 outputs (and the two-vector loads of stride 2).
    const int64_t owp = (p.ow + 7) / 8 * 8,
                  wb = (owp - 1) * a.stride[1] + (a.kernel[1] - 1) * a.dilation[1] + 1 + 16;
    platform::parallel_for(p.planes, plane_grain(p.h * p.w), [&](int64_t b, int64_t e) {
#if BURN_POOL_X86
        switch (gemm_isa()) {
            case GemmIsa::avx512:
                return max_pool_range_avx512<T, SW>(call, p, x, y, ind, cols, wb, b, e);
            case GemmIsa::avx2:
                return max_pool_range_avx2<T, SW>(call, p, x, y, ind, cols, wb, b, e);
            default:
                break;
        }
#endif
        max_pool_range_base<T, SW>(call, p, x, y, ind, cols, wb, b, e);
    });
}

template <class T>
void max_pool_forward(const OpCall& call, const Planes& p, const T* x, T* y, int32_t* ind) {
#if defined(__wasm_simd128__)
    const attrs::PoolWindow a = call.attrs<attrs::MaxPool2d>().window;
    if constexpr (std::is_same_v<T, float>) {
        if (a.kernel[0] == 2 && a.kernel[1] == 2 && a.stride[0] == 2 && a.stride[1] == 2 && a.pad[0] == 0 &&
            a.pad[1] == 0 && a.dilation[0] == 1 && a.dilation[1] == 1 && 2 * p.oh <= p.h && 2 * p.ow <= p.w) {
            platform::parallel_for(p.planes, plane_grain(p.h * p.w), [&](int64_t b, int64_t e) {
                for (int64_t pl = b; pl < e; ++pl)
                    for (int64_t i = 0; i < p.oh; ++i)
                        pool_simd128::max_pool_2x2_row(x + pl * p.h * p.w, p.w, i, p.ow,
                                                       y + (pl * p.oh + i) * p.ow,
                                                       ind + (pl * p.oh + i) * p.ow);
            });
            return;
        }
    }
#endif
    switch (call.attrs<attrs::MaxPool2d>().window.stride[1]) {
        case 1:
            return max_pool_planes<T, 1>(call, p, x, y, ind);
        case 2:
            return max_pool_planes<T, 2>(call, p, x, y, ind);
        default:
            return max_pool_planes<T, 0>(call, p, x, y, ind);
    }
}

TensorRefs max_pool2d_kernel(const OpCall& call, TensorRefs& in) {
    if (TensorRefs cl = max_pool2d_channels_last(call, in[0]); !cl.empty()) return cl;
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
    visit_kernel_dtype(t.dtype, "max_pool2d", [&](auto tag) {
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

inline AvgWindow avg_window(const attrs::AvgPool2d& a, const Planes& p, int64_t i, int64_t j) {
    const int64_t kh = a.kernel[0], kw = a.kernel[1], sh = a.stride[0], sw = a.stride[1], ph = a.pad_begin[0],
                  pw = a.pad_begin[1], phe = a.pad_end[0], pwe = a.pad_end[1];
    int64_t h0 = i * sh - ph, w0 = j * sw - pw;
    int64_t h1 = std::min(h0 + kh, p.h + phe), w1 = std::min(w0 + kw, p.w + pwe);
    const int64_t padded = (h1 - h0) * (w1 - w0);
    h0 = std::max<int64_t>(h0, 0);
    w0 = std::max<int64_t>(w0, 0);
    h1 = std::min(h1, p.h);
    w1 = std::min(w1, p.w);
    const int64_t inside = std::max<int64_t>(0, h1 - h0) * std::max<int64_t>(0, w1 - w0);
    return {h0, h1, w0, w1, static_cast<double>(a.count_include_pad ? padded : inside)};
}

TensorRefs avg_pool2d_kernel(const OpCall& call, TensorRefs& in) {
    const auto av = call.attrs<attrs::AvgPool2d>();
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
                        const AvgWindow win = avg_window(av, p, i, j);
                        T sum = 0;
                        for (int64_t hh = win.h0; hh < win.h1; ++hh)
                            for (int64_t ww = win.w0; ww < win.w1; ++ww) sum += xp[hh * p.w + ww];
                        yb[(pl * p.oh + i) * p.ow + j] =
                            win.divisor > 0 ? sum / static_cast<T>(win.divisor) : T(0);
                    }
            }
        });
    });
    return {nn::from_compute(y, call.dtype)};
}

TensorRefs avg_pool2d_backward_kernel(const OpCall& call, TensorRefs& in) {
    const auto av = call.attrs<attrs::AvgPool2d>();
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
                        const AvgWindow win = avg_window(av, p, i, j);
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
inline int64_t bin_start(int64_t i, int64_t in, int64_t out) {
    return (i * in) / out;
}
inline int64_t bin_end(int64_t i, int64_t in, int64_t out) {
    return ((i + 1) * in + out - 1) / out;
}

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
