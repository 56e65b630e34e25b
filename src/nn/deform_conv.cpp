// DeformConv2d (burn/nn/deform_conv.hpp): the taps' sampling positions become one grid_sample_2d per
// offset group (all taps and output positions at once), the mask scales the samples, and a grouped
// matmul with the weight sums them, as torchvision's im2col with offsets followed by its GEMM.
#include "burn/nn/deform_conv.hpp"

#include <vector>

#include "burn/tensor/grid_sample.hpp"
#include "ops/module_ops_internal.hpp"

namespace burn {

namespace ops {

namespace {

int64_t out_size(int64_t in, std::size_t begin, std::size_t end, std::size_t k, std::size_t stride,
                 std::size_t dilation) {
    const int64_t span = static_cast<int64_t>(dilation * (k - 1) + 1);
    const int64_t padded = in + static_cast<int64_t>(begin + end);
    return padded < span ? 0 : (padded - span) / static_cast<int64_t>(stride) + 1;
}

}  // namespace

TensorAny deform_conv2d(const TensorAny& x, const TensorAny& offset, const TensorAny& weight,
                        const TensorAny& mask, const TensorAny& bias, const DeformConvOptions& o) {
    const char* op = "deform_conv2d";
    BURN_CHECK(x.defined() && offset.defined() && weight.defined(), "[", op,
               "] needs an input, offsets and a weight");
    BURN_CHECK_KIND(
        x.rank() == 4 && weight.rank() == 4 && offset.rank() == 4, shape, "[", op,
        "] expects input [batch, channels, height, width], offset [batch, 2 * offset_groups * kh * kw, "
        "h_out, w_out] and weight [out, in / weight_groups, kh, kw]; got ",
        x.shape(), ", ", offset.shape(), " and ", weight.shape());
    const int64_t n = x.shape()[0], c = x.shape()[1], h = x.shape()[2], w = x.shape()[3];
    const int64_t c_out = weight.shape()[0], kh = weight.shape()[2], kw = weight.shape()[3], k = kh * kw;
    const auto wg = static_cast<int64_t>(o.weight_groups), og = static_cast<int64_t>(o.offset_groups);
    BURN_CHECK(
        wg > 0 && og > 0 && o.stride[0] > 0 && o.stride[1] > 0 && o.dilation[0] > 0 && o.dilation[1] > 0, "[",
        op, "] stride, dilation and both group counts must be positive");
    BURN_CHECK_KIND(c == weight.shape()[1] * wg && c_out % wg == 0, shape, "[", op, "] input of shape ",
                    x.shape(), " has ", c, " channels; the weight ", weight.shape(), " with ", wg,
                    " weight group(s) expects ", weight.shape()[1] * wg,
                    " (and out channels divisible by the groups)");
    BURN_CHECK_KIND(c % og == 0, shape, "[", op, "] ", c, " input channels do not split into ", og,
                    " offset groups");
    const int64_t ho = out_size(h, o.padding[0].first, o.padding[0].second, static_cast<std::size_t>(kh),
                                o.stride[0], o.dilation[0]);
    const int64_t wo = out_size(w, o.padding[1].first, o.padding[1].second, static_cast<std::size_t>(kw),
                                o.stride[1], o.dilation[1]);
    BURN_CHECK_KIND(ho > 0 && wo > 0, shape, "[", op, "] kernel ", kh, " x ", kw, " (dilation ",
                    o.dilation[0], " x ", o.dilation[1], ") does not fit the padded image of input ",
                    x.shape());
    const Dims offset_shape{n, 2 * og * k, ho, wo};
    BURN_CHECK_KIND(offset.shape() == offset_shape, shape, "[", op, "] offset of shape ", offset.shape(),
                    ", expected ", offset_shape, " (2 x ", og, " offset group(s) x ", kh, " x ", kw,
                    " taps, output ", ho, " x ", wo, ")");
    if (mask.defined()) {
        const Dims mask_shape{n, og * k, ho, wo};
        BURN_CHECK_KIND(mask.shape() == mask_shape, shape, "[", op, "] mask of shape ", mask.shape(),
                        ", expected ", mask_shape);
    }
    if (bias.defined())
        BURN_CHECK_KIND(bias.shape() == Dims{c_out}, shape, "[", op, "] bias of shape ", bias.shape(),
                        ", expected [", c_out, "]");
    const int64_t l = ho * wo;

    // Where each tap of each output position reads without offsets, as grid_sample's normalised
    // coordinates (align_corners false: pixel p is at (2p + 1) / size - 1); an offset of d pixels
    // moves it by 2d / size.
    std::vector<double> base_x(static_cast<std::size_t>(k * l)), base_y(base_x.size());
    for (int64_t i = 0; i < kh; ++i)
        for (int64_t j = 0; j < kw; ++j)
            for (int64_t y = 0; y < ho; ++y)
                for (int64_t xo = 0; xo < wo; ++xo) {
                    const std::size_t at = static_cast<std::size_t>(((i * kw + j) * ho + y) * wo + xo);
                    const double py = static_cast<double>(y * static_cast<int64_t>(o.stride[0]) -
                                                          static_cast<int64_t>(o.padding[0].first) +
                                                          i * static_cast<int64_t>(o.dilation[0]));
                    const double px = static_cast<double>(xo * static_cast<int64_t>(o.stride[1]) -
                                                          static_cast<int64_t>(o.padding[1].first) +
                                                          j * static_cast<int64_t>(o.dilation[1]));
                    base_y[at] = (2 * py + 1) / static_cast<double>(h) - 1;
                    base_x[at] = (2 * px + 1) / static_cast<double>(w) - 1;
                }
    const Dims tap_shape{1, 1, k, ho, wo};  // broadcast over the batch and the offset groups
    auto constant = [&](const std::vector<double>& v) {
        return from_data(TensorData(v, tap_shape).convert(x.dtype()), x.device());
    };
    TensorAny off = reshape(offset, Dims{n, og, k, 2, ho, wo});
    TensorAny gy = add(mul_scalar(select_dim(off, 3, 0), 2.0 / static_cast<double>(h)), constant(base_y));
    TensorAny gx = add(mul_scalar(select_dim(off, 3, 1), 2.0 / static_cast<double>(w)), constant(base_x));
    TensorAny grid = reshape(stack({gx, gy}, -1), Dims{n * og, k * ho, wo, 2});
    GridSampleOptions gs;
    gs.mode = InterpolateMode::bilinear;
    gs.padding_mode = GridSamplePaddingMode::zeros;
    gs.align_corners = false;
    // [n * og, c / og, k * ho, wo]: each offset group's channels sampled at its own positions
    TensorAny cols = grid_sample_2d(reshape(x, Dims{n * og, c / og, h, w}), grid, gs);
    cols = reshape(cols, Dims{n, og, c / og, k, l});
    if (mask.defined()) cols = mul(cols, reshape(mask, Dims{n, og, 1, k, l}));
    // channel-major columns [n, wg, (c / wg) * k, l] against the weight [wg, c_out / wg, (c / wg) * k]
    cols = reshape(cols, Dims{n, wg, (c / wg) * k, l});
    TensorAny out = matmul(reshape(weight, Dims{1, wg, c_out / wg, (c / wg) * k}), cols);
    out = reshape(out, Dims{n, c_out, ho, wo});
    if (bias.defined()) out = add(out, reshape(bias, Dims{1, c_out, 1, 1}));
    return out;
}

}  // namespace ops

namespace nn {

DeformConv2d DeformConv2dConfig::init(const Device& device) const {
    const char* name = "DeformConv2dConfig";
    const std::size_t c_in = channels[0], c_out = channels[1];
    BURN_CHECK(c_in > 0 && c_out > 0, "[", name, "] channels must be positive, got ", c_in, " in and ", c_out,
               " out");
    BURN_CHECK(kernel_size[0] > 0 && kernel_size[1] > 0 && stride[0] > 0 && stride[1] > 0 &&
                   dilation[0] > 0 && dilation[1] > 0,
               "[", name, "] kernel_size, stride and dilation must be positive");
    BURN_CHECK(weight_groups > 0 && c_in % weight_groups == 0 && c_out % weight_groups == 0, "[", name,
               "] both channel counts must be divisible by weight_groups; got ", c_in, " in, ", c_out,
               " out, weight_groups ", weight_groups);
    BURN_CHECK(offset_groups > 0 && c_in % offset_groups == 0, "[", name, "] ", c_in,
               " input channels do not split into ", offset_groups, " offset groups");
    DeformConv2d m;
    const std::size_t per_group = c_in / weight_groups, vol = kernel_size[0] * kernel_size[1];
    const auto fan_in = static_cast<int64_t>(per_group * vol), fan_out = static_cast<int64_t>(c_out * vol);
    m.weight = Param<Tensor<4>>(
        initializer.init<4>({c_out, per_group, kernel_size[0], kernel_size[1]}, fan_in, fan_out, device));
    if (bias) m.bias = Param<Tensor<1>>(initializer.init<1>({c_out}, fan_in, fan_out, device));
    m.stride = stride;
    m.kernel_size = kernel_size;
    m.dilation = dilation;
    m.weight_groups = weight_groups;
    m.offset_groups = offset_groups;
    m.padding = padding;
    return m;
}

Tensor<4> DeformConv2d::forward(const Tensor<4>& input, const Tensor<4>& offset,
                                const std::optional<Tensor<4>>& mask) const {
    const auto d = input.dims();
    DeformConvOptions o;
    o.stride = stride;
    o.dilation = dilation;
    o.weight_groups = weight_groups;
    o.offset_groups = offset_groups;
    const auto pads = padding_pairs(padding, {d[2], d[3]}, kernel_size, stride, dilation);
    o.padding = {pads[0], pads[1]};
    return Tensor<4>(ops::deform_conv2d(input.handle(), offset.handle(), weight.val().handle(),
                                        mask ? mask->handle() : TensorAny(),
                                        bias ? bias->val().handle() : TensorAny(), o));
}

}  // namespace nn

}  // namespace burn
