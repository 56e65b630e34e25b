// pad (composite, no row of its own): torch.nn.functional.pad's constant, reflect and edge (replicate)
// modes over any number of trailing dims, each dim a cat of the pad_border pieces (full, flipped narrow
// views, or the edge repeated) around the input, so every device runs it and autodiff differentiates it.
#include "ops/common.hpp"

namespace burn::ops {

using namespace detail;

namespace pad_impl {  // named, not anonymous: unity builds merge anonymous namespaces

const char* pad_mode_name(PadMode::Kind k) {
    return k == PadMode::Kind::constant ? "constant" : k == PadMode::Kind::reflect ? "reflect" : "edge";
}

/// The pad_border of count elements in front of (front) or behind x along d.
TensorAny pad_border(const TensorAny& x, int d, int64_t count, bool front, const PadMode& mode) {
    const int64_t n = x.shape()[d];
    switch (mode.kind) {
        case PadMode::Kind::constant: {
            Dims s = x.shape();
            s[d] = count;
            return full(s, mode.value, x.dtype(), x.device());
        }
        case PadMode::Kind::reflect:
            return flip(narrow(x, d, front ? 1 : n - 1 - count, count), Dims{d});
        case PadMode::Kind::edge:
            return repeat_dim(narrow(x, d, front ? 0 : n - 1, 1), d, count);
    }
    return x;
}

}  // namespace pad_impl

using namespace pad_impl;

TensorAny pad(TensorAny x, const Dims& pads, const PadMode& mode) {
    check_defined(x, "pad");
    const int r = x.rank();
    BURN_CHECK_KIND(
        pads.rank() % 2 == 0 && pads.rank() / 2 <= r, shape, "[pad] pads ", pads,
        " must hold (before, after) pairs for at most ", r, " dims of ", describe(x),
        ", starting from the last dim (torch.nn.functional.pad's order: left, right, top, bottom)");
    if (mode.kind == PadMode::Kind::constant && !is_float(x.dtype()) && !is_bool(x.dtype()))
        BURN_CHECK_KIND(mode.value == static_cast<double>(static_cast<int64_t>(mode.value)), dtype,
                        "[pad] value ", mode.value, " is not an integer, but the tensor is ", describe(x),
                        "; cast it to a float dtype first");
    for (int k = 0; k < pads.rank() / 2; ++k) {
        const int d = r - 1 - k;
        const int64_t before = pads[2 * k], after = pads[2 * k + 1];
        if (before < 0 || after < 0) {  // negative pads crop, as torch's constant mode
            const int64_t n = x.shape()[d];
            const int64_t b = before < 0 ? -before : 0, a = after < 0 ? -after : 0;
            BURN_CHECK_KIND(b + a <= n, shape, "[pad] pads (", before, ", ", after, ") crop ", b + a,
                            " elements of dim ", d, " of ", describe(x), ", which has ", n);
            x = narrow(std::move(x), d, b, n - b - a);
        }
        const int64_t pb = before > 0 ? before : 0, pa = after > 0 ? after : 0;
        if (pb == 0 && pa == 0) continue;
        const int64_t n = x.shape()[d];
        if (mode.kind == PadMode::Kind::reflect)
            BURN_CHECK_KIND(pb < n && pa < n, shape, "[pad] reflect padding (", pb, ", ", pa, ") of dim ", d,
                            " of ", describe(x), " must be smaller than the dim (", n,
                            "): a mirror does not repeat the edge; use PadMode::Edge() or pad less");
        if (mode.kind == PadMode::Kind::edge)
            BURN_CHECK_KIND(n > 0, shape, "[pad] ", pad_mode_name(mode.kind), " padding of dim ", d, " of ",
                            describe(x), " needs an element to repeat; the dim is empty");
        std::vector<TensorAny> parts;
        if (pb > 0) parts.push_back(pad_border(x, d, pb, true, mode));
        parts.push_back(x);
        if (pa > 0) parts.push_back(pad_border(x, d, pa, false, mode));
        x = cat(parts, d);
    }
    return x;
}

}  // namespace burn::ops
