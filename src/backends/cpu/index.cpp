// CPU index kernels: cat, slice_assign, gather/select (one gather core) and scatter_add/select_add/
// scatter_reduce (one deterministic scatter core). Every kernel reads strided inputs directly.
//
// select and select_add reuse the gather/scatter cores by viewing their 1-D indices as a tensor of
// the iteration shape: stride 0 on every dim but `dim`, where it walks the index vector.
//
// Index checks live in the cores: a bad index is recorded (the one at the lowest position, so the
// message is deterministic) and thrown as burn::IndexError after the parallel loop.
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "backends/common/scalar_math.hpp"
#include "backends/cpu/kernels.hpp"
#include "platform/sync.hpp"

namespace burn::cpu {

namespace {

/// The user-facing name of an index op (errors name the frontend function).
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

/// Calls f(I{}) with the host type of an integer index dtype.
template <class F>
void visit_index(DType d, F&& f) {
    switch (d) {
        case DType::i64:
            f(int64_t{});
            return;
        case DType::i32:
            f(int32_t{});
            return;
        case DType::i16:
            f(int16_t{});
            return;
        case DType::i8:
            f(int8_t{});
            return;
        case DType::u8:
            f(uint8_t{});
            return;
        default:
            break;
    }
    BURN_THROW_KIND(dtype, "[index] indices must be an integer tensor, got ", d);
}

template <class T>
const T* base_of(const CpuTensor& t) {
    return reinterpret_cast<const T*>(t.storage->data);
}
template <class T>
T* mut_base_of(const CpuTensor& t) {
    return reinterpret_cast<T*>(t.storage->data);
}

/// The first (lowest position) out-of-range index seen by any thread.
class BadIndex {
  public:
    void record(int64_t position, int64_t value) {
        platform::Lock lock(mutex_);
        if (!hit_.load(std::memory_order_relaxed) || position < position_) {
            position_ = position;
            value_ = value;
        }
        hit_.store(true, std::memory_order_release);
    }
    bool hit() const { return hit_.load(std::memory_order_acquire); }
    /// Throws IndexError when an index was recorded.
    void throw_if_hit(const char* op, int dim, int64_t size, const Dims& target) const {
        if (!hit()) return;
        BURN_THROW_KIND(index, "[", op, "] index ", value_, " is out of range for dim ", dim, " of size ",
                        size, " (tensor shape ", target, "); indices must lie in [0, ", size,
                        ") and negative indices are not supported");
    }

