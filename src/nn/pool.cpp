// Pooling layers: config checks and forward passes over the tensor-level pools (1-D layers pool
// [N, C, 1, L] planes).
#include "burn/nn/pool.hpp"

#include "ops/module_ops_internal.hpp"

namespace burn::nn {

namespace {

using ops::detail::PoolSpec;

void check_positive(const char* name, const char* what, const std::size_t* v, int n) {
    for (int i = 0; i < n; ++i)
        BURN_CHECK(v[i] > 0, "[", name, "] ", what, " must be positive, got ", v[0], n > 1 ? " x " : "",
                   n > 1 ? std::to_string(v[1]) : std::string());
}

void check_rank(const char* name, const TensorAny& input, int rank) {
    BURN_CHECK(input.defined(), "[", name, "] called on an undefined tensor");
    BURN_CHECK_KIND(input.rank() == rank, shape, "[", name, "] expects input ",
                    rank == 3 ? "[batch, channels, length] (rank 3)" : "[batch, channels, height, width] (rank 4)",
                    ", got shape ", input.shape());
}

PoolSpec spec_2d(const TensorAny& x, std::array<std::size_t, 2> k, std::array<std::size_t, 2> s,
                 std::array<std::size_t, 2> d, const PaddingConfig2d& padding, bool ceil_mode) {
    const auto pairs = padding_pairs(padding, {static_cast<std::size_t>(x.shape()[2]), static_cast<std::size_t>(x.shape()[3])},
                                     k, s, d);
    PoolSpec spec;
    for (std::size_t i = 0; i < 2; ++i) {
        spec.kernel[i] = static_cast<int64_t>(k[i]);
        spec.stride[i] = static_cast<int64_t>(s[i]);
        spec.dilation[i] = static_cast<int64_t>(d[i]);
        spec.pad_begin[i] = static_cast<int64_t>(pairs[i].first);
        spec.pad_end[i] = static_cast<int64_t>(pairs[i].second);
    }
    spec.ceil_mode = ceil_mode;
    return spec;
}

PoolSpec spec_1d(const TensorAny& x, std::size_t k, std::size_t s, std::size_t d, const PaddingConfig1d& padding,
                 bool ceil_mode) {
    const auto pairs = padding_pairs(padding, {static_cast<std::size_t>(x.shape()[2])}, {k}, {s}, {d});
    PoolSpec spec;
    spec.kernel[1] = static_cast<int64_t>(k);
    spec.stride[1] = static_cast<int64_t>(s);
    spec.dilation[1] = static_cast<int64_t>(d);
    spec.pad_begin[1] = static_cast<int64_t>(pairs[0].first);
    spec.pad_end[1] = static_cast<int64_t>(pairs[0].second);
    spec.ceil_mode = ceil_mode;
    return spec;
}

}  // namespace

MaxPool1d MaxPool1dConfig::init() const {
    check_positive("MaxPool1dConfig", "kernel_size", &kernel_size, 1);
    check_positive("MaxPool1dConfig", "stride", &stride, 1);
    check_positive("MaxPool1dConfig", "dilation", &dilation, 1);
    return MaxPool1d{kernel_size, stride, padding, dilation, ceil_mode};
}

TensorAny MaxPool1d::forward_any(const TensorAny& input) const {
    check_rank("MaxPool1d", input, 3);
    PoolSpec spec = spec_1d(input, kernel_size, stride, dilation, padding, ceil_mode);
    auto y = ops::detail::max_pool2d_nd(ops::unsqueeze_dim(input, 2), spec, "MaxPool1d").first;
    return ops::squeeze_dim(std::move(y), 2);
}

MaxPool2d MaxPool2dConfig::init() const {
    check_positive("MaxPool2dConfig", "kernel_size", kernel_size.data(), 2);
    check_positive("MaxPool2dConfig", "strides", strides.data(), 2);
    check_positive("MaxPool2dConfig", "dilation", dilation.data(), 2);
    return MaxPool2d{kernel_size, strides, padding, dilation, ceil_mode};
}

TensorAny MaxPool2d::forward_any(const TensorAny& input) const {
    check_rank("MaxPool2d", input, 4);
    return ops::detail::max_pool2d_nd(input, spec_2d(input, kernel_size, strides, dilation, padding, ceil_mode),
                                      "MaxPool2d")
        .first;
}

AvgPool1d AvgPool1dConfig::init() const {
    check_positive("AvgPool1dConfig", "kernel_size", &kernel_size, 1);
    check_positive("AvgPool1dConfig", "stride", &stride, 1);
    return AvgPool1d{kernel_size, stride, padding, count_include_pad, ceil_mode};
}

TensorAny AvgPool1d::forward_any(const TensorAny& input) const {
    check_rank("AvgPool1d", input, 3);
    PoolSpec spec = spec_1d(input, kernel_size, stride, 1, padding, ceil_mode);
    spec.count_include_pad = count_include_pad;
    return ops::squeeze_dim(ops::detail::avg_pool2d_nd(ops::unsqueeze_dim(input, 2), spec, "AvgPool1d"), 2);
}

AvgPool2d AvgPool2dConfig::init() const {
    check_positive("AvgPool2dConfig", "kernel_size", kernel_size.data(), 2);
    check_positive("AvgPool2dConfig", "strides", strides.data(), 2);
    return AvgPool2d{kernel_size, strides, padding, count_include_pad, ceil_mode};
}

TensorAny AvgPool2d::forward_any(const TensorAny& input) const {
    check_rank("AvgPool2d", input, 4);
    PoolSpec spec = spec_2d(input, kernel_size, strides, {1, 1}, padding, ceil_mode);
    spec.count_include_pad = count_include_pad;
    return ops::detail::avg_pool2d_nd(input, spec, "AvgPool2d");
}

AdaptiveAvgPool1d AdaptiveAvgPool1dConfig::init() const {
    check_positive("AdaptiveAvgPool1dConfig", "output_size", &output_size, 1);
    return AdaptiveAvgPool1d{output_size};
}

TensorAny AdaptiveAvgPool1d::forward_any(const TensorAny& input) const {
    check_rank("AdaptiveAvgPool1d", input, 3);
    TensorAny x = ops::unsqueeze_dim(input, 2);
    Dims out = x.shape();
    out[3] = static_cast<int64_t>(output_size);
    return ops::squeeze_dim(ops::detail::adaptive_avg_pool2d_call(std::move(x), out, "AdaptiveAvgPool1d"), 2);
}

AdaptiveAvgPool2d AdaptiveAvgPool2dConfig::init() const {
    check_positive("AdaptiveAvgPool2dConfig", "output_size", output_size.data(), 2);
    return AdaptiveAvgPool2d{output_size};
}

TensorAny AdaptiveAvgPool2d::forward_any(const TensorAny& input) const {
    check_rank("AdaptiveAvgPool2d", input, 4);
    Dims out = input.shape();
    out[2] = static_cast<int64_t>(output_size[0]);
    out[3] = static_cast<int64_t>(output_size[1]);
    return ops::detail::adaptive_avg_pool2d_call(input, out, "AdaptiveAvgPool2d");
}

}  // namespace burn::nn
