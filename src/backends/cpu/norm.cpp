// CPU kernels of the fused layer_norm and cross_entropy ops and their adjoints (ops.def family nn).
// One task per block of rows; row statistics accumulate in double. Column sums (dgamma, dbeta) are
// taken per fixed block of rows and then added in block order, so results do not depend on the
// thread count. f16/bf16 compute in f32 and keep f32 statistics.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "backends/cpu/kernels.hpp"
#include "backends/cpu/simd_math.hpp"

namespace burn::cpu {

namespace {

/// Rows per block of the column sums (and per task of the row kernels).
constexpr int64_t kRowBlock = 16;

int64_t lead_rows(const Dims& s) {
    int64_t r = 1;
    for (int i = 0; i + 1 < s.rank(); ++i) r *= s[i];
    return r;
}

DType stat_dtype(DType d) {
    return d == DType::f16 || d == DType::bf16 ? DType::f32 : d;
}

template <class F>
void dispatch_float(DType d, const char* op, F&& f) {
    dispatch_kinds<OpKinds::float_only>(d, op, std::forward<F>(f));
}

// ---- layer_norm

/// One row: statistics in double (rms: no centring, mean 0), then the affine map.
template <class T>
void ln_forward_row(const T* xr, const T* gam, const T* bet, T* yr, compute_t<T>& mean, compute_t<T>& rstd,
                    int64_t d, double eps, bool rms) {
    using C = compute_t<T>;
    double m = 0;
    if (!rms && d > 0) {
        for (int64_t j = 0; j < d; ++j) m += static_cast<double>(C(xr[j]));
        m /= static_cast<double>(d);
    }
    double v = 0;
    for (int64_t j = 0; j < d; ++j) {
        const double t = static_cast<double>(C(xr[j])) - m;
        v += t * t;
    }
    v = d > 0 ? v / static_cast<double>(d) : 0.0;
    const C mc = C(m), rs = C(1.0 / std::sqrt(v + eps));
    mean = mc;
    rstd = rs;
    for (int64_t j = 0; j < d; ++j) {
        C h = (C(xr[j]) - mc) * rs;
        if (gam) h *= C(gam[j]);
        if (bet) h += C(bet[j]);
        yr[j] = T(h);
    }
}

template <class T>
void ln_forward(const T* x, const T* gam, const T* bet, T* y, compute_t<T>* mean, compute_t<T>* rstd,
                int64_t rows, int64_t d, double eps, bool rms) {
    const int64_t grain = std::max<int64_t>(1, kGrain / std::max<int64_t>(4 * d, 1));
    platform::parallel_for(rows, grain, [&](int64_t b, int64_t e) {
        for (int64_t r = b; r < e; ++r)
            ln_forward_row(x + r * d, gam, bet, y + r * d, mean[r], rstd[r], d, eps, rms);
    });
}

TensorRefs layer_norm_kernel(const OpCall& call, TensorRefs& in) {
    for (auto& t : in) t = contiguous(t);
    const auto a = call.attrs<attrs::LayerNorm>();
    const bool has_g = a.has_gamma, has_b = a.has_beta;
    const Dims& s = in[0]->shape;
    const int64_t d = s.back(), rows = lead_rows(s);
    const DType sd = stat_dtype(call.dtype);
    auto mean = reuse_or_alloc(in, {}, Dims{rows}, sd);
    auto rstd = reuse_or_alloc(in, {}, Dims{rows}, sd);
    auto y = reuse_or_alloc(in, {0}, s, call.dtype);
    const TensorRef* g = has_g ? &in[1] : nullptr;
    const TensorRef* bt = has_b ? &in[has_g ? 2 : 1] : nullptr;
    dispatch_float(call.dtype, "layer_norm", [&](auto tag) {
        using T = decltype(tag);
        using C = compute_t<T>;
        ln_forward<T>(as_cpu(in[0]).data<T>(), g ? as_cpu(*g).data<T>() : nullptr,
                      bt ? as_cpu(*bt).data<T>() : nullptr, y->data<T>(), mean->data<C>(), rstd->data<C>(),
                      rows, d, a.eps, a.rms);
    });
    return {y, mean, rstd};
}

/// dx = rstd * (gh - mean(gh) - xhat * mean(gh * xhat)), gh = g * gamma, xhat = (x - mean) * rstd
/// (rms: without the mean(gh) term);
/// with `part` non-null, part[block] gets the block's column sums of g * xhat (first d) and g (next d).
template <class T>
void ln_backward(const T* g, const T* x, const compute_t<T>* mean, const compute_t<T>* rstd, const T* gam,
                 T* dx, double* part, int64_t rows, int64_t d, bool rms) {
    using C = compute_t<T>;
    const int64_t blocks = (rows + kRowBlock - 1) / kRowBlock;
    platform::parallel_for(
        blocks, std::max<int64_t>(1, kGrain / std::max<int64_t>(4 * d * kRowBlock, 1)),
        [&](int64_t b0, int64_t b1) {
            for (int64_t blk = b0; blk < b1; ++blk) {
                double* pg = part ? part + blk * 2 * d : nullptr;
                if (pg) std::fill(pg, pg + 2 * d, 0.0);
                for (int64_t r = blk * kRowBlock; r < std::min(rows, (blk + 1) * kRowBlock); ++r) {
                    const T* gr = g + r * d;
                    const T* xr = x + r * d;
                    const C m = mean[r], rs = rstd[r];
                    double s1 = 0, s2 = 0;
                    for (int64_t j = 0; j < d; ++j) {
                        const C xh = (C(xr[j]) - m) * rs;
                        const C gh = gam ? C(gr[j]) * C(gam[j]) : C(gr[j]);
                        s1 += static_cast<double>(gh);
                        s2 += static_cast<double>(gh) * static_cast<double>(xh);
                        if (pg) {
                            pg[j] += static_cast<double>(C(gr[j])) * static_cast<double>(xh);
                            pg[d + j] += static_cast<double>(C(gr[j]));
                        }
                    }
                    const C a = rms ? C(0) : C(s1 / static_cast<double>(d)),
                            bb = C(s2 / static_cast<double>(d));
                    T* o = dx + r * d;
                    for (int64_t j = 0; j < d; ++j) {
                        const C xh = (C(xr[j]) - m) * rs;
                        const C gh = gam ? C(gr[j]) * C(gam[j]) : C(gr[j]);
                        o[j] = T(rs * (gh - a - xh * bb));
                    }
                }
            }
        });
}

TensorRefs layer_norm_backward_kernel(const OpCall& call, TensorRefs& in) {
    for (auto& t : in) t = contiguous(t);
    const auto a = call.attrs<attrs::LayerNormBackward>();
    const bool has_g = a.has_gamma, want = a.want_params;
    const Dims& s = in[1]->shape;
    const int64_t d = s.back(), rows = lead_rows(s);
    const int64_t blocks = (rows + kRowBlock - 1) / kRowBlock;
    auto dx = reuse_or_alloc(in, {0}, s, call.dtype);
    auto dgamma = reuse_or_alloc(in, {}, Dims{want ? d : 0}, call.dtype);
    auto dbeta = reuse_or_alloc(in, {}, Dims{want ? d : 0}, call.dtype);
    std::vector<double> part(want ? static_cast<std::size_t>(blocks * 2 * d) : 0);
    dispatch_float(call.dtype, "layer_norm_backward", [&](auto tag) {
        using T = decltype(tag);
        using C = compute_t<T>;
        ln_backward<T>(as_cpu(in[0]).data<T>(), as_cpu(in[1]).data<T>(), as_cpu(in[2]).data<C>(),
                       as_cpu(in[3]).data<C>(), has_g ? as_cpu(in[4]).data<T>() : nullptr, dx->data<T>(),
                       want ? part.data() : nullptr, rows, d, a.rms);
        if (!want) return;
        T* dg = dgamma->data<T>();
        T* db = dbeta->data<T>();
        for (int64_t j = 0; j < d; ++j) {  // the blocks' partial sums, in block order
            double a = 0, b = 0;
            for (int64_t k = 0; k < blocks; ++k) {
                a += part[static_cast<std::size_t>(k * 2 * d + j)];
                b += part[static_cast<std::size_t>(k * 2 * d + d + j)];
            }
            dg[j] = T(C(a));
            db[j] = T(C(b));
        }
    });
    return {dx, dgamma, dbeta};
}

// ---- cross_entropy

template <class I>
void check_targets(const I* t, int64_t n, int64_t classes) {
    for (int64_t i = 0; i < n; ++i)
        BURN_CHECK_KIND(t[i] >= 0 && static_cast<int64_t>(t[i]) < classes, index, "[cross_entropy] target ",
                        static_cast<int64_t>(t[i]), " of row ", i, " is out of range for ", classes,
                        " classes; targets must lie in [0, ", classes, ")");
}

template <class F>
void dispatch_targets(DType d, F&& f) {
    if (d == DType::i32)
        f(int32_t{});
    else
        f(int64_t{});
}

/// The row as compute-type values: x itself for f32/f64, converted into buf for f16/bf16.
template <class T>
const compute_t<T>* row_of(const T* x, int64_t c, std::vector<compute_t<T>>& buf) {
    if constexpr (std::is_same_v<T, compute_t<T>>) {
        (void)c;
        (void)buf;
        return x;
    } else {
        for (int64_t j = 0; j < c; ++j) buf[static_cast<std::size_t>(j)] = float(x[j]);
        return buf.data();
    }
}

template <class T, class I>
void ce_forward(const T* x, const I* t, T* loss, compute_t<T>* lse, int64_t n, int64_t c, double smooth) {
    using C = compute_t<T>;
    platform::parallel_for(n, std::max<int64_t>(1, kGrain / (8 * c)), [&](int64_t b, int64_t e) {
        std::vector<C> buf(static_cast<std::size_t>(c)), logp(static_cast<std::size_t>(c));
        for (int64_t r = b; r < e; ++r) {
            const C* xr = row_of(x + r * c, c, buf);
            simd::softmax_row(xr, logp.data(), c, true);
            int64_t jm = 0;
            for (int64_t j = 1; j < c; ++j)
                if (xr[j] > xr[jm]) jm = j;
            const C l = xr[jm] - logp[static_cast<std::size_t>(jm)];  // logsumexp: max + log(sum)
            double loss_r = -(1.0 - smooth) * static_cast<double>(logp[static_cast<std::size_t>(t[r])]);
            if (smooth > 0) {
                double s = 0;
                for (int64_t j = 0; j < c; ++j) s += static_cast<double>(logp[static_cast<std::size_t>(j)]);
                loss_r -= smooth * s / static_cast<double>(c);
            }
            loss[r] = T(C(loss_r));
            lse[r] = l;
        }
    });
}

TensorRefs cross_entropy_kernel(const OpCall& call, TensorRefs& in) {
    for (auto& t : in) t = contiguous(t);
    const int64_t n = in[0]->shape[0], c = in[0]->shape[1];
    auto loss = reuse_or_alloc(in, {}, Dims{n}, call.dtype);
    auto lse = reuse_or_alloc(in, {}, Dims{n}, stat_dtype(call.dtype));
    dispatch_targets(in[1]->dtype, [&](auto itag) {
        using I = decltype(itag);
        const I* tg = as_cpu(in[1]).data<I>();
        check_targets(tg, n, c);
        dispatch_float(call.dtype, "cross_entropy", [&](auto tag) {
            using T = decltype(tag);
            ce_forward<T, I>(as_cpu(in[0]).data<T>(), tg, loss->data<T>(), lse->data<compute_t<T>>(), n, c,
                             call.attrs<attrs::CrossEntropy>().smoothing);
        });
    });
    return {loss, lse};
}

template <class T, class I>
void ce_backward(const T* g, const T* x, const I* t, T* dx, int64_t n, int64_t c, double smooth) {
    using C = compute_t<T>;
    platform::parallel_for(n, std::max<int64_t>(1, kGrain / (4 * c)), [&](int64_t b, int64_t e) {
        std::vector<C> buf(static_cast<std::size_t>(c)), p(static_cast<std::size_t>(c));
        for (int64_t r = b; r < e; ++r) {
            const C* xr = row_of(x + r * c, c, buf);
            simd::softmax_row(xr, p.data(), c, false);
            const C gr = C(g[r]), u = C(smooth / static_cast<double>(c));
            p[static_cast<std::size_t>(t[r])] -= C(1.0 - smooth);
            T* o = dx + r * c;
            for (int64_t j = 0; j < c; ++j) o[j] = T((p[static_cast<std::size_t>(j)] - u) * gr);
        }
    });
}

TensorRefs cross_entropy_backward_kernel(const OpCall& call, TensorRefs& in) {
    for (auto& t : in) t = contiguous(t);
    const int64_t n = in[1]->shape[0], c = in[1]->shape[1];
    auto dx = reuse_or_alloc(in, {1}, in[1]->shape, call.dtype);
    dispatch_targets(in[2]->dtype, [&](auto itag) {
        using I = decltype(itag);
        const I* tg = as_cpu(in[2]).data<I>();
        check_targets(tg, n, c);
        dispatch_float(call.dtype, "cross_entropy_backward", [&](auto tag) {
            using T = decltype(tag);
            ce_backward<T, I>(as_cpu(in[0]).data<T>(), as_cpu(in[1]).data<T>(), tg, dx->data<T>(), n, c,
                              call.attrs<attrs::CrossEntropy>().smoothing);
        });
    });
    return {dx};
}

}  // namespace

void register_norm(KernelTable& t) {
    t[idx(OpId::layer_norm)] = &layer_norm_kernel;
    t[idx(OpId::layer_norm_backward)] = &layer_norm_backward_kernel;
    t[idx(OpId::cross_entropy)] = &cross_entropy_kernel;
    t[idx(OpId::cross_entropy_backward)] = &cross_entropy_backward_kernel;
}

}  // namespace burn::cpu
