// unfold4d and fold4d (composites, no rows of their own): im2col and col2im, burn's unfold4d and
// PyTorch's F.unfold / F.fold. Both index the zero-padded image flattened to [N, C, Hp * Wp] with one Int
// tensor of window positions [kh * kw * L] (tap-major, then window), built on the host: unfold4d is a
// select of those positions, fold4d a select_assign (which adds, so overlapping windows sum) into zeros.
// Every device runs them and autodiff differentiates them through select's and select_assign's rules.
#include <climits>
#include <vector>

#include "burn/tensor/module_ops.hpp"
#include "ops/common.hpp"

namespace burn::ops {

using namespace detail;

namespace {

struct FoldGeometry {
    int64_t kh, kw, sh, sw, ph, pw, dh, dw;
    int64_t hp, wp;  // the padded image
    int64_t oh, ow;  // window positions per spatial dim
};

FoldGeometry geometry(const char* op, int64_t h, int64_t w, std::array<std::size_t, 2> k,
                      const UnfoldOptions& o, const TensorAny& x) {
    for (int i = 0; i < 2; ++i) {
        BURN_CHECK(k[i] >= 1, "[", op, "] kernel_size must be at least 1 in each dim, got ", k[0], " x ",
                   k[1]);
        BURN_CHECK(o.stride[i] >= 1, "[", op, "] stride must be at least 1 in each dim, got ", o.stride[0],
                   " x ", o.stride[1]);
        BURN_CHECK(o.dilation[i] >= 1, "[", op, "] dilation must be at least 1 in each dim, got ",
                   o.dilation[0], " x ", o.dilation[1]);
        BURN_CHECK(k[i] <= (std::size_t(1) << 31) && o.stride[i] <= (std::size_t(1) << 31) &&
                       o.padding[i] <= (std::size_t(1) << 31) && o.dilation[i] <= (std::size_t(1) << 31),
                   "[", op, "] kernel_size, stride, padding and dilation must each be at most 2^31");
    }
    FoldGeometry g{};
    g.kh = static_cast<int64_t>(k[0]), g.kw = static_cast<int64_t>(k[1]);
    g.sh = static_cast<int64_t>(o.stride[0]), g.sw = static_cast<int64_t>(o.stride[1]);
    g.ph = static_cast<int64_t>(o.padding[0]), g.pw = static_cast<int64_t>(o.padding[1]);
    g.dh = static_cast<int64_t>(o.dilation[0]), g.dw = static_cast<int64_t>(o.dilation[1]);
    g.hp = h + 2 * g.ph, g.wp = w + 2 * g.pw;
    const int64_t eh = g.dh * (g.kh - 1) + 1, ew = g.dw * (g.kw - 1) + 1;  // the dilated window
    BURN_CHECK_KIND(eh <= g.hp && ew <= g.wp, shape, "[", op, "] the kernel ", g.kh, " x ", g.kw,
                    " (dilated: ", eh, " x ", ew, ") does not fit the padded image ", g.hp, " x ", g.wp, " (",
                    h, " x ", w, " with padding ", g.ph, " x ", g.pw, "); operand ", describe(x),
                    ": use a smaller kernel or dilation, or more padding");
    g.oh = (g.hp - eh) / g.sh + 1, g.ow = (g.wp - ew) / g.sw + 1;
    return g;
}

/// The flat padded-image position of tap (i, j) of window (y, x), ordered [i, j, y, x].
TensorAny positions(const FoldGeometry& g, const Device& device) {
    std::vector<int64_t> pos;
    pos.reserve(static_cast<std::size_t>(g.kh * g.kw * g.oh * g.ow));
    for (int64_t i = 0; i < g.kh; ++i)
        for (int64_t j = 0; j < g.kw; ++j)
            for (int64_t y = 0; y < g.oh; ++y)
                for (int64_t x = 0; x < g.ow; ++x)
                    pos.push_back((y * g.sh + i * g.dh) * g.wp + x * g.sw + j * g.dw);
    const DType it = g.hp * g.wp <= INT32_MAX ? DType::i32 : DType::i64;
    return from_data(TensorData(pos, Dims{static_cast<int64_t>(pos.size())}).convert(it), device);
}

}  // namespace

TensorAny unfold4d(TensorAny x, std::array<std::size_t, 2> kernel_size, const UnfoldOptions& options) {
    const char* op = "unfold4d";
    check_defined(x, op);
    BURN_CHECK_KIND(x.rank() == 4, shape, "[", op,
                    "] input must be [batch, channels, height, width] (rank 4), got ", describe(x));
    const FoldGeometry g = geometry(op, x.shape()[2], x.shape()[3], kernel_size, options, x);
    const int64_t n = x.shape()[0], c = x.shape()[1];
    TensorAny idx = positions(g, x.device());
    if (g.ph || g.pw) x = pad(std::move(x), Dims{g.pw, g.pw, g.ph, g.ph}, PadMode::Constant(0));
    x = reshape(std::move(x), Dims{n, c, g.hp * g.wp});
    TensorAny cols = select(std::move(x), 2, std::move(idx));  // [n, c, kh * kw * L]
    return reshape(std::move(cols), Dims{n, c * g.kh * g.kw, g.oh * g.ow});
}

TensorAny fold4d(TensorAny columns, std::array<std::size_t, 2> output_size,
                 std::array<std::size_t, 2> kernel_size, const UnfoldOptions& options) {
    const char* op = "fold4d";
    check_defined(columns, op);
    BURN_CHECK_KIND(columns.rank() == 3, shape, "[", op,
                    "] columns must be [batch, channels * kh * kw, windows] (rank 3), got ",
                    describe(columns));
    BURN_CHECK(output_size[0] <= (std::size_t(1) << 31) && output_size[1] <= (std::size_t(1) << 31), "[", op,
               "] output_size must be at most 2^31 in each dim");
    const FoldGeometry g = geometry(op, static_cast<int64_t>(output_size[0]),
                                    static_cast<int64_t>(output_size[1]), kernel_size, options, columns);
    const int64_t n = columns.shape()[0], rows = columns.shape()[1], windows = columns.shape()[2];
    BURN_CHECK_KIND(rows % (g.kh * g.kw) == 0, shape, "[", op, "] the columns' dim 1 (", rows,
                    ") must divide by kh * kw = ", g.kh * g.kw, "; operand ", describe(columns));
    BURN_CHECK_KIND(windows == g.oh * g.ow, shape, "[", op, "] the columns hold ", windows,
                    " windows, but output_size ", output_size[0], " x ", output_size[1], " with kernel ",
                    g.kh, " x ", g.kw, ", stride ", g.sh, " x ", g.sw, ", padding ", g.ph, " x ", g.pw,
                    " and dilation ", g.dh, " x ", g.dw, " has ", g.oh, " x ", g.ow, " = ", g.oh * g.ow,
                    "; operand ", describe(columns));
    const int64_t c = rows / (g.kh * g.kw);
    TensorAny values = reshape(std::move(columns), Dims{n, c, g.kh * g.kw * windows});
    TensorAny image = full(Dims{n, c, g.hp * g.wp}, 0, values.dtype(), values.device());
    TensorAny idx = positions(g, values.device());  // before values moves (argument order is unspecified)
    image = select_assign(std::move(image), 2, std::move(idx), std::move(values));
    image = reshape(std::move(image), Dims{n, c, g.hp, g.wp});
    if (g.ph || g.pw) image = pad(std::move(image), Dims{-g.pw, -g.pw, -g.ph, -g.ph}, PadMode::Constant(0));
    return image;
}

}  // namespace burn::ops
