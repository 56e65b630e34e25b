// Building blocks of the decompositions, each written with primitive rows only (decompose_prim.hpp).
#include "ops/decompose_prim.hpp"

#include <limits>

#include "burn/core/error.hpp"

namespace burn::ops::decomp {

namespace {

std::vector<SliceArg> all_of(const TensorAny& x) {
    return std::vector<SliceArg>(static_cast<std::size_t>(x.rank()), SliceArg(burn::all));
}

std::vector<SliceArg> strided_args(const TensorAny& x, const std::vector<int>& dims,
                                   const std::vector<int64_t>& start, const std::vector<int64_t>& count,
                                   const std::vector<int64_t>& step) {
    auto args = all_of(x);
    for (std::size_t i = 0; i < dims.size(); ++i) {
        const int64_t end = count[i] > 0 ? start[i] + step[i] * (count[i] - 1) + 1 : start[i];
        args[static_cast<std::size_t>(dims[i])] = SliceArg(start[i], end, step[i]);
    }
    return args;
}
}  // namespace

DType compute_dtype(DType dt) {
    return dt == DType::f16 || dt == DType::bf16 ? DType::f32 : dt;
}

TensorAny up(const TensorAny& x) {
    return cast(x, compute_dtype(x.dtype()));
}

TensorAny down(TensorAny y, DType dt) {
    return cast(std::move(y), dt);
}

TensorAny scalar(const TensorAny& like, double v) {
    return scalar(like, v, like.dtype());
}

TensorAny scalar(const TensorAny& like, double v, DType dt) {
    return full(Dims::filled(like.rank(), 1), v, dt, like.device());
}

TensorAny constant(const std::vector<double>& values, const Dims& shape, DType dt, const Device& device) {
    return from_data(TensorData(values, shape).convert(dt), device);
}

TensorAny along(const TensorAny& t, int r, int d) {
    Dims s = Dims::filled(r, 1);
    s[d] = t.numel();
    return reshape(t, s);
}

TensorAny negate(const TensorAny& x) {
    if (is_float(x.dtype())) return mul(x, scalar(x, -1));
    return sub(scalar(x, 0), x);
}

TensorAny absolute(const TensorAny& x) {
    // x + 0 turns -0 into +0 (the kernel's |x| of -0); negatives take -x.
    return where(less(x, scalar(x, 0)), negate(x), add(x, scalar(x, 0)));
}

TensorAny less(const TensorAny& a, const TensorAny& b) {
    return greater(b, a);
}

TensorAny greater_eq(const TensorAny& a, const TensorAny& b) {
    return where(greater(a, b), scalar(a, 1, DType::boolean), equal(a, b));
}

TensorAny logical_not(const TensorAny& b) {
    return equal(b, scalar(b, 0));
}

TensorAny nan_mask(const TensorAny& x) {
    return logical_not(equal(x, x));
}

TensorAny with_sign_of(const TensorAny& x, const TensorAny& r) {
    return where(less(x, scalar(x, 0)), negate(r), r);
}

TensorAny expm1_of(const TensorAny& x) {
    // (u - 1) * x / log(u) with u = exp(x) cancels the rounding of u (Kahan); the ends are exact.
    TensorAny u = exp(x);
    TensorAny r = mul(sub(u, scalar(x, 1)), div(x, log(u)));
    r = where(equal(u, scalar(x, 1)), x, r);
    r = where(equal(u, scalar(x, 0)), scalar(x, -1), r);
    return where(equal(u, scalar(x, kInf)), u, r);
}

TensorAny log1p_of(const TensorAny& x) {
    // log(u) * x / (u - 1) with u = 1 + x cancels the rounding of u (Kahan).
    TensorAny u = add(x, scalar(x, 1));
    TensorAny r = mul(log(u), div(x, sub(u, scalar(x, 1))));
    r = where(equal(u, scalar(x, 1)), x, r);
    return where(equal(u, scalar(x, kInf)), u, r);
}

TensorAny tanh_of(const TensorAny& x) {
    // tanh|x| = -t / (2 + t) with t = expm1(-2|x|) in [-1, 0]: no cancellation near 0, 1 at infinity.
    TensorAny t = expm1_of(mul(absolute(x), scalar(x, -2)));
    return with_sign_of(x, div(negate(t), add(t, scalar(x, 2))));
}

TensorAny softmax_of(const TensorAny& x, int dim, bool log) {
    if (x.numel() == 0) return full(x.shape(), 0.0, x.dtype(), x.device());
    TensorAny z = sub(x, max_dim_with_indices(x, dim).first);
    if (log) return sub(z, ops::log(sum_dim(exp(z), dim)));
    TensorAny e = exp(z);
    return mul(e, div(scalar(x, 1), sum_dim(e, dim)));
}

TensorAny pad(const TensorAny& x, int dim, int64_t before, int64_t after, double value) {
    if (before == 0 && after == 0) return x;
    std::vector<TensorAny> parts;
    Dims s = x.shape();
    if (before > 0) {
        s[dim] = before;
        parts.push_back(full(s, value, x.dtype(), x.device()));
    }
    parts.push_back(x);
    if (after > 0) {
        s[dim] = after;
        parts.push_back(full(s, value, x.dtype(), x.device()));
    }
    return cat(parts, dim);
}

TensorAny index_select(const TensorAny& x, int dim, const TensorAny& idx) {
    Dims s = x.shape();
    s[dim] = idx.numel();
    return gather(x, dim, expand(along(idx, x.rank(), dim), s));
}

TensorAny index_add(const TensorAny& x, int dim, const TensorAny& idx, const TensorAny& values) {
    return scatter(x, dim, expand(along(idx, x.rank(), dim), values.shape()), values);
}

TensorAny narrow_dim(const TensorAny& x, int dim, int64_t start, int64_t len) {
    auto args = all_of(x);
    args[static_cast<std::size_t>(dim)] = SliceArg(start, start + len);
    return slice(x, args);
}

TensorAny strided(const TensorAny& x, const std::vector<int>& dims, const std::vector<int64_t>& start,
                  const std::vector<int64_t>& count, const std::vector<int64_t>& step) {
    return slice(x, strided_args(x, dims, start, count, step));
}

TensorAny add_strided(const TensorAny& acc, const std::vector<int>& dims, const std::vector<int64_t>& start,
                      const std::vector<int64_t>& count, const std::vector<int64_t>& step,
                      const TensorAny& values) {
    auto args = strided_args(acc, dims, start, count, step);
    return slice_assign(acc, args, add(slice(acc, args), values));
}

}  // namespace burn::ops::decomp
