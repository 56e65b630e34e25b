// Frontend of the layout ops. Views (reshape, permute, expand, slice) are OpCalls like any other so
// decorators see them; the CPU backend implements them by editing strides.
#include "ops/common.hpp"
#include "ops/infer.hpp"

namespace burn::ops {

using namespace detail;

TensorAny reshape(TensorAny x, const Dims& new_shape) {
    check_defined(x, "reshape");
    Dims shape = new_shape;
    int infer = -1;
    int64_t known = 1;
    for (int i = 0; i < shape.rank(); ++i) {
        if (shape[i] == -1) {
            BURN_CHECK_KIND(infer < 0, shape, "[reshape] only one dimension may be -1, got ", new_shape);
            infer = i;
        } else {
            BURN_CHECK_KIND(shape[i] >= 0, shape, "[reshape] invalid dimension ", shape[i], " in ",
                            new_shape);
            BURN_CHECK_KIND(checked_mul(known, shape[i], known), shape, "[reshape] cannot reshape ",
                            x.shape(), " into ", new_shape, ": the element count overflows int64");
        }
    }
    if (infer >= 0) {
        BURN_CHECK_KIND(known != 0 && x.numel() % known == 0, shape, "[reshape] cannot reshape ", x.shape(),
                        " (", x.numel(), " elements) into ", new_shape);
        shape[infer] = x.numel() / known;
    }
    check_shape(shape, "reshape", size_of(x.dtype()));
    if (shape == x.shape()) return x;
    auto c = make(OpId::reshape, attrs::OutShape{shape}, metas(x));  // checks the element count
    return run1(c, take(std::move(x)));
}

TensorAny permute(TensorAny x, const Dims& axes) {
    check_defined(x, "permute");
    const int r = x.rank();
    BURN_CHECK_KIND(axes.rank() == r, shape, "[permute] ", axes.rank(), " axes given for a tensor of shape ",
                    x.shape());
    std::vector<int64_t> ax(static_cast<std::size_t>(r));
    std::vector<bool> seen(static_cast<std::size_t>(r), false);
    for (int i = 0; i < r; ++i) {
        int d = normalize_dim(axes[i], r, "permute");
        BURN_CHECK_KIND(!seen[d], shape, "[permute] axis ", d, " appears twice in ", axes,
                        " for a tensor of shape ", x.shape(), "; give each of the ", r, " axes exactly once");
        seen[d] = true;
        ax[i] = d;
    }
    bool identity = true;
    for (int i = 0; i < r; ++i) identity &= ax[i] == i;
    if (identity) return x;
    auto c = make(OpId::permute, attrs::Permute{std::move(ax)}, metas(x));
    return run1(c, take(std::move(x)));
}

TensorAny swap_dims(TensorAny x, int64_t a, int64_t b) {
    check_defined(x, "swap_dims");
    int r = x.rank();
    int da = normalize_dim(a, r, "swap_dims"), db = normalize_dim(b, r, "swap_dims");
    Dims axes = Dims::filled(r, 0);
    for (int i = 0; i < r; ++i) axes[i] = i;
    std::swap(axes[da], axes[db]);
    return permute(std::move(x), axes);
}

TensorAny expand(TensorAny x, const Dims& shape) {
    check_defined(x, "expand");
    BURN_CHECK_KIND(shape.rank() >= x.rank(), shape, "[expand] cannot expand ", x.shape(),
                    " to the lower rank ", shape);
    const int lead = shape.rank() - x.rank();
    Dims target = shape;
    for (int i = 0; i < shape.rank(); ++i) {
        if (i < lead) {
            BURN_CHECK_KIND(shape[i] >= 0, shape, "[expand] invalid target ", shape);
            continue;
        }
        int64_t have = x.shape()[i - lead];
        if (shape[i] == -1) target[i] = have;
        BURN_CHECK_KIND(target[i] >= 0, shape, "[expand] invalid target ", shape);
        BURN_CHECK_KIND(have == target[i] || have == 1, shape, "[expand] cannot expand ", x.shape(), " to ",
                        shape, ": dim ", i, " has size ", have, " (only size-1 dims can grow)");
    }
    // The target's element and byte counts: checked by dispatch (check_output) under this op's name.
    if (target == x.shape()) return x;
    auto c = make_prechecked(OpId::expand, attrs::OutShape{target}, x.dtype(), target, x);
    return run1(c, take(std::move(x)));
}

namespace {
/// Normalises slice arguments against x's shape into one range per dim.
attrs::Slice slice_ranges(const TensorAny& x, const std::vector<SliceArg>& args, const char* op) {
    const int r = x.rank();
    BURN_CHECK_KIND(static_cast<int>(args.size()) <= r, shape, "[", op, "] ", args.size(),
                    " ranges given for a tensor of shape ", x.shape());
    attrs::Slice out;
    out.ranges.reserve(static_cast<std::size_t>(r));
    for (int d = 0; d < r; ++d) {
        const int64_t n = x.shape()[d];
        SliceRange range{0, n, 1};
        if (d < static_cast<int>(args.size())) {
            const SliceArg& a = args[static_cast<std::size_t>(d)];
            BURN_CHECK(a.step != 0, "[", op, "] step must not be zero (dim ", d, ")");
            // n >= 0, so a negative value plus n cannot overflow.
            int64_t start = a.start < 0 ? a.start + n : a.start;
            int64_t end = a.end ? (*a.end < 0 ? *a.end + n : *a.end) : n;
            if (a.single) {
                BURN_CHECK_KIND(start >= 0 && start < n, index, "[", op, "] index ", a.start,
                                " is out of range for dim ", d, " of size ", n, " (shape ", x.shape(), ")");
                end = start + 1;
            }
            BURN_CHECK_KIND(start >= 0 && start <= n && end >= 0 && end <= n, index, "[", op, "] range ",
                            a.start, "..", (a.end ? std::to_string(*a.end) : std::string("end")),
                            " is out of bounds for dim ", d, " of size ", n, " (shape ", x.shape(), ")");
            range = SliceRange{start, end < start ? start : end, a.step};
            // At most one element: the step does not matter, and stride * step need not fit int64
            // (step INT64_MAX). Every backend gets a step of +-1 for it.
            if (range.length() <= 1 && (range.step > 1 || range.step < -1)) {
                if (range.length() == 1 && range.step < 0) range.start = range.end - 1;
                if (range.length() == 1 && range.step > 0) range.end = range.start + 1;
                range.step = range.step > 0 ? 1 : -1;
            }
        }
        out.ranges.push_back({range.start, range.end, range.step});
    }
    return out;
}
}  // namespace

TensorAny slice(TensorAny x, const std::vector<SliceArg>& ranges) {
    check_defined(x, "slice");
    attrs::Slice a = slice_ranges(x, ranges, "slice");
    bool identity = true;
    for (int d = 0; d < x.rank(); ++d) {
        const auto& g = a.ranges[static_cast<std::size_t>(d)];
        identity &= g.step == 1 && g.length() == x.shape()[d];
    }
    if (identity) return x;
    auto c = make(OpId::slice, a, metas(x));
    return run1(c, take(std::move(x)));
}

TensorAny slice_fill(TensorAny x, const std::vector<SliceArg>& ranges, double value) {
    check_defined(x, "slice_fill");
    Dims shape = slice(x, ranges).shape();
    TensorAny values = expand(full(Dims::filled(shape.rank(), 1), value, x.dtype(), x.device()), shape);
    return slice_assign(std::move(x), ranges, std::move(values));
}

TensorAny slice_assign(TensorAny x, const std::vector<SliceArg>& ranges, TensorAny values) {
    check_defined(x, "slice_assign");
    check_same_dtype(x, values, "slice_assign");
    auto c = make(OpId::slice_assign, slice_ranges(x, ranges, "slice_assign"), metas(x, values));
    return run1(c, take(std::move(x), std::move(values)));
}

TensorAny flip(TensorAny x, const Dims& axes) {
    check_defined(x, "flip");
    std::vector<SliceArg> args(static_cast<std::size_t>(x.rank()), SliceArg(burn::all));
    std::vector<bool> seen(static_cast<std::size_t>(x.rank()), false);
    for (int64_t a : axes) {
        int d = normalize_dim(a, x.rank(), "flip");
        BURN_CHECK_KIND(!seen[static_cast<std::size_t>(d)], shape, "[flip] axis ", d, " appears twice in ",
                        axes, " for a tensor of shape ", x.shape(),
                        "; list each axis once (flipping twice is no flip)");
        seen[static_cast<std::size_t>(d)] = true;
        args[static_cast<std::size_t>(d)] = SliceArg(0, std::nullopt, -1);
    }
    attrs::Slice a = slice_ranges(x, args, "flip");
    if (axes.rank() == 0) return x;
    auto c = make(OpId::slice, a, metas(x));
    return run1(c, take(std::move(x)));
}

TensorAny narrow(TensorAny x, int64_t dim, int64_t start, int64_t length) {
    check_defined(x, "narrow");
    int d = normalize_dim(dim, x.rank(), "narrow");
    int64_t n = x.shape()[d];
    int64_t s = start < 0 ? start + n : start;
    BURN_CHECK_KIND(s >= 0 && s <= n && length >= 0 && length <= n - s, index, "[narrow] start ", start,
                    " length ", length, " does not fit dim ", d, " of size ", n, " (shape ", x.shape(), ")");
    std::vector<SliceArg> args(static_cast<std::size_t>(x.rank()), SliceArg(burn::all));
    args[static_cast<std::size_t>(d)] = SliceArg(s, s + length);
    return slice(std::move(x), args);
}

TensorAny select_dim(TensorAny x, int64_t dim, int64_t index) {
    check_defined(x, "select_dim");
    const int d = normalize_dim(dim, x.rank(), "select_dim");
    const int64_t n = x.shape()[d];
    const int64_t i = index < 0 ? index + n : index;
    BURN_CHECK_KIND(i >= 0 && i < n, index, "[select_dim] index ", index, " is outside dim ", d, " of size ",
                    n, " (shape ", x.shape(), "); valid indices are ", -n, " to ", n - 1);
    return squeeze_dim(narrow(std::move(x), d, i, 1), d);
}

TensorAny iter_dim_item(TensorAny x, int64_t dim, int64_t index) {
    check_defined(x, "iter_dim");
    const int d = normalize_dim(dim, x.rank(), "iter_dim");
    const int64_t n = x.shape()[d];
    const int64_t i = index < 0 ? index + n : index;
    BURN_CHECK_KIND(i >= 0 && i < n, index, "[iter_dim] index ", index, " is outside dim ", d, " of size ", n,
                    " (shape ", x.shape(), "); valid indices are ", -n, " to ", n - 1);
    return narrow(std::move(x), d, i, 1);
}

TensorAny roll(TensorAny x, const Dims& shifts, const Dims& dims) {
    check_defined(x, "roll");
    BURN_CHECK_KIND(shifts.rank() == dims.rank(), shape, "[roll] ", shifts.rank(), " shift(s) ", shifts,
                    " for ", dims.rank(), " dim(s) ", dims, ": give one shift per dim");
    for (int i = 0; i < dims.rank(); ++i) {
        const int d = normalize_dim(dims[i], x.rank(), "roll");
        const int64_t n = x.shape()[d];
        if (n == 0) continue;
        const int64_t s = (shifts[i] % n + n) % n;  // in [0, n); |shifts[i] % n| < n, so no overflow
        if (s == 0) continue;
        // out = [x[n - s :], x[: n - s]] along d
        x = cat({narrow(x, d, n - s, s), narrow(x, d, 0, n - s)}, d);
    }
    return x;
}

std::vector<TensorAny> split(TensorAny x, int64_t split_size, int64_t dim) {
    check_defined(x, "split");
    int d = normalize_dim(dim, x.rank(), "split");
    BURN_CHECK(split_size > 0, "[split] split size must be positive, got ", split_size);
    std::vector<TensorAny> out;
    int64_t n = x.shape()[d];
    for (int64_t s = 0; s < n;) {  // s + split_size may overflow: step by what is left at most
        const int64_t len = std::min(split_size, n - s);
        out.push_back(narrow(x, d, s, len));
        s += len;
    }
    if (n == 0) out.push_back(x);
    return out;
}

std::vector<TensorAny> chunk(TensorAny x, int64_t chunks, int64_t dim) {
    check_defined(x, "chunk");
    int d = normalize_dim(dim, x.rank(), "chunk");
    BURN_CHECK(chunks > 0, "[chunk] number of chunks must be positive, got ", chunks);
    int64_t n = x.shape()[d];
    int64_t size = n / chunks + (n % chunks != 0);
    if (size == 0) size = 1;
    return split(std::move(x), size, d);
}

TensorAny unsqueeze_dim(TensorAny x, int64_t dim) {
    check_defined(x, "unsqueeze_dim");
    int d = normalize_dim(dim, x.rank() + 1, "unsqueeze_dim");
    Dims shape = x.shape();
    shape.insert(d, 1);
    return reshape(std::move(x), shape);
}

TensorAny squeeze_dim(TensorAny x, int64_t dim) {
    check_defined(x, "squeeze_dim");
    int d = normalize_dim(dim, x.rank(), "squeeze_dim");
    BURN_CHECK_KIND(x.shape()[d] == 1, shape, "[squeeze_dim] dim ", d, " of shape ", x.shape(), " has size ",
                    x.shape()[d], ", not 1");
    Dims shape = x.shape();
    shape.erase(d);
    return reshape(std::move(x), shape);
}

TensorAny flatten(TensorAny x, int64_t start_dim, int64_t end_dim) {
    check_defined(x, "flatten");
    int s = normalize_dim(start_dim, x.rank(), "flatten"), e = normalize_dim(end_dim, x.rank(), "flatten");
    BURN_CHECK_KIND(s <= e, shape, "[flatten] start dim ", s, " is after end dim ", e);
    Dims shape;
    for (int i = 0; i < s; ++i) shape.push_back(x.shape()[i]);
    int64_t m = 1;
    for (int i = s; i <= e; ++i) m *= x.shape()[i];
    shape.push_back(m);
    for (int i = e + 1; i < x.rank(); ++i) shape.push_back(x.shape()[i]);
    return reshape(std::move(x), shape);
}

TensorAny contiguous(TensorAny x) {
    check_defined(x, "contiguous");
    auto c = make(OpId::copy, attrs::None{}, metas(x));
    return run1(c, take(std::move(x)));
}

TensorAny repeat(TensorAny x, const std::vector<int64_t>& times) {
    check_defined(x, "repeat");
    BURN_CHECK_KIND(static_cast<int>(times.size()) == x.rank(), shape,
                    "[repeat] needs one count per dim: ", times.size(), " counts for ", describe(x),
                    "; use repeat_dim for a single dim");
    for (int d = 0; d < x.rank(); ++d)
        if (times[static_cast<std::size_t>(d)] != 1)
            x = repeat_dim(std::move(x), d, times[static_cast<std::size_t>(d)]);
    return x;
}

TensorAny take(TensorAny x, int64_t dim, TensorAny indices) {
    check_defined(x, "take");
    check_defined(indices, "take");
    const int d = normalize_dim(dim, x.rank(), "take");
    Dims out;
    for (int k = 0; k < d; ++k) out.push_back(x.shape()[k]);
    for (int64_t n : indices.shape()) out.push_back(n);
    for (int k = d + 1; k < x.rank(); ++k) out.push_back(x.shape()[k]);
    BURN_CHECK_KIND(out.rank() <= kMaxRank, shape, "[take] the result of ", describe(x), " taken at ",
                    describe(indices), " would have rank ", out.rank(), ", over ", kMaxRank);
    const int64_t n = indices.numel();
    return reshape(select(std::move(x), d, reshape(std::move(indices), Dims{n})), out);
}

TensorAny repeat_dim(TensorAny x, int64_t dim, int64_t times) {
    check_defined(x, "repeat_dim");
    int d = normalize_dim(dim, x.rank(), "repeat_dim");
    BURN_CHECK(times >= 0, "[repeat_dim] times must be non-negative, got ", times);
    // [.., n, ..] -> [.., 1, n, ..] -> expand [.., times, n, ..] -> reshape [.., times * n, ..]
    Dims shape = x.shape();
    Dims up = shape;
    up.insert(d, 1);
    Dims big = up;
    big[d] = times;
    Dims out = shape;
    out[d] = mul_size(shape[d], times, "repeat_dim", "the repeated size");
    check_shape(out, "repeat_dim", size_of(x.dtype()));
    return reshape(contiguous(expand(reshape(std::move(x), up), big)), out);
}

TensorAny stack(const std::vector<TensorAny>& xs, int64_t dim) {
    BURN_CHECK(!xs.empty(), "[stack] needs at least one tensor");
    int d = normalize_dim(dim, xs[0].rank() + 1, "stack");
    std::vector<TensorAny> ys;
    ys.reserve(xs.size());
    for (const auto& x : xs) {
        check_defined(x, "stack");
        BURN_CHECK_KIND(x.shape() == xs[0].shape(), shape,
                        "[stack] all tensors must have one shape: ", xs[0].shape(), " vs ", x.shape());
        ys.push_back(unsqueeze_dim(x, d));
    }
    return cat(ys, d);
}

namespace {
TensorAny triangle(TensorAny x, int64_t diagonal, bool lower, const char* op) {
    check_defined(x, op);
    BURN_CHECK_KIND(x.rank() >= 2, shape, "[", op, "] needs a tensor of rank >= 2, got ", x.shape());
    const int64_t rows = x.shape()[x.rank() - 2], cols = x.shape()[x.rank() - 1];
    auto r = unsqueeze_dim(arange(0, rows, 1, DType::i64, x.device()), 1);
    auto c = unsqueeze_dim(arange(0, cols, 1, DType::i64, x.device()), 0);
    // keep where c - r <= diagonal (lower) or c - r >= diagonal (upper)
    auto diff = sub(c, r);
    auto keep = lower ? lower_equal_elem(diff, static_cast<double>(diagonal))
                      : greater_equal_elem(diff, static_cast<double>(diagonal));
    Dims mshape = Dims::filled(x.rank(), 1);
    mshape[x.rank() - 2] = rows;
    mshape[x.rank() - 1] = cols;
    keep = reshape(std::move(keep), mshape);
    auto zero = full(Dims::filled(x.rank(), 1), 0.0, x.dtype(), x.device());
    return where(std::move(keep), std::move(x), std::move(zero));
}
}  // namespace

TensorAny tril(TensorAny x, int64_t diagonal) {
    return triangle(std::move(x), diagonal, true, "tril");
}
TensorAny triu(TensorAny x, int64_t diagonal) {
    return triangle(std::move(x), diagonal, false, "triu");
}

}  // namespace burn::ops

