// CPU scan kernels: cumsum along one dim. The input is made contiguous and seen as [outer, n, inner];
// rows (inner == 1) or column blocks run in parallel. Floats accumulate in double, ints in uint64
// (wrapping to the dtype like torch).
#include "backends/cpu/reduce_common.hpp"

namespace burn::cpu {

namespace {

template <class T>
void cumsum_typed(const T* x, T* y, const Geometry& g) {
    using C = compute_t<T>;
    using A = std::conditional_t<std::is_floating_point_v<C>, double, uint64_t>;  // ints wrap without UB
    if (g.n == 0) return;
    if (g.inner == 1) {
        platform::parallel_for(g.outer, grain_for(g.n), [&](int64_t b, int64_t e) {
            for (int64_t r = b; r < e; ++r) {
                const T* row = x + r * g.n;
                T* dst = y + r * g.n;
                A acc = 0;
                for (int64_t i = 0; i < g.n; ++i) {
                    acc += A(C(row[i]));
                    dst[i] = T(C(acc));
                }
            }
        });
        return;
    }
    for_col_blocks(g, [&](int64_t o, int64_t j0, int64_t cnt) {
        A acc[kColBlock] = {};
        const int64_t base = o * g.n * g.inner + j0;
        for (int64_t k = 0; k < g.n; ++k) {
            const T* row = x + base + k * g.inner;
            T* dst = y + base + k * g.inner;
            for (int64_t j = 0; j < cnt; ++j) {
                acc[j] += A(C(row[j]));
                dst[j] = T(C(acc[j]));
            }
        }
    });
}

TensorRefs cumsum_kernel(const OpCall& call, TensorRefs& in) {
    auto out =
        reuse_or_alloc(in, {0}, call.shape, call.dtype);  // in place: y[i] is written after x[i] is read
    TensorRef src = contiguous(in[0]);
    const CpuTensor& x = as_cpu(src);
    const Geometry g = geometry(x.shape, static_cast<int>(call.attrs<attrs::Dim>().dim));
    dispatch_kinds<OpKinds::numeric>(x.dtype, "cumsum", [&](auto tag) {
        using T = decltype(tag);
        cumsum_typed(x.data<T>(), out->data<T>(), g);
    });
    return {out};
}

}  // namespace

void register_scan(KernelTable& t) {
    t[idx(OpId::cumsum)] = &cumsum_kernel;
}

}  // namespace burn::cpu
