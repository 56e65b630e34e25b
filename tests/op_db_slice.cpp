// Op-database entries: slicing and joining (slice, slice_assign, flip, narrow, chunk, split, cat,
// stack, repeat_dim).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <limits>
#include <optional>
#include <sstream>
#include <string>

#include "op_db.hpp"
#include "reference.hpp"

namespace burn::opdb {
namespace {

using V = const std::vector<TensorAny>&;
using In = const std::vector<TensorData>&;
using A = const Args&;
using Pos = std::vector<std::vector<int64_t>>;  // the source positions along each dim

// Slice ranges travel in Args::ints as {start, end or kNone, step, single} per dim.
constexpr int64_t kNone = std::numeric_limits<int64_t>::min();
std::vector<int64_t> rng(int64_t start, int64_t end = kNone, int64_t step = 1) {
    return {start, end, step, 0};
}
std::vector<int64_t> single(int64_t index) {
    return {index, kNone, 1, 1};
}
std::vector<int64_t> cat_ints(std::initializer_list<std::vector<int64_t>> parts) {
    std::vector<int64_t> v;
    for (const auto& p : parts) v.insert(v.end(), p.begin(), p.end());
    return v;
}

/// Python-style text of encoded ranges for messages: "[1:3, ::-2, 2]".
std::string ranges_str(const std::vector<int64_t>& v) {
    std::ostringstream os;
    os << '[';
    for (std::size_t i = 0; i + 3 < v.size(); i += 4) {
        if (i) os << ", ";
        if (v[i + 3]) {
            os << v[i];
            continue;
        }
        if (v[i]) os << v[i];
        os << ':';
        if (v[i + 1] != kNone) os << v[i + 1];
        if (v[i + 2] != 1) os << ':' << v[i + 2];
    }
    os << ']';
    return os.str();
}

std::vector<SliceArg> decode(const std::vector<int64_t>& v) {
    std::vector<SliceArg> out;
    for (std::size_t i = 0; i + 3 < v.size(); i += 4) {
        if (v[i + 3])
            out.emplace_back(v[i]);
        else
            out.emplace_back(v[i], v[i + 1] == kNone ? std::nullopt : std::optional<int64_t>(v[i + 1]),
                             v[i + 2]);
    }
    return out;
}

/// The positions each dim of shape selects under encoded ranges (burn's normalisation: negative
/// start/end count from the end, end < start selects nothing, a negative step walks backwards).
Pos positions(const Dims& shape, const std::vector<int64_t>& v) {
    Pos pos;
    for (int d = 0; d < shape.rank(); ++d) {
        const int64_t n = shape[d];
        const std::size_t i = static_cast<std::size_t>(4 * d);
        if (i + 3 >= v.size()) {
            pos.push_back(ref::slice_positions(0, n, 1));
            continue;
        }
        int64_t start = v[i] < 0 ? v[i] + n : v[i];
        if (v[i + 3]) {
            pos.push_back({start});
            continue;
        }
        int64_t end = v[i + 1] == kNone ? n : (v[i + 1] < 0 ? v[i + 1] + n : v[i + 1]);
        if (end < start) end = start;
        pos.push_back(ref::slice_positions(start, end, v[i + 2]));
    }
    return pos;
}

Dims shape_of(const Pos& pos) {
    Dims s;
    for (const auto& p : pos) s.push_back(static_cast<int64_t>(p.size()));
    return s;
}

/// The flat index in x of every element of the selection, in the selection's row-major order.
std::vector<int64_t> selected(const Dims& x, const Pos& pos) {
    Dims s = shape_of(pos);
    std::vector<int64_t> flat(static_cast<std::size_t>(s.numel()));
    for (int64_t i = 0; i < s.numel(); ++i) {
        auto idx = ref::unravel(i, s);
        for (int d = 0; d < s.rank(); ++d)
            idx[static_cast<std::size_t>(d)] =
                pos[static_cast<std::size_t>(d)][static_cast<std::size_t>(idx[static_cast<std::size_t>(d)])];
        flat[static_cast<std::size_t>(i)] = ref::ravel(idx, x);
    }
    return flat;
}

TensorData take(const TensorData& x, const Pos& pos, DType dt) {
    ref::Host h = ref::host(x);
    ref::Host o = ref::filled(shape_of(pos), 0.0);
    auto flat = selected(h.shape, pos);
    for (std::size_t i = 0; i < flat.size(); ++i) o.v[i] = h.v[static_cast<std::size_t>(flat[i])];
    return out(o, dt);
}

/// Positions of a narrow: all of every dim except [start, start + len) of dim.
Pos narrow_pos(const Dims& shape, int dim, int64_t start, int64_t len) {
    Pos pos;
    for (int d = 0; d < shape.rank(); ++d)
        pos.push_back(d == dim ? ref::slice_positions(start, start + len, 1)
                               : ref::slice_positions(0, shape[d], 1));
    return pos;
}

struct Case {
    std::vector<Dims> shapes;
    std::vector<int64_t> ints;
    Tag tag = Tag::basic;
};

OpEntry cases_entry(const std::string& name, std::vector<Case> cases, Forward f, Reference r,
                    bool slices = false) {
    OpEntry e = entry(name, {}, kAll);
    e.samples = [name, cases, slices](DType dt) {
        InputGen g{name, dt};
        std::vector<Sample> s;
        for (const auto& c : cases) {
            std::vector<TensorData> in;
            for (const Dims& d : c.shapes) in.push_back(g(d));
            s.push_back(sample(c.tag, std::move(in), c.ints, {}, slices ? ranges_str(c.ints) : ""));
        }
        return s;
    };
    e.forward = std::move(f);
    e.reference = std::move(r);
    e.differentiable = true;
    e.grad_inputs = {0};
    return e;
}

void add_slices(std::vector<OpEntry>& db) {
    {
        OpEntry e = cases_entry(
            "slice",
            {{{{4, 5}}, rng(1, 3)},
             {{{4, 5}}, cat_ints({rng(0, kNone, 2), rng(1, kNone, 2)})},
             {{{4, 5}}, rng(0, kNone, -1)},
             {{{4, 5}}, rng(1, 4, -2)},
             {{{4, 5}}, cat_ints({rng(-3, -1), rng(-4, kNone, -3)})},
             {{{4, 5}}, cat_ints({single(2), single(-1)})},
             {{{2, 3, 4}}, cat_ints({rng(0), rng(0, 2), rng(1, kNone, 2)})},
             {{{4, 5}}, rng(2, 2), Tag::empty},
             {{{4, 5}}, rng(3, 1), Tag::empty},
             {{{0, 3}}, cat_ints({rng(0), rng(1, 3)}), Tag::empty},
             {{{1}}, rng(0, 1), Tag::scalar},
             {{{1}}, rng(0, kNone, -1), Tag::scalar}},
            [](V in, A a) { return ops::slice(in[0], decode(a.ints)); },
            [](In in, A a) { return take(in[0], positions(in[0].shape(), a.ints), a.dtype); }, true);
        e.ops = {OpId::slice};
        auto bad_range = [](std::vector<int64_t> r) {
            return [r](const Device& d) { ops::slice(f32({4, 5}, d), decode(r)); };
        };
        e.bad.push_back(bad("step 0", "[slice]", bad_range(rng(0, 2, 0))));
        e.bad.push_back(bad("end 9 of 4", "[slice]", bad_range(rng(0, 9))));
        e.bad.push_back(bad("index 4 of 4", "[slice]", bad_range(single(4))));
        e.bad.push_back(bad("3 ranges for rank 2", "[slice]", bad_range(cat_ints({rng(0), rng(0), rng(0)}))));
        db.push_back(std::move(e));
    }
    {
        OpEntry e = cases_entry(
            "slice_assign",
            {{{{4, 5}, {2, 5}}, rng(1, 3)},
             {{{4, 5}, {2, 3}}, cat_ints({rng(0, kNone, 2), rng(0, kNone, 2)})},
             {{{4, 5}, {2, 5}}, rng(1, 4, -2)},
             {{{4, 5}, {1, 2}}, cat_ints({single(-1), rng(-2, kNone, -1)})},
             {{{2, 3, 4}, {2, 2, 2}}, cat_ints({rng(0), rng(0, 2), rng(1, kNone, 2)})},
             {{{4, 5}, {0, 5}}, rng(2, 2), Tag::empty},
             {{{0, 3}, {0, 2}}, cat_ints({rng(0), rng(1, 3)}), Tag::empty},
             {{{1}, {1}}, rng(0, 1), Tag::scalar}},
            [](V in, A a) { return ops::slice_assign(in[0], decode(a.ints), in[1]); },
            [](In in, A a) {
                ref::Host x = ref::host(in[0]), v = ref::host(in[1]);
                auto flat = selected(x.shape, positions(x.shape, a.ints));
                for (std::size_t i = 0; i < flat.size(); ++i) x.v[static_cast<std::size_t>(flat[i])] = v.v[i];
                return out(x, a.dtype);
            },
            true);
        e.ops = {OpId::slice_assign};
        e.grad_inputs = {0, 1};
        e.bad.push_back(bad("values [3, 5] for a [2, 5] slice", "[slice_assign]", [](const Device& d) {
            ops::slice_assign(f32({4, 5}, d), decode(rng(1, 3)), f32({3, 5}, d));
        }));
        e.bad.push_back(bad("values dtype differs", "[slice_assign]", [](const Device& d) {
            ops::slice_assign(f32({4, 5}, d), decode(rng(1, 3)), ops::full({2, 5}, 0, DType::i32, d));
        }));
        e.bad.push_back(bad("end 9 of 4", "[slice_assign]", [](const Device& d) {
            ops::slice_assign(f32({4, 5}, d), decode(rng(0, 9)), f32({9, 5}, d));
        }));
        db.push_back(std::move(e));
    }
    {
        OpEntry e = cases_entry(
            "flip",
            {{{{2, 3, 4}}, {0}},
             {{{2, 3, 4}}, {0, 2}},
             {{{2, 3, 4}}, {-1}},
             {{{2, 3}}, {}},
             {{{1}}, {0}, Tag::scalar},
             {{{0, 3}}, {0, 1}, Tag::empty}},
            [](V in, A a) { return ops::flip(in[0], dims_of(a.ints)); },
            [](In in, A a) {
                const Dims& s = in[0].shape();
                Pos pos;
                for (int d = 0; d < s.rank(); ++d) pos.push_back(ref::slice_positions(0, s[d], 1));
                for (int64_t ax : a.ints) {
                    auto& p = pos[static_cast<std::size_t>(ref::norm_dim(ax, s.rank()))];
                    std::reverse(p.begin(), p.end());
                }
                return take(in[0], pos, a.dtype);
            });
        e.ops = {OpId::slice};
        e.bad.push_back(bad("axis 2 of rank 2", "[flip]", [](const Device& d) {
            ops::flip(f32({2, 3}, d), {2});
        }));
        db.push_back(std::move(e));
    }
    {
        OpEntry e = cases_entry(
            "narrow",
            {{{{4, 5}}, {0, 1, 2}},
             {{{4, 5}}, {1, -3, 2}},
             {{{2, 3, 4}}, {-1, 0, 3}},
             {{{4, 5}}, {1, 0, 0}, Tag::empty},
             {{{1}}, {0, 0, 1}, Tag::scalar},
             {{{0, 3}}, {1, 1, 2}, Tag::empty}},
            [](V in, A a) { return ops::narrow(in[0], a.ints[0], a.ints[1], a.ints[2]); },
            [](In in, A a) {
                const Dims& s = in[0].shape();
                const int d = ref::norm_dim(a.ints[0], s.rank());
                const int64_t start = a.ints[1] < 0 ? a.ints[1] + s[d] : a.ints[1];
                return take(in[0], narrow_pos(s, d, start, a.ints[2]), a.dtype);
            });
        e.bad.push_back(bad("start 3 length 2 of 4", "[narrow]", [](const Device& d) {
            ops::narrow(f32({4, 5}, d), 0, 3, 2);
        }));
        e.bad.push_back(bad("dim 2 of rank 2", "[narrow]", [](const Device& d) {
            ops::narrow(f32({4, 5}, d), 2, 0, 1);
        }));
        db.push_back(std::move(e));
    }
    {
        // ints: {dim, index}; the narrow of length 1 at index, with dim removed
        OpEntry e = cases_entry(
            "select_dim",
            {{{{4, 5}}, {0, 2}},
             {{{4, 5}}, {1, -1}},
             {{{2, 3, 4}}, {-1, 0}},
             {{{2, 3, 4}}, {1, -3}},
             {{{1}}, {0, 0}, Tag::scalar},
             {{{0, 3}}, {1, 2}, Tag::empty}},
            [](V in, A a) { return ops::select_dim(in[0], a.ints[0], a.ints[1]); },
            [](In in, A a) {
                const Dims& s = in[0].shape();
                const int d = ref::norm_dim(a.ints[0], s.rank());
                const int64_t index = a.ints[1] < 0 ? a.ints[1] + s[d] : a.ints[1];
                TensorData t = take(in[0], narrow_pos(s, d, index, 1), a.dtype);
                Dims shape;
                for (int k = 0; k < s.rank(); ++k)
                    if (k != d) shape.push_back(s[k]);
                return TensorData(t.bytes(), shape, t.dtype());
            });
        e.bad.push_back(bad("index 4 of 4", "[select_dim]", [](const Device& d) {
            ops::select_dim(f32({4, 5}, d), 0, 4);
        }));
        e.bad.push_back(bad("index -6 of 5", "[select_dim]", [](const Device& d) {
            ops::select_dim(f32({4, 5}, d), 1, -6);
        }));
        db.push_back(std::move(e));
    }
    {
        // ints: {shift, dim} pairs; out[(j + shift) mod n] = x[j] along each dim in turn (torch.roll)
        OpEntry e = cases_entry(
            "roll",
            {{{{5}}, {2, 0}},
             {{{4, 5}}, {-1, 1}},
             {{{2, 3, 4}}, {7, -1, 1, 0}},
             {{{2, 3}}, {3, 1, -4, 1}},
             {{{3, 4}}, {4, 1}},
             {{{1}}, {5, 0}, Tag::scalar},
             {{{0, 3}}, {1, 0, 2, 1}, Tag::empty}},
            [](V in, A a) {
                std::vector<int64_t> shifts, dims;
                for (std::size_t i = 0; i + 1 < a.ints.size(); i += 2) {
                    shifts.push_back(a.ints[i]);
                    dims.push_back(a.ints[i + 1]);
                }
                return ops::roll(in[0], dims_of(shifts), dims_of(dims));
            },
            [](In in, A a) {
                const Dims& s = in[0].shape();
                Pos pos;
                for (int d = 0; d < s.rank(); ++d) pos.push_back(ref::slice_positions(0, s[d], 1));
                for (std::size_t i = 0; i + 1 < a.ints.size(); i += 2) {
                    const int d = ref::norm_dim(a.ints[i + 1], s.rank());
                    const int64_t n = s[d];
                    auto& p = pos[static_cast<std::size_t>(d)];
                    const auto before = p;
                    for (int64_t j = 0; j < n; ++j)
                        p[static_cast<std::size_t>(j)] =
                            before[static_cast<std::size_t>(((j - a.ints[i]) % n + n) % n)];
                }
                return take(in[0], pos, a.dtype);
            });
        e.ops = {OpId::slice, OpId::cat};
        e.bad.push_back(bad("two shifts for one dim", "[roll]", [](const Device& d) {
            ops::roll(f32({2, 3}, d), {1, 2}, {0});
        }));
        e.bad.push_back(bad("dim 2 of rank 2", "[roll]", [](const Device& d) {
            ops::roll(f32({2, 3}, d), {1}, {2});
        }));
        db.push_back(std::move(e));
    }
}

/// chunk and split: ints {count or size, dim, piece}; the forward returns one piece.
void add_pieces(std::vector<OpEntry>& db) {
    for (bool is_chunk : {true, false}) {
        const std::string name = is_chunk ? "chunk" : "split";
        std::vector<Case> cases =
            is_chunk ? std::vector<Case>{{{{5, 2}}, {2, 0, 0}},           {{{5, 2}}, {2, 0, 1}},
                                         {{{6, 4}}, {3, 1, 1}},           {{{2, 3, 4}}, {4, -1, 3}},
                                         {{{1}}, {1, 0, 0}, Tag::scalar}, {{{0, 3}}, {2, 0, 0}, Tag::empty}}
                     : std::vector<Case>{{{{5, 2}}, {2, 0, 0}},           {{{5, 2}}, {2, 0, 2}},
                                         {{{2, 7}}, {3, 1, 1}},           {{{2, 7}}, {3, -1, 2}},
                                         {{{1}}, {1, 0, 0}, Tag::scalar}, {{{0, 3}}, {2, 0, 0}, Tag::empty}};
        OpEntry e = cases_entry(
            name, cases,
            [is_chunk](V in, A a) {
                auto parts = is_chunk ? ops::chunk(in[0], a.ints[0], a.ints[1])
                                      : ops::split(in[0], a.ints[0], a.ints[1]);
                return parts.at(static_cast<std::size_t>(a.ints[2]));
            },
            [is_chunk](In in, A a) {
                const Dims& s = in[0].shape();
                const int d = ref::norm_dim(a.ints[1], s.rank());
                const int64_t n = s[d];
                int64_t size = is_chunk ? (n + a.ints[0] - 1) / a.ints[0] : a.ints[0];
                if (size == 0) size = 1;
                const int64_t start = a.ints[2] * size;
                return take(in[0], narrow_pos(s, d, start, std::min(size, n - start)), a.dtype);
            });
        e.ops = {OpId::slice};
        // The number of pieces (torch.chunk / torch.split): chunk gives ceil(n / ceil(n / k)).
        e.custom = [is_chunk](DType dt, const Device& d) {
            const std::vector<std::array<int64_t, 3>> counts =
                is_chunk ? std::vector<std::array<int64_t, 3>>{{4, 3, 2}, {5, 2, 2}, {6, 3, 3}, {3, 5, 3}}
                         : std::vector<std::array<int64_t, 3>>{{5, 2, 3}, {4, 2, 2}, {4, 5, 1}, {0, 2, 1}};
            for (const auto& c : counts) {
                auto x = ops::full({c[0]}, 1, dt, d);
                auto parts = is_chunk ? ops::chunk(x, c[1], 0) : ops::split(x, c[1], 0);
                EXPECT_EQ(static_cast<int64_t>(parts.size()), c[2]) << "[" << c[0] << "] with " << c[1];
            }
        };
        e.bad.push_back(bad("count 0", "[" + name + "]", [is_chunk](const Device& d) {
            is_chunk ? ops::chunk(f32({4}, d), 0, 0) : ops::split(f32({4}, d), 0, 0);
        }));
        e.bad.push_back(bad("dim 1 of rank 1", "[" + name + "]", [is_chunk](const Device& d) {
            is_chunk ? ops::chunk(f32({4}, d), 2, 1) : ops::split(f32({4}, d), 2, 1);
        }));
        db.push_back(std::move(e));
    }
}

void add_joins(std::vector<OpEntry>& db) {
    {
        OpEntry e = cases_entry(
            "cat",
            {{{{2, 3}, {2, 1}, {2, 2}}, {1}},
             {{{2, 3, 4}, {1, 3, 4}}, {0}},
             {{{2, 3, 4}, {2, 3, 1}}, {-1}},
             {{{2, 3}}, {0}},
             {{{1}, {1}}, {0}, Tag::scalar},
             {{{0, 3}, {2, 3}}, {0}, Tag::empty},
             {{{2, 0}, {2, 3}}, {1}, Tag::empty}},
            [](V in, A a) { return ops::cat(in, a.ints[0]); },
            [](In in, A a) {
                const int d = ref::norm_dim(a.ints[0], in[0].shape().rank());
                Dims s = in[0].shape();
                s[d] = 0;
                for (const auto& x : in) s[d] += x.shape()[d];
                ref::Host o = ref::filled(s, 0.0);
                int64_t offset = 0;
                for (const auto& x : in) {
                    ref::Host h = ref::host(x);
                    for (int64_t i = 0; i < h.numel(); ++i) {
                        auto idx = ref::unravel(i, h.shape);
                        idx[static_cast<std::size_t>(d)] += offset;
                        o.v[static_cast<std::size_t>(ref::ravel(idx, s))] = h.v[static_cast<std::size_t>(i)];
                    }
                    offset += x.shape()[d];
                }
                return out(o, a.dtype);
            });
        e.ops = {OpId::cat};
        e.grad_inputs = {0, 1};
        e.bad.push_back(bad("dtypes differ", "[cat]", [](const Device& d) {
            ops::cat({f32({2, 3}, d), ops::full({2, 3}, 0, DType::i32, d)}, 0);
        }));
        e.bad.push_back(bad("[2, 3] and [2, 4] on dim 0", "[cat]", [](const Device& d) {
            ops::cat({f32({2, 3}, d), f32({2, 4}, d)}, 0);
        }));
        e.bad.push_back(bad("ranks differ", "[cat]", [](const Device& d) {
            ops::cat({f32({2, 3}, d), f32({3}, d)}, 0);
        }));
        e.bad.push_back(bad("no tensors", "[cat]", [](const Device&) { ops::cat({}, 0); }));
        e.bad.push_back(bad("dim 2 of rank 2", "[cat]", [](const Device& d) {
            ops::cat({f32({2, 3}, d), f32({2, 3}, d)}, 2);
        }));
        db.push_back(std::move(e));
    }
    {
        OpEntry e = cases_entry(
            "stack",
            {{{{2, 3}, {2, 3}, {2, 3}}, {0}},
             {{{2, 3}, {2, 3}}, {1}},
             {{{2, 3}, {2, 3}}, {-1}},
             {{{1}, {1}}, {0}, Tag::scalar},
             {{{0, 3}, {0, 3}}, {1}, Tag::empty}},
            [](V in, A a) { return ops::stack(in, a.ints[0]); },
            [](In in, A a) {
                Dims s = in[0].shape();
                const int d = ref::norm_dim(a.ints[0], s.rank() + 1);
                s.insert(d, static_cast<int64_t>(in.size()));
                ref::Host o = ref::filled(s, 0.0);
                for (int64_t i = 0; i < o.numel(); ++i) {
                    auto idx = ref::unravel(i, s);
                    const int64_t k = idx[static_cast<std::size_t>(d)];
                    idx.erase(idx.begin() + d);
                    o.v[static_cast<std::size_t>(i)] =
                        in[static_cast<std::size_t>(k)].value_as_double(ref::ravel(idx, in[0].shape()));
                }
                return out(o, a.dtype);
            });
        e.grad_inputs = {0, 1};
        e.bad.push_back(bad("shapes differ", "[stack]", [](const Device& d) {
            ops::stack({f32({2, 3}, d), f32({3, 2}, d)}, 0);
        }));
        e.bad.push_back(bad("no tensors", "[stack]", [](const Device&) { ops::stack({}, 0); }));
        e.bad.push_back(bad("dim 3 of rank 2", "[stack]", [](const Device& d) {
            ops::stack({f32({2, 3}, d)}, 3);
        }));
        db.push_back(std::move(e));
    }
    {
        OpEntry e = cases_entry(
            "repeat_dim",
            {{{{2, 3}}, {0, 3}},
             {{{2, 3}}, {1, 2}},
             {{{2, 3, 4}}, {1, 2}},
             {{{2, 3}}, {-1, 1}},
             {{{2, 3}}, {0, 0}, Tag::empty},
             {{{1}}, {0, 4}, Tag::scalar},
             {{{0, 3}}, {1, 2}, Tag::empty}},
            [](V in, A a) { return ops::repeat_dim(in[0], a.ints[0], a.ints[1]); },
            [](In in, A a) {
                ref::Host x = ref::host(in[0]);
                const int d = ref::norm_dim(a.ints[0], x.rank());
                Dims s = x.shape;
                s[d] *= a.ints[1];
                ref::Host o = ref::filled(s, 0.0);
                for (int64_t i = 0; i < o.numel(); ++i) {
                    auto idx = ref::unravel(i, s);
                    idx[static_cast<std::size_t>(d)] %= x.shape[d];
                    o.v[static_cast<std::size_t>(i)] =
                        x.v[static_cast<std::size_t>(ref::ravel(idx, x.shape))];
                }
                return out(o, a.dtype);
            });
        e.bad.push_back(bad("times -1", "[repeat_dim]", [](const Device& d) {
            ops::repeat_dim(f32({2, 3}, d), 0, -1);
        }));
        e.bad.push_back(bad("dim 2 of rank 2", "[repeat_dim]", [](const Device& d) {
            ops::repeat_dim(f32({2, 3}, d), 2, 2);
        }));
        db.push_back(std::move(e));
    }
}

}  // namespace

void add_slice_entries(std::vector<OpEntry>& db) {
    add_slices(db);
    add_pieces(db);
    add_joins(db);
}

}  // namespace burn::opdb