// ---- infer (burn/backend/op_attrs.hpp): the output metas of copy, reshape, permute, expand, slice,
// slice_assign

namespace burn::op_infer {

namespace {

/// The slice's shape: one normalised range per dim of x.
Dims slice_shape(const OpCall& c, const TensorMeta& x) {
    const auto ranges = c.attrs<attrs::Slice>().ranges;
    const int r = x.shape.rank();
    BURN_CHECK_KIND(static_cast<int>(ranges.size()) == r, shape, "[", c.op, "] ", ranges.size(),
                    " ranges given for a tensor of shape ", x.shape, "; the call needs one per dim");
    Dims shape = x.shape;
    for (int d = 0; d < r; ++d) {
        const attrs::Slice::Range& g = ranges[static_cast<std::size_t>(d)];
        const int64_t n = x.shape[d];
        BURN_CHECK(g.step != 0, "[", c.op, "] step must not be zero (dim ", d, ")");
        BURN_CHECK_KIND(g.start >= 0 && g.start <= g.end && g.end <= n, index, "[", c.op, "] range ", g.start,
                        "..", g.end, " is out of bounds for dim ", d, " of size ", n, " (shape ", x.shape,
                        "); the call's ranges are normalised to 0 <= start <= end <= size");
        shape[d] = g.length();
    }
    return shape;
}

}  // namespace

Outs infer_copy(const OpCall& c, Metas in) {
    check_arity(c, in, 1, 1);
    (void)c.attrs<attrs::None>();
    return {in[0]};
}

Outs infer_reshape(const OpCall& c, Metas in) {
    check_arity(c, in, 1, 1);
    const Dims& shape = c.attrs<attrs::OutShape>().shape;
    const TensorMeta& x = in[0];
    for (int64_t d : shape) BURN_CHECK_KIND(d >= 0, shape, "[reshape] invalid dimension ", d, " in ", shape);
    BURN_CHECK_KIND(shape.numel() == x.shape.numel(), shape, "[reshape] cannot reshape ", x.shape, " (",
                    x.shape.numel(), " elements) into ", shape, " (", shape.numel(), " elements)");
    return {{x.dtype, shape}};
}

Outs infer_permute(const OpCall& c, Metas in) {
    check_arity(c, in, 1, 1);
    const auto axes = c.attrs<attrs::Permute>().axes;
    const TensorMeta& x = in[0];
    const int r = x.shape.rank();
    BURN_CHECK_KIND(static_cast<int>(axes.size()) == r, shape, "[permute] ", axes.size(),
                    " axes given for a tensor of shape ", x.shape);
    bool seen[kMaxRank] = {};
    Dims shape = x.shape;
    for (int i = 0; i < r; ++i) {
        const int d = check_dim(c, axes[static_cast<std::size_t>(i)], r);
        BURN_CHECK_KIND(!seen[d], shape, "[permute] axis ", d, " repeated in the axes of a permute of ",
                        x.shape);
        seen[d] = true;
        shape[i] = x.shape[d];
    }
    return {{x.dtype, shape}};
}

Outs infer_expand(const OpCall& c, Metas in) {
    check_arity(c, in, 1, 1);
    const Dims& shape = c.attrs<attrs::OutShape>().shape;
    const TensorMeta& x = in[0];
    BURN_CHECK_KIND(shape.rank() >= x.shape.rank(), shape, "[expand] cannot expand ", x.shape,
                    " to the lower rank ", shape);
    const int lead = shape.rank() - x.shape.rank();
    for (int i = 0; i < shape.rank(); ++i) {
        BURN_CHECK_KIND(shape[i] >= 0, shape, "[expand] invalid target ", shape);
        if (i < lead) continue;
        const int64_t have = x.shape[i - lead];
        BURN_CHECK_KIND(have == shape[i] || have == 1, shape, "[expand] cannot expand ", x.shape, " to ",
                        shape, ": dim ", i, " has size ", have, " (only size-1 dims can grow)");
    }
    return {{x.dtype, shape}};
}

Outs infer_slice(const OpCall& c, Metas in) {
    check_arity(c, in, 1, 1);
    return {{in[0].dtype, slice_shape(c, in[0])}};
}

Outs infer_slice_assign(const OpCall& c, Metas in) {
    check_arity(c, in, 2, 2);
    const TensorMeta &x = in[0], &values = in[1];
    check_same_dtype(c, x, values);
    const Dims shape = slice_shape(c, x);
    BURN_CHECK_KIND(values.shape == shape, shape, "[slice_assign] values of shape ", values.shape,
                    " do not match the slice's shape ", shape, " (tensor ", x.shape, ")");
    return {x};
}

}  // namespace burn::op_infer
