// ONNX indexing ops: ScatterElements, Scatter, ScatterND, GatherND, Compress, NonZero, EyeLike,
// Hardmax, Einsum, BitShift. Scatters are built from burn's scatter-add (ops::scatter) and
// select-add (ops::select_assign): the updates are added into zeros, a count of the writes marks the
// covered elements, and where() keeps the data elsewhere. Compress and NonZero read their condition or
// input on the host (their output shape depends on it); everything else stays on the device.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>

#include "onnx/op_util.hpp"

namespace burn::onnx::detail {

namespace {

using Outs = std::vector<TensorAny>;

// Scatters with a reduction other than add apply one duplicate-free layer at a time, at most this many
// layers; beyond it they write everything at once: exact when no two indices address one element, and
// otherwise none writes the mean of the colliding updates (the spec leaves their order undefined) while
// mul, max and min combine the data with only the sum of the colliding updates.
constexpr int64_t kIxMaxLayers = 64;

enum class IxReduce { none, add, mul, max, min };

IxReduce ix_reduction(const OpContext& c) {
    const std::string r = c.attr_string("reduction", "none");
    const char* names[] = {"none", "add", "mul", "max", "min"};
    for (int i = 0; i < 5; ++i)
        if (r == names[i]) return static_cast<IxReduce>(i);
    c.fail("reduction '", r, "' is not one of none, add, mul, max, min");
}

TensorAny ix_combine(IxReduce r, TensorAny x, TensorAny v) {
    if (r == IxReduce::add) return ops::add(x, v);
    if (r == IxReduce::mul) return ops::mul(x, v);
    if (r == IxReduce::max) return ops::max_pair(x, v);
    return r == IxReduce::min ? ops::min_pair(x, v) : v;
}

/// Integer indices as i64, negative ones wrapped by n.
TensorAny ix_wrap(const OpContext& c, TensorAny idx, int64_t n) {
    c.check(!is_float(idx.dtype()) && idx.dtype() != DType::boolean, "indices must be integers, got ",
            idx.dtype());
    idx = ops::cast(idx, DType::i64);
    return ops::where(ops::lower_elem(idx, 0), ops::add_scalar(idx, static_cast<double>(n)), idx);
}

int64_t ix_prod(const Dims& d, int from, int to) {
    int64_t p = 1;
    for (int i = from; i < to; ++i) p *= d[i];
    return p;
}

/// ScatterElements: x's elements addressed by idx along axis combined with upd. Where indices collide,
/// reduction none writes the mean of their updates.
TensorAny ix_scatter_layer(TensorAny x, int64_t axis, TensorAny idx, TensorAny upd, IxReduce r) {
    if (r == IxReduce::add) return ops::scatter(x, axis, idx, upd);
    TensorAny placed = ops::scatter(ops::full(x.shape(), 0, x.dtype(), x.device()), axis, idx, upd);
    TensorAny hits = ops::scatter(ops::full(x.shape(), 0, DType::i32, x.device()), axis, idx,
                                  ops::full(idx.shape(), 1, DType::i32, x.device()));
    if (r == IxReduce::none && idx.shape()[static_cast<int>(axis)] > 1)
        placed = ops::div(
            placed, ops::cast(ops::clamp(hits, 1, static_cast<double>(upd.shape().numel())), x.dtype()));
    return ops::where(ops::greater_elem(hits, 0), ix_combine(r, x, placed), x);
}

/// x with upd scattered at idx along axis (ScatterElements semantics), through u8 for bool data (burn's
/// scatter-add is numeric). The elements of one layer of idx along axis never collide, so applying the
/// layers in order is exact (the last write wins for none, like the reference implementation).
TensorAny ix_scatter(TensorAny x, int64_t axis, TensorAny idx, TensorAny upd, IxReduce r, bool bulk_none) {
    const DType dt = x.dtype();
    if (dt == DType::boolean) {
        x = ops::cast(x, DType::u8);
        upd = ops::cast(upd, DType::u8);
    }
    const int64_t layers = idx.shape()[static_cast<int>(axis)];
    TensorAny y = x;
    if (r == IxReduce::add || layers > kIxMaxLayers || (r == IxReduce::none && bulk_none)) {
        y = ix_scatter_layer(x, axis, idx, upd, r);
    } else {
        for (int64_t k = 0; k < layers; ++k)
            y = ix_scatter_layer(y, axis, ops::narrow(idx, axis, k, 1), ops::narrow(upd, axis, k, 1), r);
    }
    return ops::cast(y, dt);
}

Outs ix_scatter_elements(const OpContext& c) {
    const TensorAny &x = c.in(0), &upd = c.in(2);
    check_same_dtype(c, x, upd);
    const IxReduce r = c.opset() >= 16 ? ix_reduction(c) : IxReduce::none;
    const int64_t axis = c.axis(c.attr_int("axis", 0), x.rank());
    TensorAny idx = ix_wrap(c, c.in(1), x.shape()[static_cast<int>(axis)]);
    c.check(idx.rank() == x.rank() && idx.shape() == upd.shape(), "indices ", idx.shape(), " and updates ",
            upd.shape(), " must have one shape, of the data's rank ", x.rank());
    return {ix_scatter(x, axis, idx, upd, r, false)};
}

/// GatherND and ScatterND addressing: x seen as rows [prod(x.shape[:b+k]), prod(x.shape[b+k:])], the row
/// of each index tuple (on idx's last dim, after b batch dims; negative entries wrapped) and the shape
/// idx.shape[:-1] + x.shape[b+k:] of the gathered slices.
struct IxRows {
    TensorAny lin;  // [prod(idx.shape[:-1])] i64
    int64_t rows = 0, row = 0;
    std::vector<int64_t> shape;
};

IxRows ix_rows(const OpContext& c, const TensorAny& x, const TensorAny& idx, int64_t b) {
    c.check(!is_float(idx.dtype()) && idx.dtype() != DType::boolean, "indices must be integers, got ",
            idx.dtype());
    const int q = idx.rank(), rank = x.rank(), bi = static_cast<int>(b);
    c.check(q >= 1 && b >= 0 && b < q && b < rank, "batch_dims ", b, " must be below the ranks of data (",
            rank, ") and indices (", q, ")");
    const int64_t k = idx.shape()[q - 1];
    c.check(b + k <= rank, "index tuples of length ", k, " after ", b, " batch dims exceed the data's rank ",
            rank);
    for (int i = 0; i < bi; ++i)
        c.check(x.shape()[i] == idx.shape()[i], "batch dim ", i, " differs: data ", x.shape(), ", indices ",
                idx.shape());
    const int kb = bi + static_cast<int>(k);
    const int64_t nb = ix_prod(x.shape(), 0, bi), m = ix_prod(x.shape(), bi, kb),
                  per = ix_prod(idx.shape(), bi, q - 1);
    IxRows a{ops::full(Dims{nb * per}, 0, DType::i64, c.device()), nb * m, ix_prod(x.shape(), kb, rank), {}};
    if (k > 0) {
        std::vector<int64_t> sizes(x.shape().begin() + bi, x.shape().begin() + kb), strides(sizes.size(), 1);
        for (int64_t j = k - 2; j >= 0; --j)
            strides[std::size_t(j)] = strides[std::size_t(j + 1)] * sizes[std::size_t(j + 1)];
        TensorAny t = ops::reshape(ops::cast(idx, DType::i64), Dims{nb * per, k});
        t = ops::where(ops::lower_elem(t, 0), ops::add(t, c.constant(TensorData(sizes, Dims{1, k}))), t);
        a.lin = ops::sum_dim(ops::mul(t, c.constant(TensorData(strides, Dims{1, k}))), 1);
    }
    if (b > 0) {  // + the batch's first row
        TensorAny base = ops::arange(0, nb * m, std::max<int64_t>(m, 1), DType::i64, c.device());
        a.lin = ops::add(ops::reshape(a.lin, Dims{nb, per}), ops::reshape(base, Dims{nb, 1}));
    }
    a.lin = ops::reshape(a.lin, Dims{nb * per});
    a.shape.assign(idx.shape().begin(), idx.shape().begin() + (q - 1));
    for (int i = kb; i < rank; ++i) a.shape.push_back(x.shape()[i]);
    return a;
}

Outs ix_scatter_nd(const OpContext& c) {
    const TensorAny &x = c.in(0), &upd = c.in(2);
    check_same_dtype(c, x, upd);
    const IxReduce r = c.opset() >= 16 ? ix_reduction(c) : IxReduce::none;
    const IxRows a = ix_rows(c, x, c.in(1), 0);
    c.check(upd.shape() == dims_of(a.shape), "updates must have shape ", dims_of(a.shape), " (indices ",
            c.in(1).shape(), ", data ", x.shape(), "), got ", upd.shape());
    // Rows of x scattered along dim 0. Reduction none forbids duplicate indices; mul, max and min allow them.
    const int64_t n = a.lin.shape()[0];
    TensorAny at = ops::expand(ops::reshape(a.lin, Dims{n, 1}), Dims{n, a.row});
    TensorAny y =
        ix_scatter(ops::reshape(x, Dims{a.rows, a.row}), 0, at, ops::reshape(upd, Dims{n, a.row}), r, true);
    return {ops::reshape(y, x.shape())};
}

Outs ix_gather_nd(const OpContext& c) {
    const TensorAny& x = c.in(0);
    const IxRows a = ix_rows(c, x, c.in(1), c.opset() >= 12 ? c.attr_int("batch_dims", 0) : 0);
    return {ops::reshape(ops::select(ops::reshape(x, Dims{a.rows, a.row}), 0, a.lin), dims_of(a.shape))};
}

Outs ix_compress(const OpContext& c) {
    TensorAny x = c.in(0);
    const TensorAny& cond = c.in(1);
    c.check(cond.rank() == 1, "condition must be 1-D, got ", cond.shape());
    const std::vector<int64_t> keep = ops::into_data(ops::cast(cond, DType::i64)).to_vec<int64_t>();
    if (!c.has_attr("axis")) x = ops::reshape(x, Dims{x.shape().numel()});
    const int64_t axis = c.has_attr("axis") ? c.axis(c.attr_int("axis"), x.rank()) : 0;
    const int64_t n = x.shape()[static_cast<int>(axis)];
    c.check(static_cast<int64_t>(keep.size()) <= n, "condition has ", keep.size(), " entries but dim ", axis,
            " of ", x.shape(), " has ", n);
    std::vector<int64_t> pos;
    for (std::size_t i = 0; i < keep.size(); ++i)
        if (keep[i]) pos.push_back(static_cast<int64_t>(i));
    if (pos.empty()) return {ops::narrow(x, axis, 0, 0)};
    return {ops::select(x, axis, c.constant(TensorData(pos)))};
}

Outs ix_nonzero(const OpContext& c) {
    const TensorAny& x = c.in(0);
    TensorAny nz = x.dtype() == DType::boolean ? x : ops::not_equal_elem(x, 0);
    const std::vector<uint8_t> flags = ops::into_data(ops::cast(nz, DType::u8)).to_vec<uint8_t>();
    const int rank = x.rank(), rows = std::max(rank, 1);
    std::vector<int64_t> hits;
    for (std::size_t i = 0; i < flags.size(); ++i)
        if (flags[i]) hits.push_back(static_cast<int64_t>(i));
    const auto nnz = static_cast<int64_t>(hits.size());
    std::vector<int64_t> out(static_cast<std::size_t>(rows * nnz), 0);
    for (int64_t j = 0; j < nnz; ++j) {
        int64_t rest = hits[static_cast<std::size_t>(j)];
        for (int d = rank - 1; d >= 0; --d) {
            out[static_cast<std::size_t>(d * nnz + j)] = rest % x.shape()[d];
            rest /= x.shape()[d];
        }
    }
    return {c.constant(TensorData(out, Dims{rows, nnz}))};
}

Outs ix_eye_like(const OpContext& c) {
    const TensorAny& x = c.in(0);
    c.check(x.rank() == 2, "needs a 2-D input, got ", x.shape());
    const auto code = static_cast<int32_t>(c.attr_int("dtype", onnx_of_dtype(x.dtype())));
    const std::optional<DType> dt = dtype_of_onnx(code);
    c.check(dt.has_value(), "dtype ", onnx_type_name(code), " has no burn dtype");
    const int64_t n = x.shape()[0], m = x.shape()[1], k = c.attr_int("k", 0);
    TensorAny rows = ops::reshape(ops::arange(0, n, 1, DType::i64, c.device()), Dims{n, 1});
    TensorAny cols = ops::reshape(ops::arange(0, m, 1, DType::i64, c.device()), Dims{1, m});
    return {ops::cast(ops::equal_elem(ops::sub(cols, rows), static_cast<double>(k)), *dt)};
}

/// 1 at the first maximum along dim, 0 elsewhere.
TensorAny ix_hardmax_along(const TensorAny& x, int64_t dim) {
    const int64_t n = x.shape()[static_cast<int>(dim)];
    TensorAny am = ops::cast(ops::argmax(x, dim), DType::i64);
    Dims s = Dims::filled(x.rank(), 1);
    s[static_cast<int>(dim)] = n;
    TensorAny pos = ops::reshape(ops::arange(0, n, 1, DType::i64, x.device()), s);
    return ops::cast(ops::equal(pos, am), x.dtype());
}

Outs ix_hardmax(const OpContext& c) {
    const TensorAny& x = c.in(0);
    c.check(x.rank() >= 1, "needs an input of rank >= 1");
    if (c.opset() >= 13) return {ix_hardmax_along(x, c.axis(c.attr_int("axis", -1), x.rank()))};
    // Before opset 13: x coerced to 2-D [outer, inner] at axis, the maximum taken over inner.
    return {ops::reshape(ix_hardmax_along(as_2d(c, x, c.attr_int("axis", 1)), 1), x.shape())};
}

// ---- Einsum. A label is a letter's ASCII code, or 128 + i for the i-th of the ellipsis dims.
struct IxTerm {
    TensorAny t;
    std::vector<int> labels;
};

int64_t ix_find(const std::vector<int>& v, int l) {
    return std::find(v.begin(), v.end(), l) - v.begin();
}
bool ix_has(const std::vector<int>& v, int l) {
    return ix_find(v, l) < static_cast<int64_t>(v.size());
}

/// A term's labels, -1 for its ellipsis.
std::vector<int> ix_parse_term(const OpContext& c, const std::string& s) {
    std::vector<int> raw;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const bool ell = s.compare(i, 3, "...") == 0;
        c.check(ell || std::isalpha(static_cast<unsigned char>(s[i])), "term '", s, "' has '", s.substr(i, 1),
                "'; use letters, ',', '->' and '...'");
        raw.push_back(ell ? -1 : s[i]);
        if (ell) i += 2;
    }
    c.check(std::count(raw.begin(), raw.end(), -1) <= 1, "term '", s, "' has more than one ellipsis");
    return raw;
}

/// raw labels with the ellipsis as the last e of the `total` ellipsis labels.
std::vector<int> ix_expand_term(const std::vector<int>& raw, int e, int total) {
    std::vector<int> out;
    for (int l : raw) {
        if (l != -1) out.push_back(l);
        for (int i = total - e; l == -1 && i < total; ++i) out.push_back(128 + i);
    }
    return out;
}

/// x with the dims whose label satisfies drop summed out.
template <class Pred>
IxTerm ix_sum_out(IxTerm x, Pred drop) {
    std::vector<int64_t> dims;
    std::vector<int> labels;
    for (std::size_t d = 0; d < x.labels.size(); ++d) {
        if (drop(x.labels[d])) {
            x.t = ops::sum_dim(x.t, static_cast<int64_t>(d));
        } else {
            dims.push_back(x.t.shape()[static_cast<int>(d)]);
            labels.push_back(x.labels[d]);
        }
    }
    return {labels.size() < x.labels.size() ? ops::reshape(x.t, dims_of(dims)) : x.t, labels};
}

/// x with the diagonal of each label it repeats: where(i == j, x, 0) summed over the second.
IxTerm ix_diagonals(const OpContext& c, IxTerm x) {
    for (std::size_t p = 0; p < x.labels.size(); ++p) {
        for (std::size_t q = p + 1; q < x.labels.size(); ++q) {
            if (x.labels[p] != x.labels[q]) continue;
            const int64_t n = x.t.shape()[static_cast<int>(p)];
            c.check(x.t.shape()[static_cast<int>(q)] == n, "a repeated label has dims of two sizes in ",
                    x.t.shape());
            Dims sp = Dims::filled(x.t.rank(), 1), sq = sp;
            sp[static_cast<int>(p)] = sq[static_cast<int>(q)] = n;
            TensorAny r = ops::arange(0, n, 1, DType::i64, c.device());
            TensorAny mask = ops::equal(ops::reshape(r, sp), ops::reshape(r, sq));
            x.t = ops::squeeze_dim(ops::sum_dim(ops::where(mask, x.t, scalar_like(x.t, 0)), int64_t(q)),
                                   int64_t(q));
            x.labels.erase(x.labels.begin() + static_cast<std::ptrdiff_t>(q--));
        }
    }
    return x;
}

/// a and b contracted over their shared labels not in keep (one batched matmul).
IxTerm ix_contract(const IxTerm& a, const IxTerm& b, const std::vector<int>& keep) {
    std::vector<int> batch, aonly, bonly, contr;
    for (int l : a.labels) (ix_has(b.labels, l) ? (ix_has(keep, l) ? batch : contr) : aonly).push_back(l);
    for (int l : b.labels)
        if (!ix_has(a.labels, l)) bonly.push_back(l);
    auto arrange = [](const IxTerm& x, const std::vector<std::vector<int>>& groups) {
        std::vector<int64_t> perm, size;
        for (const auto& g : groups) {
            size.push_back(1);
            for (int l : g) {
                perm.push_back(ix_find(x.labels, l));
                size.back() *= x.t.shape()[static_cast<int>(perm.back())];
            }
        }
        return ops::reshape(ops::permute(x.t, dims_of(perm)), dims_of(size));
    };
    IxTerm out{ops::matmul(arrange(a, {batch, aonly, contr}), arrange(b, {batch, contr, bonly})), batch};
    out.labels.insert(out.labels.end(), aonly.begin(), aonly.end());
    out.labels.insert(out.labels.end(), bonly.begin(), bonly.end());
    std::vector<int64_t> dims;
    for (int l : out.labels) {
        const IxTerm& src = ix_has(a.labels, l) ? a : b;
        dims.push_back(src.t.shape()[static_cast<int>(ix_find(src.labels, l))]);
    }
    out.t = ops::reshape(out.t, dims_of(dims));
    return out;
}

Outs ix_einsum(const OpContext& c) {
    std::string eq;
    for (char ch : c.attr_string("equation", ""))
        if (ch != ' ') eq += ch;
    const auto arrow = eq.find("->");
    const std::string lhs = eq.substr(0, arrow);
    std::vector<std::vector<int>> raws;
    for (std::size_t at = 0;;) {
        const auto comma = lhs.find(',', at);
        raws.push_back(ix_parse_term(c, lhs.substr(at, comma - at)));
        if (comma == std::string::npos) break;
        at = comma + 1;
    }
    c.check(raws.size() == c.num_inputs(), "the equation '", eq, "' has ", raws.size(),
            " operands but the node ", c.num_inputs(), " inputs");
    std::vector<int> ells;
    for (std::size_t i = 0; i < raws.size(); ++i) {
        const bool ell = ix_has(raws[i], -1);
        ells.push_back(static_cast<int>(c.in(i).rank()) - static_cast<int>(raws[i].size()) + ell);
        c.check(ell ? ells.back() >= 0 : ells.back() == 0, "operand ", i, " of '", eq, "' has rank ",
                c.in(i).rank());
    }
    const int total = *std::max_element(ells.begin(), ells.end());
    std::vector<IxTerm> xs;
    std::vector<int64_t> size(128 + static_cast<std::size_t>(total), -1);
    for (std::size_t i = 0; i < raws.size(); ++i) {
        xs.push_back(ix_diagonals(c, {c.in(i), ix_expand_term(raws[i], ells[i], total)}));
        for (std::size_t d = 0; d < xs[i].labels.size(); ++d) {
            int64_t& s = size[static_cast<std::size_t>(xs[i].labels[d])];
            const int64_t have = xs[i].t.shape()[static_cast<int>(d)];
            c.check(s < 0 || s == have || s == 1 || have == 1, "a label has dims ", s, " and ", have, " in '",
                    eq, "'");
            s = std::max(s, have);
        }
    }
    std::vector<int> out = ix_expand_term({-1}, total, total);  // implicit: ellipsis, then labels used once
    if (arrow != std::string::npos) {
        out = ix_expand_term(ix_parse_term(c, eq.substr(arrow + 2)), total, total);
    } else {
        for (int l = 0; l < 128; ++l) {
            int uses = 0;
            for (const auto& raw : raws) uses += static_cast<int>(std::count(raw.begin(), raw.end(), l));
            if (uses == 1) out.push_back(l);
        }
    }
    for (std::size_t i = 0; i < out.size(); ++i)
        c.check(
            size[static_cast<std::size_t>(out[i])] >= 0 && ix_find(out, out[i]) == static_cast<int64_t>(i),
            "the output of '", eq, "' names a label twice or one that no operand has");
    for (std::size_t i = 0; i < xs.size(); ++i) {
        // Broadcast size-1 dims to the other operands' sizes; sum out the labels only this operand has.
        Dims want = xs[i].t.shape();
        for (std::size_t d = 0; d < xs[i].labels.size(); ++d)
            want[static_cast<int>(d)] = size[static_cast<std::size_t>(xs[i].labels[d])];
        if (want != xs[i].t.shape()) xs[i].t = ops::expand(xs[i].t, want);
        xs[i] = ix_sum_out(xs[i], [&](int l) {
            for (std::size_t j = 0; j < xs.size(); ++j)
                if (j != i && ix_has(xs[j].labels, l)) return false;
            return !ix_has(out, l);
        });
    }
    // Contract left to right, keeping the labels of the output and of the operands still to come.
    IxTerm acc = xs[0];
    for (std::size_t i = 1; i < xs.size(); ++i) {
        std::vector<int> keep = out;
        for (std::size_t j = i + 1; j < xs.size(); ++j)
            keep.insert(keep.end(), xs[j].labels.begin(), xs[j].labels.end());
        acc = ix_contract(acc, xs[i], keep);
    }
    acc = ix_sum_out(acc, [&](int l) { return !ix_has(out, l); });
    std::vector<int64_t> perm;
    for (int l : out) perm.push_back(ix_find(acc.labels, l));
    return {perm.size() > 1 ? ops::permute(acc.t, dims_of(perm)) : acc.t};
}

// ---- BitShift: burn has u8 only among the unsigned types. u8, i8, i16 and i32 shift through i64
// (multiplication or floor division by 2^y, wrapped back to the type's range; shifts of the type's
// width or more give 0 left, 0 or -1 right); i64 shifts in place, its left shift wrapping modulo 2^64.
TensorAny ix_pow2(const TensorAny& s) {
    TensorAny two = ops::full(s.shape(), 2, DType::f64, s.device());
    return ops::cast(ops::powf(two, ops::cast(s, DType::f64)), DType::i64);
}

TensorAny ix_floor_div(const TensorAny& x, const TensorAny& p) {
    return ops::div(ops::sub(x, ops::remainder(x, p)), p);
}

Outs ix_bitshift(const OpContext& c) {
    auto [x, y] = align(c.in(0), c.in(1));
    check_same_dtype(c, x, y);
    const std::string dir = c.attr_string("direction", "");
    c.check(dir == "LEFT" || dir == "RIGHT", "direction must be LEFT or RIGHT, got '", dir, "'");
    const bool left = dir == "LEFT";
    const DType dt = x.dtype();
    const int bits = dt == DType::u8 || dt == DType::i8 ? 8
                     : dt == DType::i16                 ? 16
                     : dt == DType::i32                 ? 32
                     : dt == DType::i64                 ? 64
                                                        : 0;
    c.check(bits > 0, "needs integer inputs (u8; i8 to i64 shift arithmetically), got ", dt);
    TensorAny xs = ops::cast(x, DType::i64), s = ops::clamp(ops::cast(y, DType::i64), 0, bits);
    if (bits == 64) {  // 2^s as two factors of at most 2^32
        TensorAny s1 = ops::clamp(s, 0, 32), p1 = ix_pow2(s1), p2 = ix_pow2(ops::sub(s, s1));
        return {left ? ops::mul(ops::mul(xs, p1), p2) : ix_floor_div(ix_floor_div(xs, p1), p2)};
    }
    TensorAny p = ix_pow2(s);
    if (!left) return {ops::cast(ix_floor_div(xs, p), dt)};
    TensorAny v = ops::mul(xs, p);
    const double range = std::ldexp(1.0, bits), half = dt == DType::u8 ? 0 : range / 2;
    v = ops::sub_scalar(ops::remainder_scalar(ops::add_scalar(v, half), range), half);
    return {ops::cast(v, dt)};
}

}  // namespace

void add_index_ops(OpTable& t) {
    t.add("ScatterElements", 11, ix_scatter_elements);
    t.add("Scatter", 9, ix_scatter_elements);
    t.add("ScatterND", 11, ix_scatter_nd);
    t.add("GatherND", 11, ix_gather_nd);
    t.add("Compress", 9, ix_compress);
    t.add("NonZero", 9, ix_nonzero);
    t.add("EyeLike", 9, ix_eye_like);
    t.add("Hardmax", 1, ix_hardmax);
    t.add("Einsum", 12, ix_einsum);
    t.add("BitShift", 11, ix_bitshift);
}

}  // namespace burn::onnx::detail
