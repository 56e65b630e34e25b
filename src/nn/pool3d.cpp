// 3-D pools as the 2-D pool over (height, width) followed by the 1-D pool over depth (box windows
// factor per dimension; see include/burn/nn/pool3d.hpp).
#include "burn/nn/pool3d.hpp"

#include <string>

#include "ops/module_ops_internal.hpp"

namespace burn::nn {

namespace {

using ops::detail::PoolSpec;

void check_positive3(const char* name, const char* what, const std::array<std::size_t, 3>& v) {
    BURN_CHECK(v[0] > 0 && v[1] > 0 && v[2] > 0, "[", name, "] ", what, " must be positive, got ", v[0],
               " x ", v[1], " x ", v[2]);
}

void check_input(const char* name, const TensorAny& input) {
    BURN_CHECK(input.defined(), "[", name, "] called on an undefined tensor");
    BURN_CHECK_KIND(input.rank() == 5, shape, "[", name,
                    "] expects input [batch, channels, depth, height, width] (rank 5), got shape ",
                    input.shape());
}

std::array<std::size_t, 3> spatial(const TensorAny& x) {
    return {static_cast<std::size_t>(x.shape()[2]), static_cast<std::size_t>(x.shape()[3]),
            static_cast<std::size_t>(x.shape()[4])};
}

/// The pool of one stage: dims (a, b) of the 3 spatial dims as the 2-D pool's (height, width).
PoolSpec stage_spec(const std::array<std::size_t, 3>& k, const std::array<std::size_t, 3>& s,
                    const std::array<std::size_t, 3>& d, const PaddingPairs3d& pads, bool ceil_mode,
                    bool depth) {
    PoolSpec spec;
    for (int i = 0; i < 2; ++i) {
        // depth stage: a unit "height" and the depth as "width"; plane stage: height and width.
        const bool unit = depth && i == 0;
        const std::size_t dim = depth ? 0 : static_cast<std::size_t>(i + 1);
        spec.kernel[i] = unit ? 1 : static_cast<int64_t>(k[dim]);
        spec.stride[i] = unit ? 1 : static_cast<int64_t>(s[dim]);
        spec.dilation[i] = unit ? 1 : static_cast<int64_t>(d[dim]);
        spec.pad_begin[i] = unit ? 0 : static_cast<int64_t>(pads[dim].first);
        spec.pad_end[i] = unit ? 0 : static_cast<int64_t>(pads[dim].second);
    }
    spec.ceil_mode = ceil_mode;
    return spec;
}

/// plane(x [N, C * D, H, W]) -> [N, C * D, Ho, Wo], then depth(... [N, C * Ho * Wo, 1, D]) -> [.., 1, Do];
/// returns [N, C, Do, Ho, Wo].
template <class Plane, class Depth>
TensorAny separable(const TensorAny& x, Plane plane, Depth depth) {
    const Dims s = x.shape();
    const int64_t n = s[0], c = s[1], d = s[2];
    TensorAny y = plane(ops::reshape(x, Dims{n, c * d, s[3], s[4]}));
    const int64_t ho = y.shape()[2], wo = y.shape()[3];
    y = ops::swap_dims(ops::reshape(std::move(y), Dims{n, c, d, ho * wo}), 2, 3);  // [N, C, Ho*Wo, D]
    y = depth(ops::reshape(std::move(y), Dims{n, c * ho * wo, 1, d}));
    const int64_t dout = y.shape()[3];
    y = ops::swap_dims(ops::reshape(std::move(y), Dims{n, c, ho * wo, dout}), 2, 3);  // [N, C, Do, Ho*Wo]
    return ops::reshape(std::move(y), Dims{n, c, dout, ho, wo});
}

}  // namespace

MaxPool3d MaxPool3dConfig::init() const {
    check_positive3("MaxPool3dConfig", "kernel_size", kernel_size);
    check_positive3("MaxPool3dConfig", "strides", strides);
    check_positive3("MaxPool3dConfig", "dilation", dilation);
    return MaxPool3d{kernel_size, strides, padding, dilation, ceil_mode};
}

TensorAny MaxPool3d::forward_any(const TensorAny& input) const {
    check_input("MaxPool3d", input);
    const auto pads = padding_pairs(padding, spatial(input), kernel_size, strides, dilation);
    const PoolSpec plane = stage_spec(kernel_size, strides, dilation, pads, ceil_mode, false);
    const PoolSpec depth = stage_spec(kernel_size, strides, dilation, pads, ceil_mode, true);
    return separable(
        input,
        [&](TensorAny x) { return ops::detail::max_pool2d_nd(std::move(x), plane, "MaxPool3d").first; },
        [&](TensorAny x) { return ops::detail::max_pool2d_nd(std::move(x), depth, "MaxPool3d").first; });
}

AvgPool3d AvgPool3dConfig::init() const {
    check_positive3("AvgPool3dConfig", "kernel_size", kernel_size);
    check_positive3("AvgPool3dConfig", "strides", strides);
    return AvgPool3d{kernel_size, strides, padding, count_include_pad, ceil_mode};
}

TensorAny AvgPool3d::forward_any(const TensorAny& input) const {
    check_input("AvgPool3d", input);
    const std::array<std::size_t, 3> ones{1, 1, 1};
    const auto pads = padding_pairs(padding, spatial(input), kernel_size, strides, ones);
    PoolSpec plane = stage_spec(kernel_size, strides, ones, pads, ceil_mode, false);
    PoolSpec depth = stage_spec(kernel_size, strides, ones, pads, ceil_mode, true);
    plane.count_include_pad = depth.count_include_pad = count_include_pad;
    return separable(
        input, [&](TensorAny x) { return ops::detail::avg_pool2d_nd(std::move(x), plane, "AvgPool3d"); },
        [&](TensorAny x) { return ops::detail::avg_pool2d_nd(std::move(x), depth, "AvgPool3d"); });
}

AdaptiveAvgPool3d AdaptiveAvgPool3dConfig::init() const {
    check_positive3("AdaptiveAvgPool3dConfig", "output_size", output_size);
    return AdaptiveAvgPool3d{output_size};
}

TensorAny AdaptiveAvgPool3d::forward_any(const TensorAny& input) const {
    check_input("AdaptiveAvgPool3d", input);
    const auto o = output_size;
    return separable(
        input,
        [&](TensorAny x) {
            Dims out = x.shape();
            out[2] = static_cast<int64_t>(o[1]);
            out[3] = static_cast<int64_t>(o[2]);
            return ops::detail::adaptive_avg_pool2d_call(std::move(x), out, "AdaptiveAvgPool3d");
        },
        [&](TensorAny x) {
            Dims out = x.shape();
            out[3] = static_cast<int64_t>(o[0]);
            return ops::detail::adaptive_avg_pool2d_call(std::move(x), out, "AdaptiveAvgPool3d");
        });
}

}  // namespace burn::nn
