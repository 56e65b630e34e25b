// CPU elementwise kernels, instantiated from elementwise.def: one strided kernel template per op
// class, with contiguous and scalar-broadcast fast paths that the compiler vectorises.
#include <algorithm>

#include "backends/common/functors.hpp"
#include "backends/cpu/kernels.hpp"
#include "backends/cpu/simd_act.hpp"

namespace burn::cpu {

namespace {

bool all_zero(const Dims& strides) {
    for (int64_t s : strides)
        if (s != 0) return false;
    return true;
}

template <class T>
const T* base(const CpuTensor& t) {
    return reinterpret_cast<const T*>(t.storage->data);
}

template <class Fn, class T>
void unary_typed(const OpCall& call, TensorRefs& in, std::shared_ptr<CpuTensor>& out) {
    using C = compute_t<T>;
    const CpuTensor& x = as_cpu(in[0]);
    const double p0 = call.scalars[0], p1 = call.scalars[1];
    T* o = out->template data<T>();
    Fn fn;
    if (x.is_contiguous()) {
        const T* a = x.template data<T>();
        platform::parallel_for(x.shape.numel(), kGrain, [&](int64_t b, int64_t e) {
            for (int64_t i = b; i < e; ++i) o[i] = T(fn(C(a[i]), p0, p1));
        });
    } else {
        const T* a = base<T>(x);
        strided_apply<1>(x.shape, {x.strides}, {x.offset}, kGrain,
                         [&](int64_t i, const int64_t* off, const int64_t* st, int64_t n) {
                             const T* pa = a + off[0];
                             if (st[0] == 1) {  // contiguous rows of a slice
                                 for (int64_t j = 0; j < n; ++j) o[i + j] = T(fn(C(pa[j]), p0, p1));
                             } else {
                                 for (int64_t j = 0; j < n; ++j) o[i + j] = T(fn(C(pa[j * st[0]]), p0, p1));
                             }
                         });
    }
}

template <class Fn, OpKinds K>
TensorRefs unary_kernel(const OpCall& call, TensorRefs& in) {
    auto out = reuse_or_alloc(in, {0}, call.shape, call.dtype);
    dispatch_kinds<K>(in[0]->dtype, op_name(call.op).data(),
                      [&](auto tag) { unary_typed<Fn, decltype(tag)>(call, in, out); });
    return {out};
}

template <class Fn, class T>
void pred_typed(TensorRefs& in, CpuTensor& out) {
    using C = compute_t<T>;
    const CpuTensor& x = as_cpu(in[0]);
    bool* o = out.data<bool>();
    Fn fn;
    const T* a = base<T>(x);
    strided_apply<1>(x.shape, {x.strides}, {x.offset}, kGrain,
                     [&](int64_t i, const int64_t* off, const int64_t* st, int64_t n) {
                         for (int64_t j = 0; j < n; ++j) o[i + j] = fn(C(a[off[0] + j * st[0]]));
                     });
}

template <class Fn, OpKinds K>
TensorRefs pred_kernel(const OpCall& call, TensorRefs& in) {
    auto out = alloc(call.shape, DType::boolean, in[0]->device);
    dispatch_kinds<K>(in[0]->dtype, op_name(call.op).data(),
                      [&](auto tag) { pred_typed<Fn, decltype(tag)>(in, *out); });
    return {out};
}

// Binary ops: out[i] = fn(a[i], b[i]) with inputs already expanded to the output shape.
template <class Fn, class T, class TOut>
void binary_typed(TensorRefs& in, CpuTensor& out) {
    using C = compute_t<T>;
    const CpuTensor& x = as_cpu(in[0]);
    const CpuTensor& y = as_cpu(in[1]);
    TOut* o = out.data<TOut>();
    Fn fn;
    const int64_t n = out.shape.numel();
    const bool xc = x.is_contiguous(), yc = y.is_contiguous();
    const bool xs = all_zero(x.strides), ys = all_zero(y.strides);
    if (xc && yc) {
        const T* a = x.data<T>();
        const T* b = y.data<T>();
        platform::parallel_for(n, kGrain, [&](int64_t s, int64_t e) {
            for (int64_t i = s; i < e; ++i) o[i] = TOut(fn(C(a[i]), C(b[i])));
        });
    } else if (xc && ys) {
        const T* a = x.data<T>();
        const C b = C(*y.data<T>());
        platform::parallel_for(n, kGrain, [&](int64_t s, int64_t e) {
            for (int64_t i = s; i < e; ++i) o[i] = TOut(fn(C(a[i]), b));
        });
    } else if (xs && yc) {
        const C a = C(*x.data<T>());
        const T* b = y.data<T>();
        platform::parallel_for(n, kGrain, [&](int64_t s, int64_t e) {
            for (int64_t i = s; i < e; ++i) o[i] = TOut(fn(a, C(b[i])));
        });
    } else {
        const T* a = base<T>(x);
        const T* b = base<T>(y);
        strided_apply<2>(out.shape, {x.strides, y.strides}, {x.offset, y.offset}, kGrain,
                         [&](int64_t i, const int64_t* off, const int64_t* st, int64_t cnt) {
                             const T* pa = a + off[0];
                             const T* pb = b + off[1];
                             if (st[0] == 1 && st[1] == 1) {  // e.g. [B, N] + [1, N] (a bias row)
                                 for (int64_t j = 0; j < cnt; ++j) o[i + j] = TOut(fn(C(pa[j]), C(pb[j])));
                             } else if (st[0] == 1 && st[1] == 0) {  // [B, N] + [B, 1]
                                 const C bv = C(*pb);
                                 for (int64_t j = 0; j < cnt; ++j) o[i + j] = TOut(fn(C(pa[j]), bv));
                             } else if (st[0] == 0 && st[1] == 1) {
                                 const C av = C(*pa);
                                 for (int64_t j = 0; j < cnt; ++j) o[i + j] = TOut(fn(av, C(pb[j])));
                             } else {
                                 for (int64_t j = 0; j < cnt; ++j)
                                     o[i + j] = TOut(fn(C(pa[j * st[0]]), C(pb[j * st[1]])));
                             }
                         });
    }
}

template <class Fn, OpKinds K>
TensorRefs binary_kernel(const OpCall& call, TensorRefs& in) {
    auto out = reuse_or_alloc(in, {0, 1}, call.shape, call.dtype);
    dispatch_kinds<K>(in[0]->dtype, op_name(call.op).data(), [&](auto tag) {
        using T = decltype(tag);
        binary_typed<Fn, T, T>(in, *out);
    });
    return {out};
}

template <class Fn, OpKinds K>
TensorRefs compare_kernel(const OpCall& call, TensorRefs& in) {
    auto out = alloc(call.shape, DType::boolean, in[0]->device);
    dispatch_kinds<K>(in[0]->dtype, op_name(call.op).data(),
                      [&](auto tag) { binary_typed<Fn, decltype(tag), bool>(in, *out); });
    return {out};
}

template <class Fn, class T>
void ternary_typed(TensorRefs& in, CpuTensor& out) {
    using C = compute_t<T>;
    const CpuTensor& c = as_cpu(in[0]);
    const CpuTensor& x = as_cpu(in[1]);
    const CpuTensor& y = as_cpu(in[2]);
    const bool* pc = base<bool>(c);
    const T* a = base<T>(x);
    const T* b = base<T>(y);
    T* o = out.data<T>();
    Fn fn;
    strided_apply<3>(
        out.shape, {c.strides, x.strides, y.strides}, {c.offset, x.offset, y.offset}, kGrain,
        [&](int64_t i, const int64_t* off, const int64_t* st, int64_t n) {
            for (int64_t j = 0; j < n; ++j)
                o[i + j] = T(fn(pc[off[0] + j * st[0]], C(a[off[1] + j * st[1]]), C(b[off[2] + j * st[2]])));
        });
}

template <class Fn, OpKinds K>
TensorRefs ternary_kernel(const OpCall& call, TensorRefs& in) {
    auto out = reuse_or_alloc(in, {1, 2}, call.shape, call.dtype);
    dispatch_kinds<K>(in[1]->dtype, op_name(call.op).data(),
                      [&](auto tag) { ternary_typed<Fn, decltype(tag)>(in, *out); });
    return {out};
}

// Cast and copy: out[i] = TOut(in[i]) for every pair of dtypes (bool: non-zero is true).
template <class TIn, class TOut>
void cast_typed(const CpuTensor& x, CpuTensor& out) {
    const TIn* a = base<TIn>(x);
    TOut* o = out.data<TOut>();
    strided_apply<1>(
        x.shape, {x.strides}, {x.offset}, kGrain,
        [&](int64_t i, const int64_t* off, const int64_t* st, int64_t n) {
            const TIn* p = a + off[0];
            for (int64_t j = 0; j < n; ++j) {
                if constexpr (std::is_same_v<TOut, bool>) {
                    o[i + j] = static_cast<float>(p[j * st[0]]) != 0.0f;
                } else if constexpr (std::is_same_v<TIn, TOut>) {
                    o[i + j] = p[j * st[0]];
                } else {
                    o[i + j] = TOut(static_cast<compute_t<TOut>>(static_cast<compute_t<TIn>>(p[j * st[0]])));
                }
            }
        });
}

// A copy of a view whose last two dims are transposed (column-major matrices: the gradient of a
// Linear weight, W^T views): 32 x 32 tiles, so both sides stay in L1 (the row-by-row walk of
// strided_apply reads a cache line per element). False when x is not such a view.
template <class T>
bool copy_transposed(const CpuTensor& x, CpuTensor& out) {
    const int r = x.shape.rank();
    if (r < 2) return false;
    const int64_t rows = x.shape[r - 2], cols = x.shape[r - 1], sc = x.strides[r - 1];
    if (x.strides[r - 2] != 1 || sc == 1 || rows < 16 || cols < 16) return false;
    constexpr int64_t B = 32;
    const int64_t mats = x.shape.numel() / (rows * cols), tiles = (rows + B - 1) / B;
    const T* a = base<T>(x);
    T* o = out.data<T>();
    auto tile = [&](int64_t t) {  // rows [i0, i1) of matrix t / tiles
        int64_t rem = t / tiles, off = x.offset;
        for (int d = r - 3; d >= 0; --d) {
            off += (rem % x.shape[d]) * x.strides[d];
            rem /= x.shape[d];
        }
        const T* src = a + off;
        T* dst = o + (t / tiles) * rows * cols;
        const int64_t i0 = (t % tiles) * B, i1 = std::min(rows, i0 + B);
        for (int64_t j0 = 0; j0 < cols; j0 += B) {
            const int64_t j1 = std::min(cols, j0 + B);
            for (int64_t i = i0; i < i1; ++i)
                for (int64_t j = j0; j < j1; ++j) dst[i * cols + j] = src[i + j * sc];
        }
    };
    const int64_t grain = std::max<int64_t>(1, kGrain / (B * cols));
    platform::parallel_for(mats * tiles, grain, [&](int64_t t0, int64_t t1) {
        for (int64_t t = t0; t < t1; ++t) tile(t);
    });
    return true;
}

TensorRefs cast_kernel(const OpCall& call, TensorRefs& in) {
    const CpuTensor& x = as_cpu(in[0]);
    auto out = alloc(call.shape, call.dtype, x.device);
    if (x.dtype == call.dtype && x.shape.numel() > 0) {
        bool done = false;
        visit_kernel_dtype(x.dtype, "cast",
                           [&](auto tag) { done = copy_transposed<decltype(tag)>(x, *out); });
        if (done) return {out};
    }
    visit_kernel_dtype(x.dtype, "cast", [&](auto tin) {
        visit_kernel_dtype(call.dtype, "cast",
                           [&](auto tout) { cast_typed<decltype(tin), decltype(tout)>(x, *out); });
    });
    return {out};
}

// gelu, gelu_backward and exp on contiguous f32: the vectorised kernels of simd_act.cpp (the scalar
// functors call erf/exp from libm per element); other dtypes and strided inputs take the generic path.
template <TensorRefs (*Generic)(const OpCall&, TensorRefs&), void (*Simd)(const float*, float*, int64_t)>
TensorRefs f32_simd_unary_kernel(const OpCall& call, TensorRefs& in) {
    if (in[0]->dtype != DType::f32 || !as_cpu(in[0]).is_contiguous()) return Generic(call, in);
    auto out = reuse_or_alloc(in, {0}, call.shape, call.dtype);
    const float* x = as_cpu(in[0]).data<float>();
    float* o = out->data<float>();
    platform::parallel_for(call.shape.numel(), kGrain,
                           [&](int64_t b, int64_t e) { Simd(x + b, o + b, e - b); });
    return {out};
}
constexpr auto gelu_kernel =
    &f32_simd_unary_kernel<&unary_kernel<fn::gelu_fn, OpKinds::float_only>, &simd::gelu>;
constexpr auto exp_kernel =
    &f32_simd_unary_kernel<&unary_kernel<fn::exp_fn, OpKinds::float_only>, &simd::exp>;
#if defined(__wasm_simd128__) && !defined(BURN_HAVE_HWY)
// relu on contiguous f32 in WebAssembly: simd_act.cpp's f32x4 loop. This file is compiled at -O1 in the
// page's module (BURN_KERNEL_OPT leaves it out, for size), where clang does not vectorise the generic
// loop: the MNIST convnet's three ReLUs took a fifth of its forward (docs/wasm.md).
constexpr auto relu_kernel =
    &f32_simd_unary_kernel<&unary_kernel<fn::relu_fn, kinds_of(BURN_KIND_N)>, &simd::relu>;
#endif

TensorRefs gelu_backward_kernel(const OpCall& call, TensorRefs& in) {
    if (in[0]->dtype != DType::f32 || !as_cpu(in[0]).is_contiguous() || !as_cpu(in[1]).is_contiguous())
        return binary_kernel<fn::gelu_backward_fn, OpKinds::float_only>(call, in);
    auto out = reuse_or_alloc(in, {0, 1}, call.shape, call.dtype);
    const float* x = as_cpu(in[0]).data<float>();
    const float* g = as_cpu(in[1]).data<float>();
    float* o = out->data<float>();
    platform::parallel_for(call.shape.numel(), kGrain,
                           [&](int64_t b, int64_t e) { simd::gelu_backward(x + b, g + b, o + b, e - b); });
    return {out};
}

// clamp on contiguous f32/f64 (ReLU6 is Clip in ONNX models): compare-and-select on the compute type,
// which vectorises; the generic functor converts the double bounds per element and tests isnan
// first. NaN stays NaN here too: both comparisons are false for it.
template <class T>
void clamp_contiguous(const T* x, T* o, int64_t n, double lo_d, double hi_d) {
    const T lo = T(lo_d), hi = T(hi_d);
    // By value: captured by reference, the bounds and pointers are reloaded after every store (o may
    // alias them) and the loop stays scalar, with branches.
    platform::parallel_for(n, kGrain, [x, o, lo, hi](int64_t b, int64_t e) {
        const T* __restrict xs = x;
        T* __restrict os = o;
        for (int64_t i = b; i < e; ++i) {
            const T v = xs[i];
            const T up = v < lo ? lo : v;  // NaN stays NaN: both comparisons are false for it
            os[i] = up > hi ? hi : up;
        }
    });
}

TensorRefs clamp_kernel(const OpCall& call, TensorRefs& in) {
    const DType dt = in[0]->dtype;
    if ((dt != DType::f32 && dt != DType::f64) || !as_cpu(in[0]).is_contiguous())
        return unary_kernel<fn::clamp_fn, kinds_of(BURN_KIND_N)>(call, in);
    auto out = reuse_or_alloc(in, {0}, call.shape, call.dtype);
    const CpuTensor& x = as_cpu(in[0]);
    if (dt == DType::f32)
        clamp_contiguous(x.data<float>(), out->data<float>(), x.shape.numel(), call.scalars[0],
                         call.scalars[1]);
    else
        clamp_contiguous(x.data<double>(), out->data<double>(), x.shape.numel(), call.scalars[0],
                         call.scalars[1]);
    return {out};
}

// Operands dense in one order that is not row-major (channels-last activations of the convolutions,
// dnnl_conv.cpp), and scalars broadcast to them: the rows below run on 1-D views of their buffers, and
// the output keeps that order, as PyTorch's elementwise ops keep a memory format. Every other case goes to
// the row's kernel as is.
KernelTable g_rows{};  // the elementwise rows' own kernels

/// One value broadcast to every position (a scalar operand: x * 2).
bool is_broadcast_scalar(const CpuTensor& t) {
    return all_zero(t.strides);
}

TensorRefs dense_layout(const OpCall& call, TensorRefs& in) {
    const Kernel row = g_rows[static_cast<std::size_t>(idx(call.op))];
    if (in.empty() || !in[0]) return row(call, in);
    const CpuTensor& x = as_cpu(in[0]);
    if (x.shape != call.shape || call.shape.numel() == 0) return row(call, in);
    if (x.is_contiguous()) {
        // a channels-last operand beside a row-major one: see "Mixed layouts" below
        for (std::size_t i = 1; i < in.size(); ++i)
            if (in[i] && in[i]->shape == x.shape && !as_cpu(in[i]).is_contiguous() &&
                as_cpu(in[i]).is_dense())
                in[i] = contiguous(in[i]);
        return row(call, in);
    }
    if (!x.is_dense()) return row(call, in);
    for (std::size_t i = 1; i < in.size(); ++i) {
        if (!in[i]) return row(call, in);
        const CpuTensor& t = as_cpu(in[i]);
        if (x.same_layout(t) || is_broadcast_scalar(t)) continue;
        // Mixed layouts (a training step's relu_backward: channels-last x, row-major g): the row-major
        // kernel on contiguous copies, much faster than strided loops that gather along the channels,
        // and a row-major result for the backward kernels that follow.
        if (t.is_contiguous() && t.shape == x.shape) {
            for (TensorRef& u : in)
                if (!as_cpu(u).is_contiguous() && !is_broadcast_scalar(as_cpu(u)) && as_cpu(u).is_dense())
                    u = contiguous(u);
        }
        return row(call, in);
    }
    const Dims shape = x.shape, strides = x.strides;
    const int64_t n = shape.numel();
    OpCall flat = call;
    flat.shape = Dims{n};
    TensorRefs views;
    views.reserve(in.size());
    for (TensorRef& t : in) {
        const CpuTensor& v = as_cpu(t);
        views.push_back(Strided::view_of(v, Dims{n}, Dims{is_broadcast_scalar(v) ? 0 : 1}, v.offset));
        t.reset();  // a buffer handed over stays reusable in place through its view
    }
    TensorRefs out = row(flat, views);
    const CpuTensor& y = as_cpu(out[0]);
    out[0] = Strided::view_of(y, shape, strides, y.offset);
    return out;
}

}  // namespace

void register_elementwise(KernelTable& t) {
    const KernelTable before = t;
#define BURN_UNARY(name, kinds, body, vjp, domain) \
    t[idx(OpId::name)] = &unary_kernel<fn::name##_fn, kinds_of(BURN_KIND_##kinds)>;
#define BURN_UNARY_PRED(name, kinds, body, domain) \
    t[idx(OpId::name)] = &pred_kernel<fn::name##_fn, kinds_of(BURN_KIND_##kinds)>;
#define BURN_BINARY(name, kinds, body, vjp_a, vjp_b, domain) \
    t[idx(OpId::name)] = &binary_kernel<fn::name##_fn, kinds_of(BURN_KIND_##kinds)>;
#define BURN_COMPARE(name, kinds, body, domain) \
    t[idx(OpId::name)] = &compare_kernel<fn::name##_fn, kinds_of(BURN_KIND_##kinds)>;
#define BURN_TERNARY(name, kinds, body, domain) \
    t[idx(OpId::name)] = &ternary_kernel<fn::name##_fn, kinds_of(BURN_KIND_##kinds)>;
#include "burn/backend/elementwise.def"
    t[idx(OpId::gelu)] = gelu_kernel;
    t[idx(OpId::clamp)] = &clamp_kernel;
    t[idx(OpId::exp)] = exp_kernel;
    t[idx(OpId::gelu_backward)] = &gelu_backward_kernel;
#if defined(__wasm_simd128__) && !defined(BURN_HAVE_HWY)
    t[idx(OpId::relu)] = relu_kernel;
#endif
    t[idx(OpId::cast)] = &cast_kernel;
    // every row above keeps a dense non-row-major layout (dense_layout)
    for (std::size_t i = 0; i < t.size(); ++i)
        if (t[i] && t[i] != before[i] && t[i] != &dense_layout) {
            g_rows[i] = t[i];
            t[i] = &dense_layout;
        }
    t[idx(OpId::copy)] = &Strided::copy;
}

}  // namespace burn::cpu
