// ONNX reordering and set ops: ReverseSequence (opset 10) and Unique (opset 11).
// ReverseSequence gathers along the time axis with indices built on the device; it reads
// sequence_lens on the host only to check them. Unique finds its groups on the host (its output shape
// depends on the data): the input is read once (floats as f64, integers and bools as i64, so every
// value compares exactly), and Y is then selected from the input on the device.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "onnx/op_util.hpp"

namespace burn::onnx::detail {

namespace {

using Outs = std::vector<TensorAny>;

Outs reverse_sequence(const OpContext& c) {
    const TensorAny& x = c.in(0);
    const TensorAny& lens = c.in(1);
    c.check(x.rank() >= 2, "input must have rank >= 2, got ", x.shape());
    const int64_t batch_axis = c.attr_int("batch_axis", 1), time_axis = c.attr_int("time_axis", 0);
    c.check(
        (batch_axis == 0 || batch_axis == 1) && (time_axis == 0 || time_axis == 1) && batch_axis != time_axis,
        "batch_axis (", batch_axis, ") and time_axis (", time_axis, ") must be 0 and 1 or 1 and 0");
    const int64_t nb = x.shape()[static_cast<int>(batch_axis)], nt = x.shape()[static_cast<int>(time_axis)];
    c.check(lens.rank() == 1 && lens.shape()[0] == nb, "sequence_lens must be 1-D of the batch size ", nb,
            " (input ", x.shape(), ", batch_axis ", batch_axis, "), got ", lens.shape());
    for (int64_t n : c.ints_of(1))
        c.check(n >= 0 && n <= nt, "sequence_lens holds ", n, ", outside [0, ", nt, "] (the time axis of ",
                x.shape(), ")");
    // src[t, b] = len[b] - 1 - t where t < len[b], else t, laid out in x's first two dims.
    Dims tshape = Dims::filled(x.rank(), 1), bshape = Dims::filled(x.rank(), 1);
    tshape[static_cast<int>(time_axis)] = nt;
    bshape[static_cast<int>(batch_axis)] = nb;
    const TensorAny t = ops::reshape(ops::arange(0, nt, 1, DType::i64, c.device()), tshape);
    const TensorAny n = ops::reshape(ops::cast(lens, DType::i64), bshape);
    Dims both = Dims::filled(x.rank(), 1);
    both[static_cast<int>(time_axis)] = nt;
    both[static_cast<int>(batch_axis)] = nb;
    const TensorAny tt = ops::expand(t, both), nn = ops::expand(n, both);
    const TensorAny src = ops::where(ops::lower(tt, nn), ops::sub(ops::sub_scalar(nn, 1), tt), tt);
    return {ops::gather(x, time_axis, ops::contiguous(ops::expand(src, x.shape())))};
}

/// Unique's groups: the rows of keys [outer, n, inner] along the middle dim (row i is the values
/// keys[o, i, k] in (o, k) order, numpy's order after moving the axis to the front).
struct UniqueGroups {
    std::vector<int64_t> first, inverse, counts;  // per unique row, per input row, per unique row
};

template <class K>
bool uq_less(K a, K b) {
    if constexpr (std::is_floating_point_v<K>) {
        if (std::isnan(a) || std::isnan(b)) return !std::isnan(a) && std::isnan(b);  // NaN last
    }
    return a < b;
}

template <class K>
UniqueGroups uq_groups(const std::vector<K>& keys, int64_t outer, int64_t n, int64_t inner, bool sorted) {
    auto at = [&](int64_t o, int64_t i, int64_t k) {
        return keys[static_cast<std::size_t>((o * n + i) * inner + k)];
    };
    auto cmp = [&](int64_t i, int64_t j) {  // -1, 0, 1: row i against row j
        for (int64_t o = 0; o < outer; ++o)
            for (int64_t k = 0; k < inner; ++k) {
                const K a = at(o, i, k), b = at(o, j, k);
                if (uq_less(a, b)) return -1;
                if (uq_less(b, a)) return 1;
            }
        return 0;
    };
    std::vector<int64_t> order(static_cast<std::size_t>(n));
    std::iota(order.begin(), order.end(), int64_t{0});
    std::stable_sort(order.begin(), order.end(), [&](int64_t i, int64_t j) { return cmp(i, j) < 0; });
    UniqueGroups g;
    g.inverse.assign(static_cast<std::size_t>(n), 0);
    for (std::size_t s = 0; s < order.size(); ++s) {
        if (s == 0 || cmp(order[s - 1], order[s]) != 0) {
            g.first.push_back(order[s]);  // stable: the first occurrence leads its group
            g.counts.push_back(0);
        }
        g.inverse[static_cast<std::size_t>(order[s])] = static_cast<int64_t>(g.first.size()) - 1;
        ++g.counts.back();
    }
    if (!sorted) {  // groups in the order of their first occurrence
        std::vector<int64_t> by_first(g.first.size()), rank(g.first.size());
        std::iota(by_first.begin(), by_first.end(), int64_t{0});
        std::sort(by_first.begin(), by_first.end(), [&](int64_t a, int64_t b) {
            return g.first[static_cast<std::size_t>(a)] < g.first[static_cast<std::size_t>(b)];
        });
        UniqueGroups u;
        for (std::size_t r = 0; r < by_first.size(); ++r) {
            const auto old = static_cast<std::size_t>(by_first[r]);
            rank[old] = static_cast<int64_t>(r);
            u.first.push_back(g.first[old]);
            u.counts.push_back(g.counts[old]);
        }
        for (int64_t& v : g.inverse) v = rank[static_cast<std::size_t>(v)];
        u.inverse = std::move(g.inverse);
        return u;
    }
    return g;
}

Outs unique(const OpContext& c) {
    TensorAny x = c.in(0);
    const bool sorted = c.attr_int("sorted", 1) != 0;
    if (!c.has_attr("axis")) x = ops::reshape(x, Dims{x.shape().numel()});
    const int64_t axis = c.has_attr("axis") ? c.axis(c.attr_int("axis"), x.rank()) : 0;
    c.check(x.rank() >= 1, "X must have rank >= 1 when 'axis' is given, got ", x.shape());
    const int ax = static_cast<int>(axis);
    const int64_t n = x.shape()[ax];
    int64_t outer = 1, inner = 1;
    for (int i = 0; i < x.rank(); ++i)
        if (i != ax) (i < ax ? outer : inner) *= x.shape()[i];
    UniqueGroups g;
    if (is_float(x.dtype()))
        g = uq_groups(ops::into_data(ops::cast(x, DType::f64)).to_vec<double>(), outer, n, inner, sorted);
    else
        g = uq_groups(ops::into_data(ops::cast(x, DType::i64)).to_vec<int64_t>(), outer, n, inner, sorted);
    const TensorAny y =
        g.first.empty() ? ops::narrow(x, axis, 0, 0) : ops::select(x, axis, c.constant(TensorData(g.first)));
    return {y, c.constant(TensorData(g.first)), c.constant(TensorData(g.inverse)),
            c.constant(TensorData(g.counts))};
}

}  // namespace

void add_reorder_ops(OpTable& t) {
    t.add("ReverseSequence", 10, reverse_sequence);
    t.add("Unique", 11, unique);
}

}  // namespace burn::onnx::detail
