// Index kernels: gather/select (one gather core) and scatter_add/select_add/scatter_reduce (one scatter
// core: a thread per column off `dim`, serial along `dim`, so duplicate indices add, or combine under
// scatter_reduce's mode, in the CPU's order and results are deterministic: the last assign wins). A bad index
// is flagged in the launch's error slot (error_slots.hpp) and raised at the device's next synchronisation,
// without a synchronisation per op. select_add with many indices (embedding backward) sorts (index, position)
// pairs stably instead and gives each (destination row, column) one thread that adds its contributions in
// position order, starting from the destination's value: the CPU's serial order, so results are bit-equal.
// scatter_add with many steps along the dim does the same with (column, index) keys.
#include <climits>

#include "backends/common/scalar_math.hpp"
#include "backends/cuda/error_slots.hpp"
#include "backends/cuda/kernels.cuh"
#include "backends/cuda/radix_sort.hpp"

namespace burn::cuda {

namespace {

const char* user_name(OpId op) {
    switch (op) {
        case OpId::scatter_add:
        case OpId::scatter_reduce:
            return "scatter";
        case OpId::select_add:
            return "select_assign";
        default:
            return op_name(op).data();
    }
}

template <class F>
void dispatch_index(DType d, F&& f) {
    if (!dispatch_int_if(d, f)) BURN_THROW_KIND(dtype, "[index] indices must be an integer tensor, got ", d);
}

/// The error slot of one launch (error_slots.hpp): the first bad index value any thread saw, raised as
/// an IndexError at the device's next synchronisation.
std::string describe_bad_index(const ErrorInfo& e, long long v) {
    return detail::msg("[", e.op, "] index ", v, " is out of range for dim ", e.dim, " of size ", e.size,
                       " (tensor shape ", e.target, "); indices must lie in [0, ", e.size,
                       ") and negative indices are not supported");
}

struct BadFlag {
    long long* slot;
    BadFlag(const char* op, int dim, int64_t size, const Dims& target)
        : slot(ctx().errors->take(ErrorInfo{&describe_bad_index, op, dim, size, target, {}})) {}
    long long* dev() const { return slot; }
};

__device__ void flag_bad(long long* flag, long long v) {
    if (atomicExch(reinterpret_cast<unsigned long long*>(flag), 1ull) == 0ull) flag[1] = v;
}

/// o[p] = x[off_x(p) + index(p) * sd] over the iteration shape (o contiguous).
template <class T, class I>
__global__ void gather_k(const I* ib, const T* xb, T* o, Iter<2> it, int64_t sd, int64_t n, int64_t total,
                         long long* flag) {
    BURN_GRID_STRIDE(i, total) {
        int64_t off[2];
        it.offsets(i, off);
        const int64_t v = static_cast<int64_t>(ib[off[0]]);
        if (v < 0 || v >= n) {
            flag_bad(flag, v);
            o[i] = T{};
            continue;
        }
        o[i] = xb[off[1] + v * sd];
    }
}

struct IndexView {
    const CudaTensor* tensor;
    Dims strides;
    int64_t offset;
};

TensorRef run_gather(const OpCall& call, const CudaTensor& x, const IndexView& ix, int dim) {
    auto out = alloc(call.shape, call.dtype);
    const int64_t total = call.shape.numel();
    if (total == 0) return out;
    BadFlag bad(user_name(call.op), dim, x.shape[dim], x.shape);
    Dims xs = x.strides;
    const int64_t sd = xs[dim];
    xs[dim] = 0;
    const Dims* st[2] = {&ix.strides, &xs};
    const int64_t base[2] = {ix.offset, x.offset};
    auto it = make_iter<2>(call.shape, st, base);
    dispatch_bits(x.dtype, [&](auto tag) {
        using T = decltype(tag);
        dispatch_index(ix.tensor->dtype, [&](auto itag) {
            using I = decltype(itag);
            gather_k<T, I><<<blocks_for(total), kThreads, 0, ctx().stream>>>(
                static_cast<const I*>(ix.tensor->storage->data), static_cast<const T*>(x.storage->data),
                out->data<T>(), it, sd, x.shape[dim], total, bad.dev());
        });
    });
    BURN_CUDA_LAUNCHED();
    return out;
}

IndexView broadcast_index(const CudaTensor& indices, int rank, int dim) {
    Dims strides = Dims::filled(rank, 0);
    strides[dim] = indices.strides[0];
    return IndexView{&indices, strides, indices.offset};
}

TensorRefs gather_kernel(const OpCall& call, TensorRefs& in) {
    const CudaTensor& x = as_cuda(in[0]);
    const CudaTensor& ix = as_cuda(in[1]);
    return {run_gather(call, x, IndexView{&ix, ix.strides, ix.offset},
                       static_cast<int>(call.attrs<attrs::Dim>().dim))};
}

TensorRefs select_kernel(const OpCall& call, TensorRefs& in) {
    const CudaTensor& x = as_cuda(in[0]);
    const CudaTensor& ix = as_cuda(in[1]);
    const int dim = static_cast<int>(call.attrs<attrs::Dim>().dim);
    return {run_gather(call, x, broadcast_index(ix, x.shape.rank(), dim), dim)};
}

/// How the scatter core combines: add (scatter_add, select_add) or a scatter_reduce mode.
constexpr int64_t kScatterAdd = -1;

/// dst combined with v under a scatter_reduce mode, as the CPU's scatter_combine: assign (the last wins),
/// mul (integers wrap), min and max (NaN propagates); on bool mul and min are "and", max "or".
template <int64_t M, class T>
__device__ __forceinline__ T scatter_reduce_one(T dst, T v) {
    using R = attrs::ScatterReduce;
    if constexpr (M == R::assign) {
        return v;
    } else if constexpr (std::is_same_v<T, bool>) {
        return M == R::max ? (dst || v) : (dst && v);
    } else if constexpr (M == R::mul) {
        if constexpr (std::is_integral_v<T>) {
            using U = std::make_unsigned_t<T>;
            return static_cast<T>(static_cast<U>(static_cast<U>(dst) * static_cast<U>(v)));
        } else {
            return dst * v;
        }
    } else if constexpr (M == R::min) {
        return bm::min_nan(dst, v);
    } else {
        return bm::max_nan(dst, v);
    }
}

/// For each column c (positions off dim), for k in [0, steps): out[c, index(c, k)] += values[c, k]
/// (M = kScatterAdd), or combined under scatter_reduce's mode M.
template <int64_t M, class T, class I>
__global__ void scatter_k(const I* ib, const T* vb, T* ob, Iter<3> it, int64_t isd, int64_t vsd, int64_t osd,
                          int64_t steps, int64_t n, int64_t cols, long long* flag) {
    BURN_GRID_STRIDE(c, cols) {
        int64_t off[3];
        it.offsets(c, off);
        for (int64_t k = 0; k < steps; ++k) {
            const int64_t v = static_cast<int64_t>(ib[off[0] + k * isd]);
            if (v < 0 || v >= n) {
                flag_bad(flag, v);
                continue;
            }
            T& dst = ob[off[2] + v * osd];
            const T add = vb[off[1] + k * vsd];
            if constexpr (M != kScatterAdd) {
                dst = scatter_reduce_one<M, T>(dst, add);
            } else if constexpr (std::is_integral_v<T>) {
                using U = std::make_unsigned_t<T>;
                dst = static_cast<T>(static_cast<U>(static_cast<U>(dst) + static_cast<U>(add)));
            } else {
                dst = dst + add;
            }
        }
    }
}

/// Calls f(std::integral_constant<int64_t, M>) for the combining mode.
template <class F>
void dispatch_mode(int64_t mode, F&& f) {
    using R = attrs::ScatterReduce;
    switch (mode) {
        case R::assign:
            return f(std::integral_constant<int64_t, R::assign>{});
        case R::mul:
            return f(std::integral_constant<int64_t, R::mul>{});
        case R::min:
            return f(std::integral_constant<int64_t, R::min>{});
        case R::max:
            return f(std::integral_constant<int64_t, R::max>{});
        default:
            return f(std::integral_constant<int64_t, kScatterAdd>{});
    }
}

TensorRef run_scatter(const OpCall& call, TensorRefs& in, const Dims& shape, const IndexView& ix, int dim,
                      int64_t mode = kScatterAdd) {
    auto out = reuse_or_alloc(in, {0}, call.shape, call.dtype);
    if (out.get() != in[0].get()) {
        TensorRef c = contiguous_copy(in[0]);
        out = std::static_pointer_cast<CudaTensor>(std::const_pointer_cast<TensorImpl>(c));
    }
    const CudaTensor& values = as_cuda(in[2]);
    const int64_t steps = shape[dim];
    Dims cols = shape;
    cols[dim] = 1;
    const int64_t ncols = cols.numel();
    if (steps == 0 || ncols == 0) return out;
    BadFlag bad(user_name(call.op), dim, out->shape[dim], out->shape);
    Dims is = ix.strides, vs = values.strides, os = out->strides;
    const int64_t isd = is[dim], vsd = vs[dim], osd = os[dim];
    const Dims* st[3] = {&is, &vs, &os};
    const int64_t base[3] = {ix.offset, values.offset, out->offset};
    auto it = make_iter<3>(cols, st, base);
    auto launch = [&](auto tag) {
        using T = decltype(tag);
        dispatch_index(ix.tensor->dtype, [&](auto itag) {
            using I = decltype(itag);
            dispatch_mode(mode, [&](auto mtag) {
                constexpr int64_t M = decltype(mtag)::value;
                if constexpr (M == kScatterAdd && std::is_same_v<T, bool>) {
                    BURN_THROW_KIND(dtype, "[scatter] adding into a bool tensor is not defined");
                } else {
                    scatter_k<M, T, I><<<blocks_for(ncols), kThreads, 0, ctx().stream>>>(
                        static_cast<const I*>(ix.tensor->storage->data),
                        static_cast<const T*>(values.storage->data), static_cast<T*>(out->storage->data), it,
                        isd, vsd, osd, steps, out->shape[dim], ncols, bad.dev());
                }
            });
        });
    };
    if (call.dtype == DType::boolean)
        launch(bool{});
    else
        dispatch_numeric(call.dtype, launch);
    BURN_CUDA_LAUNCHED();
    return out;
}

TensorRefs scatter_add_kernel(const OpCall& call, TensorRefs& in) {
    const int dim = static_cast<int>(call.attrs<attrs::Dim>().dim);
    const CudaTensor& ic = as_cuda(in[1]);
    return {run_scatter(call, in, ic.shape, IndexView{&ic, ic.strides, ic.offset}, dim)};
}

TensorRefs scatter_reduce_kernel(const OpCall& call, TensorRefs& in) {
    const auto a = call.attrs<attrs::ScatterReduce>();
    const CudaTensor& ic = as_cuda(in[1]);
    return {run_scatter(call, in, ic.shape, IndexView{&ic, ic.strides, ic.offset}, static_cast<int>(a.dim),
                        a.mode)};
}

TensorRefs select_add_kernel(const OpCall& call, TensorRefs& in) {
    const int dim = static_cast<int>(call.attrs<attrs::Dim>().dim);
    const CudaTensor& ic = as_cuda(in[1]);
    const Dims shape = in[2]->shape;
    return {run_scatter(call, in, shape, broadcast_index(ic, shape.rank(), dim), dim)};
}

// ------------------------------------------------------------------ select_add by sorted indices

/// keys[k] = index k (n for a bad one, flagged), pos[k] = k.
template <class I>
__global__ void select_keys_k(const I* ib, int64_t istride, uint32_t* keys, int32_t* pos, int64_t m,
                              int64_t n, long long* flag) {
    BURN_GRID_STRIDE(k, m) {
        const int64_t v = static_cast<int64_t>(ib[k * istride]);
        if (v < 0 || v >= n) flag_bad(flag, v);
        keys[k] = static_cast<uint32_t>(v < 0 || v >= n ? n : v);
        pos[k] = static_cast<int32_t>(k);
    }
}

template <class T>
__device__ __forceinline__ T add_like_cpu(T a, T b) {
    if constexpr (std::is_integral_v<T>) {
        using U = std::make_unsigned_t<T>;
        return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
    } else if constexpr (is_half_v<T>) {
        return T(static_cast<float>(a) + static_cast<float>(b));  // rounded each step, like the CPU
    } else {
        return a + b;
    }
}

/// The end of the run of equal keys that starts at e (sorted keys[0, m)): a galloping search (most
/// runs are short), then a binary one.
template <class K>
__device__ int64_t run_end(const K* keys, int64_t e, int64_t m) {
    const K key = keys[e];
    int64_t good = e, end = m;  // keys[good] == key; end == m or keys[end] != key
    for (int64_t step = 1;; step *= 2) {
        const int64_t probe = good + step;
        if (probe >= m) break;
        if (keys[probe] != key) {
            end = probe;
            break;
        }
        good = probe;
    }
    while (end - good > 1) {
        const int64_t mid = good + (end - good) / 2;
        if (keys[mid] == key)
            good = mid;
        else
            end = mid;
    }
    return end;
}

/// out [outer, n, inner], values [outer, m, inner] (contiguous). A thread per (sorted entry e, o, c):
/// the first entry of each run of one index sums the run's values into its destination, in order.
template <class T>
__global__ void select_runs_k(const uint32_t* keys, const int32_t* pos, const T* values, T* out, int64_t m,
                              int64_t n, int64_t inner, int64_t outer, int64_t total) {
    BURN_GRID_STRIDE(t, total) {
        const int64_t c = t % inner, r = t / inner;
        const int64_t o = r % outer, e = r / outer;
        const uint32_t key = keys[e];
        if (key >= n || (e > 0 && keys[e - 1] == key)) continue;
        T* dst = out + (o * n + key) * inner + c;
        const T* src = values + o * m * inner + c;
        const int64_t end = run_end(keys, e, m);
        // A known trip count without stores: the loads of several steps are in flight at once.
        T acc = *dst;
#pragma unroll 8
        for (int64_t f = e; f < end; ++f) acc = add_like_cpu(acc, src[static_cast<int64_t>(pos[f]) * inner]);
        *dst = acc;
    }
}

/// Below this many indices along the dim the serial scatter is as fast as sorting them.
constexpr int64_t kSortedSelectMin = 32;

/// scatter_add: for column c and step k (p = c * steps + k), keys[p] = c * n + index (ncols * n for a
/// bad index, flagged) and pos[p] = p.
template <class I, class K>
__global__ void scatter_keys_k(const I* ib, Iter<3> it, int64_t isd, K* keys, int32_t* pos, int64_t steps,
                               int64_t n, int64_t ncols, int64_t total, long long* flag) {
    BURN_GRID_STRIDE(p, total) {
        const int64_t c = p / steps, k = p - c * steps;
        int64_t off[3];
        it.offsets(c, off);
        const int64_t v = static_cast<int64_t>(ib[off[0] + k * isd]);
        const bool bad = v < 0 || v >= n;
        if (bad) flag_bad(flag, v);
        keys[p] = static_cast<K>(bad ? ncols * n : c * n + v);
        pos[p] = static_cast<int32_t>(p);
    }
}

/// A thread per sorted entry: the first of each run of one (column, index) adds the run's values
/// into its destination in step order.
template <class T, class K>
__global__ void scatter_runs_k(const K* keys, const int32_t* pos, const T* vb, T* ob, Iter<3> it, int64_t vsd,
                               int64_t osd, int64_t steps, int64_t n, int64_t ncols, int64_t total) {
    BURN_GRID_STRIDE(e, total) {
        const K key = keys[e];
        if (key >= static_cast<K>(ncols * n) || (e > 0 && keys[e - 1] == key)) continue;
        const int64_t end = run_end(keys, e, total);
        const int64_t c = static_cast<int64_t>(pos[e]) / steps, v = static_cast<int64_t>(key) - c * n;
        int64_t off[3];
        it.offsets(c, off);
        T* dst = ob + off[2] + v * osd;
        const int64_t p0 = c * steps;  // pos - p0: the step along dim
        T acc = *dst;
#pragma unroll 4
        for (int64_t f = e; f < end; ++f)
            acc = add_like_cpu(acc, vb[off[1] + (static_cast<int64_t>(pos[f]) - p0) * vsd]);
        *dst = acc;
    }
}

bool sorted_scatter_ok(const OpCall& call, const TensorRefs& in) {
    const int dim = static_cast<int>(call.attrs<attrs::Dim>().dim);
    const Dims& shape = in[1]->shape;
    const int64_t total = shape.numel(), n = in[0]->shape[dim];
    return shape[dim] > kSortedSelectMin && total < INT32_MAX && n < INT32_MAX &&
           total / shape[dim] < INT32_MAX;
}

template <class K>
void sorted_scatter_typed(const OpCall& call, const CudaTensor& ix, const CudaTensor& values, CudaTensor& out,
                          int dim, const BadFlag& bad) {
    const Dims& shape = ix.shape;
    const int64_t steps = shape[dim], n = out.shape[dim], total = shape.numel(), ncols = total / steps;
    Dims cols = shape;
    cols[dim] = 1;
    Dims is = ix.strides, vs = values.strides, os = out.strides;
    const Dims* st[3] = {&is, &vs, &os};
    const int64_t base[3] = {ix.offset, values.offset, out.offset};
    auto it = make_iter<3>(cols, st, base);
    auto key_mem = scratch(static_cast<std::size_t>(2 * total) * sizeof(K));
    auto pos_mem = scratch(static_cast<std::size_t>(2 * total) * sizeof(int32_t));
    K* const keys[2] = {static_cast<K*>(key_mem->data), static_cast<K*>(key_mem->data) + total};
    int32_t* const pos[2] = {static_cast<int32_t*>(pos_mem->data),
                             static_cast<int32_t*>(pos_mem->data) + total};
    dispatch_index(ix.dtype, [&](auto itag) {
        using I = decltype(itag);
        scatter_keys_k<I, K><<<blocks_for(total), kThreads, 0, ctx().stream>>>(
            static_cast<const I*>(ix.storage->data), it, is[dim], keys[0], pos[0], steps, n, ncols, total,
            bad.dev());
    });
    BURN_CUDA_LAUNCHED();
    const SortedIn s = radix_sort_pairs(keys, pos, total, bits_for(static_cast<uint64_t>(ncols * n)));
    dispatch_numeric_ew(call.dtype, [&](auto tag) {
        using T = decltype(tag);
        scatter_runs_k<T, K><<<blocks_for(total), kThreads, 0, ctx().stream>>>(
            keys[s.keys], pos[s.vals], static_cast<const T*>(values.storage->data),
            static_cast<T*>(out.storage->data), it, vs[dim], os[dim], steps, n, ncols, total);
    });
    BURN_CUDA_LAUNCHED();
}

/// scatter_add with long runs along the dim: (column, index) keys sorted stably, then a thread per run.
TensorRefs sorted_scatter_add(const OpCall& call, TensorRefs& in) {
    const int dim = static_cast<int>(call.attrs<attrs::Dim>().dim);
    auto out = reuse_or_alloc(in, {0}, call.shape, call.dtype);
    if (out.get() != in[0].get()) {
        TensorRef c = contiguous_copy(in[0]);
        out = std::static_pointer_cast<CudaTensor>(std::const_pointer_cast<TensorImpl>(c));
    }
    const CudaTensor& ix = as_cuda(in[1]);
    const CudaTensor& values = as_cuda(in[2]);
    if (ix.shape.numel() == 0) return {out};
    const int64_t n = out->shape[dim], ncols = ix.shape.numel() / ix.shape[dim];
    BadFlag bad(user_name(call.op), dim, n, out->shape);
    if (static_cast<uint64_t>(ncols * n) < UINT32_MAX)
        sorted_scatter_typed<uint32_t>(call, ix, values, *out, dim, bad);
    else
        sorted_scatter_typed<uint64_t>(call, ix, values, *out, dim, bad);
    return {out};
}

TensorRefs scatter_add_dispatch(const OpCall& call, TensorRefs& in) {
    if (sorted_scatter_ok(call, in)) return sorted_scatter_add(call, in);
    return widening<&scatter_add_kernel>(call, in);
}

bool sorted_select_ok(const OpCall& call, const TensorRefs& in) {
    const int dim = static_cast<int>(call.attrs<attrs::Dim>().dim);
    const int64_t m = in[1]->shape[0], n = in[0]->shape[dim];
    return m > kSortedSelectMin && m < INT32_MAX && n < INT32_MAX && in[0]->shape.numel() > 0;
}

TensorRefs sorted_select_add(const OpCall& call, TensorRefs& in) {
    const int dim = static_cast<int>(call.attrs<attrs::Dim>().dim);
    auto out = reuse_or_alloc(in, {0}, call.shape, call.dtype);
    if (out.get() != in[0].get()) {
        TensorRef c = contiguous_copy(in[0]);
        out = std::static_pointer_cast<CudaTensor>(std::const_pointer_cast<TensorImpl>(c));
    }
    TensorRef vref = contiguous(in[2]);
    const CudaTensor& values = as_cuda(vref);
    const CudaTensor& ix = as_cuda(in[1]);
    const int64_t m = ix.shape[0], n = out->shape[dim];
    int64_t outer = 1, inner = 1;
    for (int d = 0; d < dim; ++d) outer *= out->shape[d];
    for (int d = dim + 1; d < out->shape.rank(); ++d) inner *= out->shape[d];
    const int64_t total = m * outer * inner;
    if (total == 0) return {out};
    BadFlag bad(user_name(call.op), dim, n, out->shape);
    auto key_mem = scratch(static_cast<std::size_t>(2 * m) * sizeof(uint32_t));
    auto pos_mem = scratch(static_cast<std::size_t>(2 * m) * sizeof(int32_t));
    uint32_t* const keys[2] = {static_cast<uint32_t*>(key_mem->data),
                               static_cast<uint32_t*>(key_mem->data) + m};
    int32_t* const pos[2] = {static_cast<int32_t*>(pos_mem->data), static_cast<int32_t*>(pos_mem->data) + m};
    dispatch_index(ix.dtype, [&](auto itag) {
        using I = decltype(itag);
        select_keys_k<I><<<blocks_for(m), kThreads, 0, ctx().stream>>>(ix.data<I>(), ix.strides[0], keys[0],
                                                                       pos[0], m, n, bad.dev());
    });
    BURN_CUDA_LAUNCHED();
    const SortedIn s = radix_sort_pairs(keys, pos, m, bits_for(static_cast<uint64_t>(n)));
    dispatch_numeric_ew(call.dtype, [&](auto tag) {
        using T = decltype(tag);
        select_runs_k<T><<<blocks_for(total), kThreads, 0, ctx().stream>>>(
            keys[s.keys], pos[s.vals], values.data<T>(), out->data<T>(), m, n, inner, outer, total);
    });
    BURN_CUDA_LAUNCHED();
    return {out};
}

TensorRefs select_add_dispatch(const OpCall& call, TensorRefs& in) {
    if (sorted_select_ok(call, in)) return sorted_select_add(call, in);
    return widening<&select_add_kernel>(call, in);
}

bool index_dtype_ok(const TensorRefs& in) {
    return in.size() > 1 && is_int(in[1]->dtype);
}
bool gather_ok(const OpCall& call, const TensorRefs& in) {
    return index_dtype_ok(in) && is_any_k(call.dtype);
}
bool index_dtype_ok_call(const OpCall&, const TensorRefs& in) {
    return index_dtype_ok(in);
}
bool scatter_ok(const OpCall& call, const TensorRefs& in) {
    return index_dtype_ok(in) && call.dtype != DType::boolean;
}

}  // namespace

void register_index(KernelTable& t) {
    t[idx(OpId::gather)] = {&gather_kernel, &gather_ok};
    t[idx(OpId::select)] = {&select_kernel, &gather_ok};
    t[idx(OpId::scatter_add)] = {&scatter_add_dispatch, &scatter_ok};
    t[idx(OpId::scatter_reduce)] = {&widening<&scatter_reduce_kernel>, &index_dtype_ok_call};
    t[idx(OpId::select_add)] = {&select_add_dispatch, &scatter_ok};
}

}  // namespace burn::cuda