  private:
    platform::Mutex mutex_;
    std::atomic<bool> hit_{false};
    int64_t position_ = std::numeric_limits<int64_t>::max();
    int64_t value_ = 0;
};

/// An index operand: a (possibly strided, possibly stride-0) integer view over some storage.
struct IndexView {
    const CpuTensor* tensor;  // owner of the storage and dtype
    Dims strides;             // one per dim of the iteration space
    int64_t offset;
};

// ------------------------------------------------------------------ strided copy

/// dst[region] = src, where the region has src's shape, dst_strides and dst_offset inside dst's storage.
template <class T>
void copy_typed(const CpuTensor& src, const CpuTensor& dst, const Dims& dst_strides, int64_t dst_offset) {
    const T* s = base_of<T>(src);
    T* d = mut_base_of<T>(dst);
    strided_apply<2>(src.shape, {src.strides, dst_strides}, {src.offset, dst_offset}, kGrain,
                     [&](int64_t, const int64_t* off, const int64_t* st, int64_t n) {
                         const T* ps = s + off[0];
                         T* pd = d + off[1];
                         if (st[0] == 1 && st[1] == 1) {
                             std::memcpy(static_cast<void*>(pd), static_cast<const void*>(ps),
                                         static_cast<std::size_t>(n) * sizeof(T));
                         } else {
                             for (int64_t j = 0; j < n; ++j) pd[j * st[1]] = ps[j * st[0]];
                         }
                     });
}

// ------------------------------------------------------------------ gather core (gather, select)

/// o[p] = x[coords(p) with coords[dim] = index(p)] over the iteration shape (o is contiguous).
template <class T, class I>
void gather_typed(const Dims& shape, const IndexView& ix, const CpuTensor& x, int dim, T* o, BadIndex& bad) {
    const T* xb = base_of<T>(x);
    const I* ib = base_of<I>(*ix.tensor);
    Dims xs = x.strides;
    const int64_t sd = xs[dim];
    const int64_t n = x.shape[dim];
    xs[dim] = 0;
    strided_apply<2>(shape, {ix.strides, xs}, {ix.offset, x.offset}, kGrain,
                     [&](int64_t i, const int64_t* off, const int64_t* st, int64_t cnt) {
                         const I* pi = ib + off[0];
                         const T* px = xb + off[1];
                         for (int64_t j = 0; j < cnt; ++j) {
                             const int64_t v = static_cast<int64_t>(pi[j * st[0]]);
                             if (v < 0 || v >= n) {
                                 bad.record(i + j, v);
                                 o[i + j] = T{};
                                 continue;
                             }
                             o[i + j] = px[j * st[1] + v * sd];
                         }
                     });
}

TensorRef run_gather(const OpCall& call, const CpuTensor& x, const IndexView& ix, int dim) {
    auto out = alloc(call.shape, call.dtype, x.device);
    BadIndex bad;
    visit_kernel_dtype(x.dtype, user_name(call.op), [&](auto tag) {
        using T = decltype(tag);
        visit_index(ix.tensor->dtype, [&](auto itag) {
            gather_typed<T, decltype(itag)>(call.shape, ix, x, dim, out->data<T>(), bad);
        });
    });
    bad.throw_if_hit(user_name(call.op), dim, x.shape[dim], x.shape);
    return out;
}

TensorRefs gather_kernel(const OpCall& call, TensorRefs& in) {
    const CpuTensor& x = as_cpu(in[0]);
    const CpuTensor& indices = as_cpu(in[1]);
    const int dim = static_cast<int>(call.attrs<attrs::Dim>().dim);
    return {run_gather(call, x, IndexView{&indices, indices.strides, indices.offset}, dim)};
}

/// The 1-D indices of select/select_add seen as a tensor over shape's rank: walks `dim` only.
IndexView broadcast_index(const CpuTensor& indices, int rank, int dim) {
    Dims strides = Dims::filled(rank, 0);
    strides[dim] = indices.strides[0];
    return IndexView{&indices, strides, indices.offset};
}

TensorRefs select_kernel(const OpCall& call, TensorRefs& in) {
    const CpuTensor& x = as_cpu(in[0]);
    const CpuTensor& indices = as_cpu(in[1]);
    const int dim = static_cast<int>(call.attrs<attrs::Dim>().dim);
    return {run_gather(call, x, broadcast_index(indices, x.shape.rank(), dim), dim)};
}

// ------------------------------------------------------------------ scatter core (scatter_add, select_add)

/// How the scatter core combines: add (scatter_add, select_add) or a scatter_reduce mode.
constexpr int64_t kScatterAdd = -1;

/// The element dst combined with the value v under mode M (ints wrap like torch, without UB).
template <int64_t M, class T>
inline T scatter_combine(T dst, T v) {
    using C = compute_t<T>;
    if constexpr (M == attrs::ScatterReduce::assign) {
        return v;
    } else if constexpr (M == attrs::ScatterReduce::min) {
        return static_cast<T>(bm::min_nan(C(dst), C(v)));
    } else if constexpr (M == attrs::ScatterReduce::max) {
        return static_cast<T>(bm::max_nan(C(dst), C(v)));
    } else if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
        using U = std::make_unsigned_t<T>;
        if constexpr (M == attrs::ScatterReduce::mul)
            return static_cast<T>(static_cast<U>(static_cast<U>(dst) * static_cast<U>(v)));
        else
            return static_cast<T>(static_cast<U>(static_cast<U>(dst) + static_cast<U>(v)));
    } else if constexpr (M == attrs::ScatterReduce::mul) {
        return static_cast<T>(C(dst) * C(v));
    } else {
        return static_cast<T>(C(dst) + C(v));
    }
}

/// For every position p of `shape` (the indices' shape) in order along `dim`:
///   out[coords(p) with coords[dim] = index(p)] = combine(that element, values[p]).
/// Parallel over the positions off `dim` (which address disjoint rows of out), serial along `dim`,
/// so duplicate indices combine in a fixed order (the last assign wins).
template <int64_t M, class T, class I>
void scatter_typed(const Dims& shape, const IndexView& ix, const CpuTensor& values, CpuTensor& out, int dim,
                   BadIndex& bad) {
    const I* ib = base_of<I>(*ix.tensor);
    const T* vb = base_of<T>(values);
    T* ob = mut_base_of<T>(out);
    const int64_t steps = shape[dim];
    const int64_t n = out.shape[dim];
    Dims is = ix.strides, vs = values.strides, os = out.strides;
    const int64_t isd = is[dim], vsd = vs[dim], osd = os[dim];
    Dims cols = shape;
    cols[dim] = 1;
    if (steps == 0) return;
    const int64_t grain = std::max<int64_t>(1, kGrain / steps);
    // One accumulation: out[column j, index] += values[column j, step k].
    auto add_one = [&](int64_t i, const int64_t* off, const int64_t* st, int64_t j, int64_t k) {
        const int64_t v = static_cast<int64_t>(ib[off[0] + j * st[0] + k * isd]);
        if (v < 0 || v >= n) {
            bad.record((i + j) * steps + k, v);
            return;
        }
        T& dst = ob[off[2] + j * st[2] + v * osd];
        dst = scatter_combine<M, T>(dst, vb[off[1] + j * st[1] + k * vsd]);
    };
    // Either loop order combines into each target in increasing k; pick the one that walks the values
    // along their smaller stride (dim innermost when it is the faster-moving one, columns otherwise).
    strided_apply<3>(cols, {is, vs, os}, {ix.offset, values.offset, out.offset}, grain,
                     [&](int64_t i, const int64_t* off, const int64_t* st, int64_t cnt) {
                         if (std::abs(vsd) < std::abs(st[1])) {
                             for (int64_t j = 0; j < cnt; ++j)
                                 for (int64_t k = 0; k < steps; ++k) add_one(i, off, st, j, k);
                         } else {
                             for (int64_t k = 0; k < steps; ++k)
                                 for (int64_t j = 0; j < cnt; ++j) add_one(i, off, st, j, k);
                         }
                     });
}

template <int64_t M, OpKinds K>
TensorRef run_scatter(const OpCall& call, TensorRefs& in, const Dims& shape, const IndexView& ix, int dim) {
    auto out = Strided::copy_of_input0(call, in);
    const CpuTensor& values = as_cpu(in[2]);
    BadIndex bad;
    dispatch_kinds<K>(call.dtype, user_name(call.op), [&](auto tag) {
        using T = decltype(tag);
        visit_index(ix.tensor->dtype, [&](auto itag) {
            scatter_typed<M, T, decltype(itag)>(shape, ix, values, *out, dim, bad);
        });
    });
    bad.throw_if_hit(user_name(call.op), dim, out->shape[dim], out->shape);
    return out;
}

TensorRefs scatter_add_kernel(const OpCall& call, TensorRefs& in) {
    const int dim = static_cast<int>(call.attrs<attrs::Dim>().dim);
    const CpuTensor& ic = as_cpu(in[1]);
    return {run_scatter<kScatterAdd, OpKinds::numeric>(call, in, ic.shape,
                                                       IndexView{&ic, ic.strides, ic.offset}, dim)};
}

TensorRefs scatter_reduce_kernel(const OpCall& call, TensorRefs& in) {
    const auto a = call.attrs<attrs::ScatterReduce>();
    const int dim = static_cast<int>(a.dim);
    const CpuTensor& ic = as_cpu(in[1]);
    const IndexView ix{&ic, ic.strides, ic.offset};
    switch (a.mode) {
        case attrs::ScatterReduce::assign:
            return {run_scatter<attrs::ScatterReduce::assign, OpKinds::all>(call, in, ic.shape, ix, dim)};
        case attrs::ScatterReduce::mul:
            return {run_scatter<attrs::ScatterReduce::mul, OpKinds::numeric>(call, in, ic.shape, ix, dim)};
        case attrs::ScatterReduce::min:
            return {run_scatter<attrs::ScatterReduce::min, OpKinds::all>(call, in, ic.shape, ix, dim)};
        default:
            return {run_scatter<attrs::ScatterReduce::max, OpKinds::all>(call, in, ic.shape, ix, dim)};
    }
}

TensorRefs select_add_kernel(const OpCall& call, TensorRefs& in) {
    const int dim = static_cast<int>(call.attrs<attrs::Dim>().dim);
    const CpuTensor& ic = as_cpu(in[1]);
    const Dims shape = in[2]->shape;  // values: x's shape with dim = indices' length
    return {run_scatter<kScatterAdd, OpKinds::numeric>(call, in, shape,
                                                       broadcast_index(ic, shape.rank(), dim), dim)};
}

}  // namespace

void copy_region(const CpuTensor& src, const CpuTensor& dst, const Dims& dst_strides, int64_t dst_offset) {
    visit_kernel_dtype(src.dtype, "copy",
                       [&](auto tag) { copy_typed<decltype(tag)>(src, dst, dst_strides, dst_offset); });
}

void register_index(KernelTable& t) {
    t[idx(OpId::cat)] = &Strided::cat;
    t[idx(OpId::slice_assign)] = &Strided::slice_assign;
    t[idx(OpId::gather)] = &gather_kernel;
    t[idx(OpId::select)] = &select_kernel;
    t[idx(OpId::scatter_add)] = &scatter_add_kernel;
    t[idx(OpId::select_add)] = &select_add_kernel;
    t[idx(OpId::scatter_reduce)] = &scatter_reduce_kernel;
}

}  // namespace burn::cpu
