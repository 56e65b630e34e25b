// Op-database entries of issue 20's border and window layouts, composites with `ops` = {}: pad
// (constant, reflect, edge; negative pads crop), unfold (sliding windows as a new last dim), and unfold4d /
// fold4d (im2col and col2im). The references map each output position to its input position in naive
// loops.
#include <algorithm>

#include "op_db.hpp"
#include "reference.hpp"

namespace burn::opdb {
namespace api_window {  // named, not anonymous: the unity build shares helper names across files

using V = const std::vector<TensorAny>&;
using In = const std::vector<TensorData>&;
using A = const Args&;

PadMode mode_of(A a) {
    const double v = a.reals.empty() ? 0 : a.reals[0];
    return a.ints[0] == 0 ? PadMode::Constant(v) : a.ints[0] == 1 ? PadMode::Reflect() : PadMode::Edge();
}

Dims pads_of(A a) {
    return dims_of(std::vector<int64_t>(a.ints.begin() + 1, a.ints.end()));
}

/// ints = {mode (0 constant, 1 reflect, 2 edge), pads...}, reals = {value}: torch's F.pad semantics.
TensorData pad_ref(In in, A a) {
    ref::Host x = ref::host(in[0]);
    const int r = x.rank();
    const Dims pads = pads_of(a);
    const int64_t mode = a.ints[0];
    const double value = a.reals.empty() ? 0 : a.reals[0];
    // per dim: the crop offset, the cropped length and the (non-negative) pads
    std::vector<int64_t> off(static_cast<std::size_t>(r), 0), len(static_cast<std::size_t>(r)),
        pb(static_cast<std::size_t>(r), 0);
    Dims os = x.shape;
    for (int d = 0; d < r; ++d) len[static_cast<std::size_t>(d)] = x.shape[d];
    for (int k = 0; k < pads.rank() / 2; ++k) {
        const auto d = static_cast<std::size_t>(r - 1 - k);
        const int64_t b = pads[2 * k], e = pads[2 * k + 1];
        off[d] = std::max<int64_t>(0, -b);
        len[d] = x.shape[static_cast<int>(d)] - off[d] - std::max<int64_t>(0, -e);
        pb[d] = std::max<int64_t>(0, b);
        os[static_cast<int>(d)] = len[d] + pb[d] + std::max<int64_t>(0, e);
    }
    ref::Host o = ref::filled(os, value);
    for (int64_t i = 0; i < o.numel(); ++i) {
        auto idx = ref::unravel(i, os);
        bool inside = true;
        for (int d = 0; d < r; ++d) {
            const auto u = static_cast<std::size_t>(d);
            int64_t j = idx[u] - pb[u];
            const int64_t n = len[u];
            if (j < 0 || j >= n) {
                if (mode == 0) {
                    inside = false;
                    break;
                }
                j = mode == 1 ? (j < 0 ? -j : 2 * (n - 1) - j) : std::clamp<int64_t>(j, 0, n - 1);
            }
            idx[u] = j + off[u];
        }
        if (inside)
            o.v[static_cast<std::size_t>(i)] = x.v[static_cast<std::size_t>(ref::ravel(idx, x.shape))];
    }
    return out(o, in[0].dtype());
}

/// ints = {dim, size, step}: out[..., w, ..., k] = x[..., w * step + k, ...].
TensorData unfold_ref(In in, A a) {
    ref::Host x = ref::host(in[0]);
    const int d = ref::norm_dim(a.ints[0], x.rank());
    const int64_t size = a.ints[1], step = a.ints[2];
    const int64_t windows = (x.shape[d] - size) / step + 1;
    Dims os = x.shape;
    os[d] = windows;
    os.push_back(size);
    ref::Host o = ref::filled(os, 0);
    for (int64_t i = 0; i < o.numel(); ++i) {
        auto idx = ref::unravel(i, os);
        const int64_t k = idx.back();
        idx.pop_back();
        idx[static_cast<std::size_t>(d)] = idx[static_cast<std::size_t>(d)] * step + k;
        o.v[static_cast<std::size_t>(i)] = x.v[static_cast<std::size_t>(ref::ravel(idx, x.shape))];
    }
    return out(o, in[0].dtype());
}

/// The settings of unfold4d and fold4d from ints (after `skip` leading ints): kernel, stride, padding,
/// dilation, two each.
struct Window {
    int64_t kh, kw, sh, sw, ph, pw, dh, dw;
    UnfoldOptions options() const {
        auto u = [](int64_t v) { return static_cast<std::size_t>(v); };
        return UnfoldOptions{{u(sh), u(sw)}, {u(ph), u(pw)}, {u(dh), u(dw)}};
    }
    std::array<std::size_t, 2> kernel() const {
        return {static_cast<std::size_t>(kh), static_cast<std::size_t>(kw)};
    }
    int64_t windows(int64_t n, int64_t k, int64_t s, int64_t p, int64_t d) const {
        return (n + 2 * p - d * (k - 1) - 1) / s + 1;
    }
};
Window window_of(A a, std::size_t skip) {
    const auto& v = a.ints;
    return {v[skip],     v[skip + 1], v[skip + 2], v[skip + 3],
            v[skip + 4], v[skip + 5], v[skip + 6], v[skip + 7]};
}

/// Calls fn(n, c, i, j, y, x, row, col, r, q): tap (i, j) of window (y, x) of channel c reads image
/// position (r, q) (possibly in the padding) and is column element [n, row, col].
template <class Fn>
void for_each_tap(const Dims& image, const Window& w, Fn&& fn) {
    const int64_t oh = w.windows(image[2], w.kh, w.sh, w.ph, w.dh),
                  ow = w.windows(image[3], w.kw, w.sw, w.pw, w.dw);
    for (int64_t n = 0; n < image[0]; ++n)
        for (int64_t c = 0; c < image[1]; ++c)
            for (int64_t i = 0; i < w.kh; ++i)
                for (int64_t j = 0; j < w.kw; ++j)
                    for (int64_t y = 0; y < oh; ++y)
                        for (int64_t x = 0; x < ow; ++x)
                            fn(n, (c * w.kh + i) * w.kw + j, y * ow + x, c, y * w.sh + i * w.dh - w.ph,
                               x * w.sw + j * w.dw - w.pw);
}

/// ints = {kh, kw, sh, sw, ph, pw, dh, dw}: PyTorch's F.unfold.
TensorData unfold4d_ref(In in, A a) {
    ref::Host x = ref::host(in[0]);
    const Window w = window_of(a, 0);
    const Dims& s = x.shape;
    const int64_t oh = w.windows(s[2], w.kh, w.sh, w.ph, w.dh), ow = w.windows(s[3], w.kw, w.sw, w.pw, w.dw);
    ref::Host o = ref::filled(Dims{s[0], s[1] * w.kh * w.kw, oh * ow}, 0);
    for_each_tap(s, w, [&](int64_t n, int64_t row, int64_t col, int64_t c, int64_t r, int64_t q) {
        if (r < 0 || r >= s[2] || q < 0 || q >= s[3]) return;
        o.v[static_cast<std::size_t>((n * o.shape[1] + row) * o.shape[2] + col)] =
            x.v[static_cast<std::size_t>(((n * s[1] + c) * s[2] + r) * s[3] + q)];
    });
    return out(o, in[0].dtype());
}

/// ints = {H, W, kh, kw, sh, sw, ph, pw, dh, dw}: PyTorch's F.fold.
TensorData fold4d_ref(In in, A a) {
    ref::Host cols = ref::host(in[0]);
    const Window w = window_of(a, 2);
    const int64_t n = cols.shape[0], c = cols.shape[1] / (w.kh * w.kw);
    const Dims image{n, c, a.ints[0], a.ints[1]};
    ref::Host o = ref::filled(image, 0);
    for_each_tap(image, w, [&](int64_t b, int64_t row, int64_t col, int64_t ch, int64_t r, int64_t q) {
        if (r < 0 || r >= image[2] || q < 0 || q >= image[3]) return;
        o.v[static_cast<std::size_t>(((b * c + ch) * image[2] + r) * image[3] + q)] +=
            cols.v[static_cast<std::size_t>((b * cols.shape[1] + row) * cols.shape[2] + col)];
    });
    return out(o, in[0].dtype());
}

void add_entries(std::vector<OpEntry>& db) {
    {
        OpEntry e = entry("pad", {}, kAll);
        e.samples = [](DType dt) {
            InputGen g{"pad", dt};
            const double v = is_float(dt) ? 0.5 : 1;
            return std::vector<Sample>{
                sample(Tag::basic, {g({2, 3, 4})}, {0, 1, 2}, {v}, "constant, last dim"),
                sample(Tag::basic, {g({2, 3, 4})}, {1, 1, 0, 2, 1}, {}, "reflect, two dims"),
                sample(Tag::basic, {g({2, 3, 4})}, {1, 3, 3}, {}, "reflect by n - 1"),
                sample(Tag::basic, {g({2, 3, 4})}, {2, 2, 2, 1, 1, 1, 0}, {}, "edge, three dims"),
                sample(Tag::basic, {g({2, 3, 4})}, {0, -1, 2, 1, -1}, {v}, "negative pads crop"),
                sample(Tag::basic, {g({3, 4})}, {2, -1, 1}, {}, "edge after a crop"),
                sample(Tag::scalar, {g({1})}, {2, 2, 3}, {}, "edge of one element"),
                sample(Tag::empty, {g({0, 3})}, {0, 1, 1}, {v}, "constant, empty dim 0"),
                sample(Tag::empty, {g({2, 0})}, {0, 1, 2}, {v}, "constant around an empty dim")};
        };
        e.forward = [](V in, A a) { return ops::pad(in[0], pads_of(a), mode_of(a)); };
        e.reference = pad_ref;
        e.bad.push_back(bad("odd pads", "[pad]", [](const Device& d) {
            ops::pad(f32({2, 3}, d), Dims{1, 2, 3}, PadMode::Constant(0));
        }));
        e.bad.push_back(bad("more pairs than dims", "[pad]", [](const Device& d) {
            ops::pad(f32({3}, d), Dims{1, 1, 1, 1}, PadMode::Constant(0));
        }));
        e.bad.push_back(bad("reflect by n", "[pad]", [](const Device& d) {
            ops::pad(f32({2, 3}, d), Dims{3, 0}, PadMode::Reflect());
        }));
        e.bad.push_back(bad("edge of an empty dim", "[pad]", [](const Device& d) {
            ops::pad(f32({2, 0}, d), Dims{1, 1}, PadMode::Edge());
        }));
        e.bad.push_back(bad("crop past the dim", "[pad]", [](const Device& d) {
            ops::pad(f32({2, 3}, d), Dims{-2, -2}, PadMode::Constant(0));
        }));
        e.bad.push_back(bad("fractional value for ints", "[pad]", [](const Device& d) {
            ops::pad(ops::full({2}, 1, DType::i32, d), Dims{1, 1}, PadMode::Constant(0.5));
        }));
        e.bad.push_back(bad("undefined tensor", "[pad]", [](const Device&) {
            ops::pad(TensorAny(), Dims{1, 1}, PadMode::Constant(0));
        }));
        e.differentiable = true;
        e.grad_inputs = {0};
        db.push_back(std::move(e));
    }
    {
        OpEntry e = entry("unfold", {}, kAll);
        e.samples = [](DType dt) {
            InputGen g{"unfold", dt};
            return std::vector<Sample>{
                sample(Tag::basic, {g({2, 5})}, {1, 2, 1}),
                sample(Tag::basic, {g({2, 5})}, {1, 3, 2}, {}, "step 2, one left over"),
                sample(Tag::basic, {g({4, 2, 3})}, {0, 2, 2}),
                sample(Tag::basic, {g({3, 4})}, {-1, 4, 1}, {}, "one window"),
                sample(Tag::basic, {g({3, 4})}, {1, 1, 3}, {}, "size 1"),
                sample(Tag::scalar, {g({1})}, {0, 1, 1}),
                sample(Tag::empty, {g({0, 3})}, {1, 2, 1}),
                sample(Tag::empty, {g({2, 3})}, {1, 0, 1}, {}, "size 0")};
        };
        e.forward = [](V in, A a) { return ops::unfold(in[0], a.ints[0], a.ints[1], a.ints[2]); };
        e.reference = unfold_ref;
        e.bad.push_back(bad("size past the dim", "[unfold]", [](const Device& d) {
            ops::unfold(f32({2, 3}, d), 1, 4, 1);
        }));
        e.bad.push_back(bad("step 0", "[unfold]", [](const Device& d) {
            ops::unfold(f32({2, 3}, d), 1, 2, 0);
        }));
        e.bad.push_back(bad("dim 2 of rank 2", "[unfold]", [](const Device& d) {
            ops::unfold(f32({2, 3}, d), 2, 1, 1);
        }));
        e.bad.push_back(
            bad("undefined tensor", "[unfold]", [](const Device&) { ops::unfold(TensorAny(), 0, 1, 1); }));
        e.differentiable = true;
        e.grad_inputs = {0};
        db.push_back(std::move(e));
    }
    {
        OpEntry e = entry("unfold4d", {}, kAll);
        e.samples = [](DType dt) {
            InputGen g{"unfold4d", dt};
            return std::vector<Sample>{
                sample(Tag::basic, {g({2, 3, 4, 5})}, {2, 2, 1, 1, 0, 0, 1, 1}, {}, "2 x 2"),
                sample(Tag::basic, {g({1, 2, 6, 5})}, {3, 2, 2, 1, 1, 2, 1, 2}, {},
                       "stride 2 x 1, padding 1 x 2, dilation 1 x 2"),
                sample(Tag::basic, {g({2, 1, 5, 5})}, {3, 3, 2, 2, 1, 1, 1, 1}, {},
                       "3 x 3, stride 2, padding 1"),
                sample(Tag::scalar, {g({1, 1, 1, 1})}, {1, 1, 1, 1, 0, 0, 1, 1}),
                sample(Tag::empty, {g({0, 2, 3, 3})}, {2, 2, 1, 1, 0, 0, 1, 1}, {}, "empty batch")};
        };
        e.forward = [](V in, A a) {
            const Window w = window_of(a, 0);
            return ops::unfold4d(in[0], w.kernel(), w.options());
        };
        e.reference = unfold4d_ref;
        e.bad.push_back(bad("kernel past the padded image", "[unfold4d]", [](const Device& d) {
            ops::unfold4d(f32({1, 1, 3, 3}, d), {2, 4});
        }));
        e.bad.push_back(bad("rank 3", "[unfold4d]", [](const Device& d) {
            ops::unfold4d(f32({1, 3, 3}, d), {2, 2});
        }));
        e.bad.push_back(bad("stride 0", "[unfold4d]", [](const Device& d) {
            ops::unfold4d(f32({1, 1, 3, 3}, d), {2, 2}, UnfoldOptions{{0, 1}, {0, 0}, {1, 1}});
        }));
        e.bad.push_back(bad("undefined tensor", "[unfold4d]", [](const Device&) {
            ops::unfold4d(TensorAny(), {1, 1});
        }));
        e.differentiable = true;
        e.grad_inputs = {0};
        db.push_back(std::move(e));
    }
    {
        OpEntry e = entry("fold4d", {}, kNumeric);
        e.samples = [](DType dt) {
            InputGen g{"fold4d", dt};
            return std::vector<Sample>{
                sample(Tag::basic, {g({2, 12, 12})}, {4, 5, 2, 2, 1, 1, 0, 0, 1, 1}, {}, "2 x 2 into 4 x 5"),
                sample(Tag::basic, {g({1, 12, 24})}, {7, 6, 3, 2, 2, 1, 1, 1, 1, 2}, {},
                       "stride 2 x 1, padding 1 x 1, dilation 1 x 2"),
                sample(Tag::basic, {g({1, 9, 4})}, {3, 3, 3, 3, 2, 2, 1, 1, 1, 1}, {},
                       "3 x 3, stride 2, padding 1"),
                sample(Tag::scalar, {g({1, 1, 1})}, {1, 1, 1, 1, 1, 1, 0, 0, 1, 1}),
                sample(Tag::empty, {g({0, 4, 4})}, {3, 3, 2, 2, 1, 1, 0, 0, 1, 1}, {}, "empty batch")};
        };
        e.forward = [](V in, A a) {
            const Window w = window_of(a, 2);
            return ops::fold4d(in[0],
                               {static_cast<std::size_t>(a.ints[0]), static_cast<std::size_t>(a.ints[1])},
                               w.kernel(), w.options());
        };
        e.reference = fold4d_ref;
        e.bad.push_back(bad("windows do not match output_size", "[fold4d]", [](const Device& d) {
            ops::fold4d(f32({1, 4, 11}, d), {4, 5}, {2, 2});
        }));
        e.bad.push_back(bad("rows not a multiple of kh * kw", "[fold4d]", [](const Device& d) {
            ops::fold4d(f32({1, 6, 12}, d), {4, 5}, {2, 2});
        }));
        e.bad.push_back(bad("rank 4", "[fold4d]", [](const Device& d) {
            ops::fold4d(f32({1, 4, 3, 4}, d), {4, 5}, {2, 2});
        }));
        e.bad.push_back(bad("undefined tensor", "[fold4d]", [](const Device&) {
            ops::fold4d(TensorAny(), {1, 1}, {1, 1});
        }));
        e.differentiable = true;
        e.grad_inputs = {0};
        db.push_back(std::move(e));
    }
}

}  // namespace api_window

void add_api_window_entries(std::vector<OpEntry>& db) {
    api_window::add_entries(db);
}

}  // namespace burn::opdb
