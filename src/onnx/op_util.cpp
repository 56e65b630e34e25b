// Helpers shared by the op entries (op_util.hpp).
#include "onnx/op_util.hpp"

#include <algorithm>

namespace burn::onnx::detail {

TensorAny to_rank(TensorAny x, int64_t r) {
    if (x.rank() >= r) return x;
    Dims shape = Dims::filled(static_cast<int>(r), 1);
    const int64_t lead = r - x.rank();
    for (int i = 0; i < x.rank(); ++i) shape[static_cast<int>(lead) + i] = x.shape()[i];
    return ops::reshape(std::move(x), shape);
}

std::pair<TensorAny, TensorAny> align(TensorAny a, TensorAny b) {
    const int64_t r = std::max<int64_t>(a.rank(), b.rank());
    return {to_rank(std::move(a), r), to_rank(std::move(b), r)};
}

std::vector<TensorAny> align_all(std::vector<TensorAny> xs) {
    int64_t r = 0;
    for (const TensorAny& x : xs) r = std::max<int64_t>(r, x.rank());
    for (TensorAny& x : xs) x = to_rank(std::move(x), r);
    return xs;
}

TensorAny scalar_like(const TensorAny& x, double value) {
    return ops::full(Dims::filled(x.rank(), 1), value, x.dtype(), x.device());
}

void check_same_dtype(const OpContext& c, const TensorAny& a, const TensorAny& b) {
    c.check(a.dtype() == b.dtype(), "inputs must have one element type, got ", a.dtype(), " ", a.shape(),
            " and ", b.dtype(), " ", b.shape());
}

TensorAny as_2d(const OpContext& c, const TensorAny& x, int64_t axis) {
    const int64_t r = x.rank();
    c.check(axis >= -r && axis <= r, "axis ", axis, " is out of range for rank ", r);
    if (axis < 0) axis += r;
    int64_t outer = 1, inner = 1;
    for (int64_t i = 0; i < r; ++i) (i < axis ? outer : inner) *= x.shape()[static_cast<int>(i)];
    return ops::reshape(x, Dims{outer, inner});
}

Dims dims_of(const std::vector<int64_t>& v) {
    BURN_CHECK_KIND(v.size() <= static_cast<std::size_t>(kMaxRank), shape, "[onnx] a shape of rank ",
                    v.size(), " (burn holds tensors of rank at most ", kMaxRank, ")");
    return Dims::from(v.data(), static_cast<int>(v.size()));
}

Window window_of(const OpContext& c, const TensorAny& x, std::vector<int64_t> kernel) {
    Window w;
    w.s = static_cast<int>(x.rank()) - 2;
    c.check(w.s >= 1 && w.s <= 3, "needs an input of rank 3 to 5 ([N, C, spatial...]), got ", x.shape());
    w.kernel = std::move(kernel);
    c.check(static_cast<int>(w.kernel.size()) == w.s, "kernel_shape has ", w.kernel.size(), " dims for ", w.s,
            " spatial dims");
    w.stride = c.attr_ints("strides", std::vector<int64_t>(static_cast<std::size_t>(w.s), 1));
    w.dilation = c.attr_ints("dilations", std::vector<int64_t>(static_cast<std::size_t>(w.s), 1));
    c.check(static_cast<int>(w.stride.size()) == w.s && static_cast<int>(w.dilation.size()) == w.s,
            "strides and dilations need one entry per spatial dim");
    const std::string auto_pad = c.attr_string("auto_pad", "NOTSET");
    w.pad_begin.assign(static_cast<std::size_t>(w.s), 0);
    w.pad_end.assign(static_cast<std::size_t>(w.s), 0);
    if (auto_pad == "NOTSET") {
        const std::vector<int64_t> pads =
            c.attr_ints("pads", std::vector<int64_t>(2 * static_cast<std::size_t>(w.s), 0));
        c.check(static_cast<int>(pads.size()) == 2 * w.s, "pads has ", pads.size(), " entries, expected ",
                2 * w.s);
        for (int i = 0; i < w.s; ++i) {
            w.pad_begin[static_cast<std::size_t>(i)] = pads[static_cast<std::size_t>(i)];
            w.pad_end[static_cast<std::size_t>(i)] = pads[static_cast<std::size_t>(i + w.s)];
        }
    } else if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
        for (int i = 0; i < w.s; ++i) {
            const auto k = static_cast<std::size_t>(i);
            const int64_t in = x.shape()[i + 2], out = (in + w.stride[k] - 1) / w.stride[k];
            const int64_t total =
                std::max<int64_t>(0, (out - 1) * w.stride[k] + (w.kernel[k] - 1) * w.dilation[k] + 1 - in);
            const int64_t small = total / 2, big = total - small;
            w.pad_begin[k] = auto_pad == "SAME_UPPER" ? small : big;
            w.pad_end[k] = auto_pad == "SAME_UPPER" ? big : small;
        }
    } else {
        c.check(auto_pad == "VALID", "auto_pad '", auto_pad,
                "' is not one of NOTSET, SAME_UPPER, SAME_LOWER, VALID");
    }
    for (int i = 0; i < w.s; ++i) {
        const auto k = static_cast<std::size_t>(i);
        c.check(w.stride[k] >= 1 && w.dilation[k] >= 1 && w.kernel[k] >= 1 && w.pad_begin[k] >= 0 &&
                    w.pad_end[k] >= 0,
                "strides, dilations and the kernel must be positive and pads non-negative");
    }
    return w;
}

}  // namespace burn::onnx::detail
