// CPU scan kernels: cumsum, cumprod, cummax and cummin along one dim. The input is made contiguous
// and seen as [outer, n, inner]; rows (inner == 1) or column blocks run in parallel. Sums and products
// accumulate floats in double and ints in uint64 (wrapping to the dtype like torch); cummax and cummin
// keep the compute type and propagate NaN (bm::max_nan, as max_pair does).
#include "backends/common/scalar_math.hpp"
#include "backends/cpu/reduce_common.hpp"

namespace burn::cpu {

namespace {

template <bool Prod, class A>
inline A scan_step(A acc, A v) {
    if constexpr (Prod)
        return acc * v;
    else
        return acc + v;
}

template <bool Prod, class T>
void scan_typed(const T* x, T* y, const Geometry& g) {
    using C = compute_t<T>;
    using A = std::conditional_t<std::is_floating_point_v<C>, double, uint64_t>;  // ints wrap without UB
    constexpr A kInit = Prod ? A(1) : A(0);
    if (g.n == 0) return;
    if (g.inner == 1) {
        platform::parallel_for(g.outer, grain_for(g.n), [&](int64_t b, int64_t e) {
            for (int64_t r = b; r < e; ++r) {
                const T* row = x + r * g.n;
                T* dst = y + r * g.n;
                A acc = kInit;
                for (int64_t i = 0; i < g.n; ++i) {
                    acc = scan_step<Prod>(acc, A(C(row[i])));
                    dst[i] = T(C(acc));
                }
            }
        });
        return;
    }
    for_col_blocks(g, [&](int64_t o, int64_t j0, int64_t cnt) {
        A acc[kColBlock];
        for (A& a : acc) a = kInit;
        const int64_t base = o * g.n * g.inner + j0;
        for (int64_t k = 0; k < g.n; ++k) {
            const T* row = x + base + k * g.inner;
            T* dst = y + base + k * g.inner;
            for (int64_t j = 0; j < cnt; ++j) {
                acc[j] = scan_step<Prod>(acc[j], A(C(row[j])));
                dst[j] = T(C(acc[j]));
            }
        }
    });
}

/// The running maximum (Max) or minimum of each lane, starting from its first element.
template <bool Max, class T>
void extreme_scan_typed(const T* x, T* y, const Geometry& g) {
    using C = compute_t<T>;
    const auto step = [](C acc, C v) { return Max ? bm::max_nan(acc, v) : bm::min_nan(acc, v); };
    if (g.n == 0) return;
    if (g.inner == 1) {
        platform::parallel_for(g.outer, grain_for(g.n), [&](int64_t b, int64_t e) {
            for (int64_t r = b; r < e; ++r) {
                const T* row = x + r * g.n;
                T* dst = y + r * g.n;
                C acc = C(row[0]);
                dst[0] = row[0];
                for (int64_t i = 1; i < g.n; ++i) {
                    acc = step(acc, C(row[i]));
                    dst[i] = T(acc);
                }
            }
        });
        return;
    }
    for_col_blocks(g, [&](int64_t o, int64_t j0, int64_t cnt) {
        C acc[kColBlock];
        const int64_t base = o * g.n * g.inner + j0;
        for (int64_t k = 0; k < g.n; ++k) {
            const T* row = x + base + k * g.inner;
            T* dst = y + base + k * g.inner;
            for (int64_t j = 0; j < cnt; ++j) {
                acc[j] = k == 0 ? C(row[j]) : step(acc[j], C(row[j]));
                dst[j] = T(acc[j]);
            }
        }
    });
}

template <bool Max>
TensorRefs extreme_scan_kernel(const OpCall& call, TensorRefs& in) {
    auto out = reuse_or_alloc(in, {0}, call.shape, call.dtype);  // in place, as scan_kernel
    TensorRef src = contiguous(in[0]);
    const CpuTensor& x = as_cpu(src);
    const Geometry g = geometry(x.shape, static_cast<int>(call.attrs<attrs::Dim>().dim));
    dispatch_kinds<OpKinds::numeric>(x.dtype, Max ? "cummax" : "cummin", [&](auto tag) {
        using T = decltype(tag);
        extreme_scan_typed<Max>(x.data<T>(), out->data<T>(), g);
    });
    return {out};
}

template <bool Prod>
TensorRefs scan_kernel(const OpCall& call, TensorRefs& in) {
    auto out =
        reuse_or_alloc(in, {0}, call.shape, call.dtype);  // in place: y[i] is written after x[i] is read
    TensorRef src = contiguous(in[0]);
    const CpuTensor& x = as_cpu(src);
    const Geometry g = geometry(x.shape, static_cast<int>(call.attrs<attrs::Dim>().dim));
    dispatch_kinds<OpKinds::numeric>(x.dtype, Prod ? "cumprod" : "cumsum", [&](auto tag) {
        using T = decltype(tag);
        scan_typed<Prod>(x.data<T>(), out->data<T>(), g);
    });
    return {out};
}

}  // namespace

void register_scan(KernelTable& t) {
    t[idx(OpId::cumsum)] = &scan_kernel<false>;
    t[idx(OpId::cumprod)] = &scan_kernel<true>;
    t[idx(OpId::cummax)] = &extreme_scan_kernel<true>;
    t[idx(OpId::cummin)] = &extreme_scan_kernel<false>;
}

}  // namespace burn::cpu
