// ONNX shape and data-movement ops: Shape, Size, Reshape, Flatten, Transpose, Squeeze, Unsqueeze,
// Concat, Split, Slice, Gather, GatherElements, Expand, Tile, Pad, Constant, ConstantOfShape, Range,
// OneHot, Dropout (inference). Shape tensors are int64 and read on the host where an op needs them.
#include <algorithm>
#include <cmath>
#include <limits>

#include "onnx/op_util.hpp"

namespace burn::onnx::detail {

namespace {

using Outs = std::vector<TensorAny>;

TensorAny i64_vector(const OpContext& c, const std::vector<int64_t>& v) {
    return c.constant(TensorData(v, Dims{static_cast<int64_t>(v.size())}));
}

Outs shape(const OpContext& c) {
    const TensorAny& x = c.in(0);
    const int64_t r = x.rank();
    auto clampd = [r](int64_t a) { return std::clamp<int64_t>(a < 0 ? a + r : a, 0, r); };
    const int64_t start = clampd(c.attr_int("start", 0)), end = clampd(c.attr_int("end", r));
    std::vector<int64_t> dims;
    for (int64_t i = start; i < end; ++i) dims.push_back(x.shape()[static_cast<int>(i)]);
    return {i64_vector(c, dims)};
}

Outs reshape(const OpContext& c) {
    const TensorAny& x = c.in(0);
    std::vector<int64_t> want = c.opset() < 5 ? c.attr_ints("shape") : c.ints_of(1);
    const bool allowzero = c.attr_int("allowzero", 0) != 0;
    int infer = -1;
    int64_t known = 1;
    for (std::size_t i = 0; i < want.size(); ++i) {
        if (want[i] == 0 && !allowzero) {
            c.check(static_cast<int64_t>(i) < x.rank(), "shape ", Dims::from(want.data(), int(want.size())),
                    " copies dim ", i, " (a 0) but the input has rank ", x.rank());
            want[i] = x.shape()[static_cast<int>(i)];
        }
        if (want[i] == -1) {
            c.check(infer < 0, "the shape has more than one -1");
            infer = static_cast<int>(i);
        } else {
            c.check(want[i] >= 0, "the shape has a negative dim ", want[i]);
            known *= want[i];
        }
    }
    if (infer >= 0) {
        c.check(known > 0 && x.shape().numel() % known == 0, "cannot reshape ", x.shape(),
                " to a shape with -1 and ", known, " elements elsewhere");
        want[static_cast<std::size_t>(infer)] = x.shape().numel() / known;
    }
    return {ops::reshape(x, dims_of(want))};
}

Outs flatten(const OpContext& c) {
    return {as_2d(c, c.in(0), c.attr_int("axis", 1))};
}

Outs transpose(const OpContext& c) {
    const TensorAny& x = c.in(0);
    std::vector<int64_t> perm = c.attr_ints("perm");
    if (perm.empty())
        for (int64_t i = x.rank() - 1; i >= 0; --i) perm.push_back(i);
    c.check(static_cast<int64_t>(perm.size()) == x.rank(), "perm has ", perm.size(), " entries for rank ",
            x.rank());
    return {ops::permute(x, dims_of(perm))};
}

std::vector<int64_t> axes_of(const OpContext& c, std::size_t input) {
    if (c.opset() >= 13) return c.has(input) ? c.ints_of(input) : std::vector<int64_t>{};
    return c.attr_ints("axes");
}

Outs squeeze(const OpContext& c) {
    TensorAny x = c.in(0);
    std::vector<int64_t> axes = axes_of(c, 1);
    std::vector<bool> drop(static_cast<std::size_t>(x.rank()), false);
    if (axes.empty()) {
        for (int i = 0; i < x.rank(); ++i) drop[static_cast<std::size_t>(i)] = x.shape()[i] == 1;
    } else {
        for (int64_t a : axes) {
            const int64_t d = c.axis(a, x.rank());
            c.check(x.shape()[static_cast<int>(d)] == 1, "cannot squeeze dim ", d, " of shape ", x.shape(),
                    ": its size is not 1");
            drop[static_cast<std::size_t>(d)] = true;
        }
    }
    std::vector<int64_t> keep;
    for (int i = 0; i < x.rank(); ++i)
        if (!drop[static_cast<std::size_t>(i)]) keep.push_back(x.shape()[i]);
    return {ops::reshape(x, dims_of(keep))};
}

Outs unsqueeze(const OpContext& c) {
    TensorAny x = c.in(0);
    std::vector<int64_t> axes = axes_of(c, 1);
    c.check(!axes.empty(), "needs axes");
    const int64_t r = x.rank() + static_cast<int64_t>(axes.size());
    std::vector<bool> added(static_cast<std::size_t>(r), false);
    for (int64_t a : axes) {
        const int64_t d = c.axis(a, r);
        c.check(!added[static_cast<std::size_t>(d)], "axis ", a, " appears twice");
        added[static_cast<std::size_t>(d)] = true;
    }
    std::vector<int64_t> shape;
    int src = 0;
    for (int64_t i = 0; i < r; ++i)
        shape.push_back(added[static_cast<std::size_t>(i)] ? 1 : x.shape()[src++]);
    return {ops::reshape(x, dims_of(shape))};
}

Outs concat(const OpContext& c) {
    std::vector<TensorAny> xs;
    for (std::size_t i = 0; i < c.num_inputs(); ++i)
        if (c.has(i)) xs.push_back(c.in(i));
    c.check(!xs.empty(), "needs at least one input");
    const int64_t axis = c.axis(c.attr_int("axis"), xs[0].rank());
    return {ops::cat(xs, axis)};
}

Outs split(const OpContext& c) {
    const TensorAny& x = c.in(0);
    const int64_t axis = c.axis(c.attr_int("axis", 0), x.rank());
    const int64_t n = x.shape()[static_cast<int>(axis)];
    std::vector<int64_t> sizes =
        c.opset() >= 13 ? (c.has(1) ? c.ints_of(1) : std::vector<int64_t>{}) : c.attr_ints("split");
    const auto outputs = static_cast<int64_t>(c.node().outputs.size());
    if (sizes.empty()) {
        const int64_t parts = c.has_attr("num_outputs") ? c.attr_int("num_outputs") : outputs;
        c.check(parts > 0, "needs at least one output");
        const int64_t each = (n + parts - 1) / parts;
        for (int64_t i = 0; i < parts; ++i)
            sizes.push_back(std::max<int64_t>(0, std::min(each, n - i * each)));
    }
    int64_t total = 0;
    for (int64_t s : sizes) total += s;
    c.check(total == n, "split sizes sum to ", total, " but dim ", axis, " of ", x.shape(), " has ", n);
    Outs out;
    int64_t at = 0;
    for (int64_t s : sizes) {
        out.push_back(ops::narrow(x, axis, at, s));
        at += s;
    }
    return out;
}

Outs slice(const OpContext& c) {
    const TensorAny& x = c.in(0);
    std::vector<int64_t> starts, ends, axes, steps;
    if (c.opset() < 10) {
        starts = c.attr_ints("starts");
        ends = c.attr_ints("ends");
        axes = c.attr_ints("axes");
    } else {
        starts = c.ints_of(1);
        ends = c.ints_of(2);
        if (c.has(3)) axes = c.ints_of(3);
        if (c.has(4)) steps = c.ints_of(4);
    }
    c.check(starts.size() == ends.size(), "starts and ends differ in length");
    if (axes.empty())
        for (std::size_t i = 0; i < starts.size(); ++i) axes.push_back(static_cast<int64_t>(i));
    if (steps.empty()) steps.assign(starts.size(), 1);
    c.check(axes.size() == starts.size() && steps.size() == starts.size(),
            "starts, ends, axes and steps differ in length");
    std::vector<SliceArg> ranges(static_cast<std::size_t>(x.rank()), SliceArg(all));
    for (std::size_t i = 0; i < starts.size(); ++i) {
        const int64_t d = c.axis(axes[i], x.rank()), n = x.shape()[static_cast<int>(d)], step = steps[i];
        c.check(step != 0, "step 0 on axis ", d);
        auto norm = [n](int64_t v, int64_t lo, int64_t hi) {
            return std::clamp<int64_t>(v < 0 ? v + n : v, lo, hi);
        };
        int64_t s = 0, e = 0;
        if (step > 0) {
            s = norm(starts[i], 0, n);
            e = norm(ends[i], 0, n);
            if (e < s) e = s;
            ranges[static_cast<std::size_t>(d)] = SliceArg(s, e, step);
        } else {
            s = norm(starts[i], -1, n - 1);
            e = ends[i] < -n ? -1 : norm(ends[i], -1, n - 1);
            // burn steps backwards from end - 1 within [start, end): convert (s down to e exclusive).
            if (s <= e)
                ranges[static_cast<std::size_t>(d)] = SliceArg(0, int64_t(0), 1);
            else
                ranges[static_cast<std::size_t>(d)] = SliceArg(e + 1, s + 1, step);
        }
    }
    return {ops::slice(x, ranges)};
}

Outs gather(const OpContext& c) {
    const TensorAny& x = c.in(0);
    TensorAny idx = c.in(1);
    c.check(!is_float(idx.dtype()), "indices must be integers, got ", idx.dtype());
    const int64_t axis = c.axis(c.attr_int("axis", 0), x.rank());
    const int64_t n = x.shape()[static_cast<int>(axis)];
    idx = ops::cast(idx, DType::i64);
    idx = ops::where(ops::lower_elem(idx, 0), ops::add_scalar(idx, static_cast<double>(n)), idx);  // negative
    const Dims ishape = idx.shape();
    TensorAny flat = ops::reshape(idx, Dims{ishape.numel()});
    TensorAny picked = ops::select(x, axis, flat);
    std::vector<int64_t> out;
    for (int i = 0; i < axis; ++i) out.push_back(x.shape()[i]);
    for (int64_t v : ishape) out.push_back(v);
    for (int i = static_cast<int>(axis) + 1; i < x.rank(); ++i) out.push_back(x.shape()[i]);
    return {ops::reshape(picked, dims_of(out))};
}

Outs gather_elements(const OpContext& c) {
    const TensorAny& x = c.in(0);
    const int64_t axis = c.axis(c.attr_int("axis", 0), x.rank());
    TensorAny idx = ops::cast(c.in(1), DType::i64);
    const double n = static_cast<double>(x.shape()[static_cast<int>(axis)]);
    idx = ops::where(ops::lower_elem(idx, 0), ops::add_scalar(idx, n), idx);
    return {ops::gather(x, axis, idx)};
}

Outs expand(const OpContext& c) {
    const std::vector<int64_t> want = c.ints_of(1);
    TensorAny x = c.in(0);
    const int64_t r = std::max<int64_t>(x.rank(), static_cast<int64_t>(want.size()));
    x = to_rank(x, r);
    std::vector<int64_t> shape(static_cast<std::size_t>(r));
    const int64_t lead = r - static_cast<int64_t>(want.size());
    for (int64_t i = 0; i < r; ++i) {
        const int64_t have = x.shape()[static_cast<int>(i)],
                      w = i < lead ? 1 : want[static_cast<std::size_t>(i - lead)];
        c.check(have == w || have == 1 || w == 1, "cannot expand ", c.in(0).shape(), " to ",
                Dims::from(want.data(), int(want.size())));
        shape[static_cast<std::size_t>(i)] = have == 1 ? w : have;
    }
    return {ops::expand(x, dims_of(shape))};
}

Outs tile(const OpContext& c) {
    TensorAny x = c.in(0);
    const std::vector<int64_t> reps = c.ints_of(1);
    c.check(static_cast<int64_t>(reps.size()) == x.rank(), "repeats has ", reps.size(), " entries for rank ",
            x.rank());
    for (std::size_t d = 0; d < reps.size(); ++d) {
        c.check(reps[d] >= 0, "negative repeat ", reps[d]);
        if (reps[d] != 1) x = ops::repeat_dim(x, static_cast<int64_t>(d), reps[d]);
    }
    return {x};
}

Outs constant(const OpContext& c) {
    if (c.has_attr("value")) return {c.constant(c.attr_tensor("value"))};
    if (c.has_attr("value_float"))
        return {c.constant(TensorData(std::vector<float>{float(c.attr_float("value_float", 0))}, Dims{}))};
    if (c.has_attr("value_int"))
        return {c.constant(TensorData(std::vector<int64_t>{c.attr_int("value_int")}, Dims{}))};
    if (c.has_attr("value_floats")) {
        std::vector<float> v;
        for (double f : c.attr_floats("value_floats")) v.push_back(static_cast<float>(f));
        return {c.constant(TensorData(v))};
    }
    if (c.has_attr("value_ints")) return {c.constant(TensorData(c.attr_ints("value_ints")))};
    c.fail("has no value attribute this importer reads (value, value_float(s), value_int(s))");
}

Outs constant_of_shape(const OpContext& c) {
    const std::vector<int64_t> shape = c.ints_of(0);
    for (int64_t d : shape) c.check(d >= 0, "negative dim ", d, " in the shape");
    if (!c.has_attr("value")) return {ops::full(dims_of(shape), 0, DType::f32, c.device())};
    const TensorData& v = c.attr_tensor("value");
    c.check(v.numel() == 1, "value must hold one element");
    return {ops::full(dims_of(shape), v.value_as_double(0), v.dtype(), c.device())};
}

Outs range(const OpContext& c) {
    const TensorAny& s = c.in(0);
    const double start = c.doubles_of(0).at(0), limit = c.doubles_of(1).at(0), delta = c.doubles_of(2).at(0);
    c.check(delta != 0, "delta is 0");
    const double n = std::max(0.0, std::ceil((limit - start) / delta));
    c.check(n < 1e12, "the range has ", n, " elements");
    TensorAny i = ops::arange(0, static_cast<int64_t>(n), 1, DType::f64, c.device());
    return {ops::cast(ops::add_scalar(ops::mul_scalar(i, delta), start), s.dtype())};
}

Outs pad(const OpContext& c) {
    const TensorAny& x = c.in(0);
    const std::string mode = c.attr_string("mode", "constant");
    std::vector<int64_t> pads = c.opset() < 11 ? c.attr_ints("pads") : c.ints_of(1);
    double value = c.opset() < 11 ? c.attr_float("value", 0) : (c.has(2) ? c.doubles_of(2).at(0) : 0);
    std::vector<int64_t> axes;
    if (c.opset() >= 18 && c.has(3)) axes = c.ints_of(3);
    if (axes.empty())
        for (int64_t i = 0; i < x.rank(); ++i) axes.push_back(i);
    c.check(pads.size() == 2 * axes.size(), "pads has ", pads.size(), " entries for ", axes.size(), " axes");
    TensorAny y = x;
    for (std::size_t k = 0; k < axes.size(); ++k) {
        const int64_t d = c.axis(axes[k], x.rank());
        const int64_t before = pads[k], after = pads[k + axes.size()];
        // negative pads crop
        if (before < 0 || after < 0) {
            const int64_t n = y.shape()[static_cast<int>(d)];
            const int64_t b = std::max<int64_t>(0, -before), a = std::max<int64_t>(0, -after);
            c.check(b + a <= n, "pads crop more than dim ", d, " holds");
            y = ops::narrow(y, d, b, n - b - a);
        }
        const int64_t pb = std::max<int64_t>(0, before), pa = std::max<int64_t>(0, after);
        if (!pb && !pa) continue;
        const int64_t n = y.shape()[static_cast<int>(d)];
        std::vector<TensorAny> parts;
        auto side = [&](int64_t count, bool front) {
            if (!count) return;
            if (mode == "constant") {
                Dims s = y.shape();
                s[static_cast<int>(d)] = count;
                parts.push_back(ops::full(s, value, y.dtype(), y.device()));
            } else if (mode == "edge") {
                c.check(n > 0, "edge padding of an empty dim");
                parts.push_back(ops::repeat_dim(ops::narrow(y, d, front ? 0 : n - 1, 1), d, count));
            } else if (mode == "reflect") {
                c.check(count < n, "reflect padding of ", count, " needs a dim larger than ", count, ", got ",
                        n);
                TensorAny r = front ? ops::narrow(y, d, 1, count) : ops::narrow(y, d, n - 1 - count, count);
                parts.push_back(ops::flip(r, Dims{d}));
            } else {
                c.fail("mode '", mode, "' is not supported (constant, edge, reflect)");
            }
        };
        side(pb, true);
        parts.push_back(y);
        side(pa, false);
        y = ops::cat(parts, d);
    }
    return {y};
}

Outs one_hot(const OpContext& c) {
    TensorAny idx = ops::cast(c.in(0), DType::i64);
    const int64_t depth = static_cast<int64_t>(c.doubles_of(1).at(0));
    const TensorAny& values = c.in(2);
    c.check(values.shape().numel() == 2, "values must hold [off, on]");
    const int64_t r = idx.rank() + 1;
    const int64_t axis = c.axis(c.attr_int("axis", -1), r);
    idx = ops::where(ops::lower_elem(idx, 0), ops::add_scalar(idx, static_cast<double>(depth)), idx);
    TensorAny classes = ops::arange(0, depth, 1, DType::i64, c.device());
    Dims cs = Dims::filled(static_cast<int>(r), 1);
    cs[static_cast<int>(axis)] = depth;
    TensorAny hit = ops::equal(to_rank(ops::unsqueeze_dim(idx, axis), r), ops::reshape(classes, cs));
    TensorAny off =
        ops::reshape(ops::narrow(ops::reshape(values, Dims{2}), 0, 0, 1), Dims::filled(int(r), 1));
    TensorAny on = ops::reshape(ops::narrow(ops::reshape(values, Dims{2}), 0, 1, 1), Dims::filled(int(r), 1));
    return {ops::where(hit, on, off)};
}

Outs dropout(const OpContext& c) {
    Outs out{c.in(0)};
    if (c.node().outputs.size() > 1) out.push_back(ops::full(c.in(0).shape(), 1, DType::boolean, c.device()));
    return out;
}

}  // namespace

void add_shape_ops(OpTable& t) {
    t.add("Shape", 1, shape);
    t.add("Size", 1, [](const OpContext& c) -> Outs {
        return {c.constant(TensorData(std::vector<int64_t>{c.in(0).shape().numel()}, Dims{}))};
    });
    t.add("Reshape", 1, reshape);
    t.add("Flatten", 1, flatten);
    t.add("Transpose", 1, transpose);
    t.add("Squeeze", 1, squeeze);
    t.add("Unsqueeze", 1, unsqueeze);
    t.add("Concat", 1, concat);
    t.add("Split", 1, split);
    t.add("Slice", 1, slice);
    t.add("Gather", 1, gather);
    t.add("GatherElements", 11, gather_elements);
    t.add("Expand", 8, expand);
    t.add("Tile", 6, tile);
    t.add("Pad", 2, pad);
    t.add("Constant", 1, constant);
    t.add("ConstantOfShape", 9, constant_of_shape);
    t.add("Range", 11, range);
    t.add("OneHot", 9, one_hot);
    t.add("Dropout", 1, dropout);
}

}  // namespace burn::onnx::detail
