// Convolution layers: configuration checks, PyTorch-style initialisation and forward passes that
// resolve the padding setting for the input at hand and call the tensor-level convolution.
#include "burn/nn/conv.hpp"

#include <sstream>

#include "ops/module_ops_internal.hpp"

namespace burn::nn {

namespace {

using ops::detail::ConvSpec;

std::string sizes(const std::size_t* v, int n) {
    std::ostringstream os;
    for (int i = 0; i < n; ++i) os << (i ? " x " : "") << v[i];
    return os.str();
}

/// Checks a config; `transposed` only changes the message wording.
void check_config(const char* name, std::size_t c_in, std::size_t c_out, const std::size_t* kernel,
                  const std::size_t* stride, const std::size_t* dilation, int s, std::size_t groups) {
    BURN_CHECK(c_in > 0 && c_out > 0, "[", name, "] channels must be positive, got ", c_in, " in and ", c_out,
               " out");
    for (int i = 0; i < s; ++i) {
        BURN_CHECK(kernel[i] > 0, "[", name, "] kernel_size must be positive, got ", sizes(kernel, s));
        BURN_CHECK(stride[i] > 0, "[", name, "] stride must be positive, got ", sizes(stride, s));
        BURN_CHECK(dilation[i] > 0, "[", name, "] dilation must be positive, got ", sizes(dilation, s));
    }
    BURN_CHECK(groups > 0 && c_in % groups == 0 && c_out % groups == 0, "[", name,
               "] both channel counts must be divisible by groups; got ", c_in, " in, ", c_out,
               " out, groups ", groups);
}

/// Weight [d0, d1, kernel...] and optional bias [bias_size], PyTorch's fans: fan_in = d1 * kernel
/// volume, fan_out = d0 * kernel volume (the layout's leading dims).
template <std::size_t D>
void init_params(const Initializer& init, bool with_bias, std::size_t d0, std::size_t d1,
                 const std::size_t* kernel, std::size_t bias_size, const Device& device,
                 Param<Tensor<D>>& weight, std::optional<Param<Tensor<1>>>& bias) {
    Shape<D> shape{};
    shape[0] = d0;
    shape[1] = d1;
    std::size_t vol = 1;
    for (std::size_t i = 2; i < D; ++i) {
        shape[i] = kernel[i - 2];
        vol *= kernel[i - 2];
    }
    const auto fan_in = static_cast<int64_t>(d1 * vol), fan_out = static_cast<int64_t>(d0 * vol);
    weight = Param<Tensor<D>>(init.init<D>(shape, fan_in, fan_out, device));
    if (with_bias) bias = Param<Tensor<1>>(init.init<1>({bias_size}, fan_in, fan_out, device));
}

const char* layout_of(int s) {
    return s == 1   ? "[batch, channels, length]"
           : s == 2 ? "[batch, channels, height, width]"
                    : "[batch, channels, depth, height, width]";
}

/// Checks the input's rank and channels against the weight (whose dim 1 holds channels / groups for a
/// convolution; dim 0 holds the input channels for a transposed one).
void check_input(const char* name, const TensorAny& input, const TensorAny& w, int s, std::size_t groups,
                 bool transposed) {
    BURN_CHECK(input.defined(), "[", name, "] called on an undefined tensor");
    BURN_CHECK_KIND(input.rank() == s + 2, shape, "[", name, "] expects input ", layout_of(s), " (rank ",
                    s + 2, "), got shape ", input.shape());
    const int64_t expected = transposed ? w.shape()[0] : w.shape()[1] * static_cast<int64_t>(groups);
    BURN_CHECK_KIND(input.shape()[1] == expected, shape, "[", name, "] input of shape ", input.shape(),
                    " has ", input.shape()[1], " channels, expected ", expected, " (input layout ",
                    layout_of(s), ")");
}

std::optional<TensorAny> bias_of(const std::optional<Param<Tensor<1>>>& b) {
    return b ? std::optional<TensorAny>(b->val().handle()) : std::nullopt;
}

template <std::size_t N, class Pad>
TensorAny conv_forward(const char* name, const TensorAny& input, const TensorAny& w,
                       const std::optional<Param<Tensor<1>>>& b, const std::array<std::size_t, N>& stride,
                       const std::array<std::size_t, N>& kernel, const std::array<std::size_t, N>& dilation,
                       std::size_t groups, const Pad& padding) {
    check_input(name, input, w, static_cast<int>(N), groups, false);
    std::array<std::size_t, N> in{};
    for (std::size_t i = 0; i < N; ++i)
        in[i] = static_cast<std::size_t>(input.shape()[static_cast<int>(i) + 2]);
    const auto pairs = padding_pairs(padding, in, kernel, stride, dilation);
    ConvSpec spec;
    spec.s = static_cast<int>(N);
    for (std::size_t i = 0; i < N; ++i) {
        spec.stride[i] = static_cast<int64_t>(stride[i]);
        spec.dilation[i] = static_cast<int64_t>(dilation[i]);
        spec.pad_begin[i] = static_cast<int64_t>(pairs[i].first);
        spec.pad_end[i] = static_cast<int64_t>(pairs[i].second);
    }
    spec.groups = static_cast<int64_t>(groups);
    return ops::detail::conv_nd(input, w, bias_of(b), spec, name);
}

template <std::size_t N>
TensorAny transpose_forward(const char* name, const TensorAny& input, const TensorAny& w,
                            const std::optional<Param<Tensor<1>>>& b,
                            const std::array<std::size_t, N>& stride,
                            const std::array<std::size_t, N>& dilation, std::size_t groups,
                            const std::array<std::size_t, N>& padding,
                            const std::array<std::size_t, N>& padding_out) {
    check_input(name, input, w, static_cast<int>(N), groups, true);
    ConvSpec spec;
    spec.s = static_cast<int>(N);
    int64_t pad_out[3] = {0, 0, 0};
    for (std::size_t i = 0; i < N; ++i) {
        spec.stride[i] = static_cast<int64_t>(stride[i]);
        spec.dilation[i] = static_cast<int64_t>(dilation[i]);
        spec.pad_begin[i] = spec.pad_end[i] = static_cast<int64_t>(padding[i]);
        pad_out[i] = static_cast<int64_t>(padding_out[i]);
    }
    spec.groups = static_cast<int64_t>(groups);
    return ops::detail::conv_transpose_nd(input, w, bias_of(b), spec, pad_out, name);
}

}  // namespace

Conv1d Conv1dConfig::init(const Device& device) const {
    check_config("Conv1dConfig", channels_in, channels_out, &kernel_size, &stride, &dilation, 1, groups);
    Conv1d m;
    init_params<3>(initializer, bias, channels_out, channels_in / groups, &kernel_size, channels_out, device,
                   m.weight, m.bias);
    m.stride = stride;
    m.kernel_size = kernel_size;
    m.dilation = dilation;
    m.groups = groups;
    m.padding = padding;
    return m;
}

TensorAny Conv1d::forward_any(const TensorAny& input) const {
    return conv_forward<1>("Conv1d", input, weight.val().handle(), bias, {stride}, {kernel_size}, {dilation},
                           groups, padding);
}

Conv2d Conv2dConfig::init(const Device& device) const {
    check_config("Conv2dConfig", channels[0], channels[1], kernel_size.data(), stride.data(), dilation.data(),
                 2, groups);
    Conv2d m;
    init_params<4>(initializer, bias, channels[1], channels[0] / groups, kernel_size.data(), channels[1],
                   device, m.weight, m.bias);
    m.stride = stride;
    m.kernel_size = kernel_size;
    m.dilation = dilation;
    m.groups = groups;
    m.padding = padding;
    return m;
}

TensorAny Conv2d::forward_any(const TensorAny& input) const {
    return conv_forward<2>("Conv2d", input, weight.val().handle(), bias, stride, kernel_size, dilation,
                           groups, padding);
}

Conv3d Conv3dConfig::init(const Device& device) const {
    check_config("Conv3dConfig", channels[0], channels[1], kernel_size.data(), stride.data(), dilation.data(),
                 3, groups);
    Conv3d m;
    init_params<5>(initializer, bias, channels[1], channels[0] / groups, kernel_size.data(), channels[1],
                   device, m.weight, m.bias);
    m.stride = stride;
    m.kernel_size = kernel_size;
    m.dilation = dilation;
    m.groups = groups;
    m.padding = padding;
    return m;
}

TensorAny Conv3d::forward_any(const TensorAny& input) const {
    return conv_forward<3>("Conv3d", input, weight.val().handle(), bias, stride, kernel_size, dilation,
                           groups, padding);
}

ConvTranspose1d ConvTranspose1dConfig::init(const Device& device) const {
    check_config("ConvTranspose1dConfig", channels[0], channels[1], &kernel_size, &stride, &dilation, 1,
                 groups);
    BURN_CHECK(padding_out < stride || padding_out < dilation, "[ConvTranspose1dConfig] padding_out (",
               padding_out, ") must be smaller than the stride (", stride, ") or the dilation (", dilation,
               ")");
    ConvTranspose1d m;
    init_params<3>(initializer, bias, channels[0], channels[1] / groups, &kernel_size, channels[1], device,
                   m.weight, m.bias);
    m.stride = stride;
    m.kernel_size = kernel_size;
    m.dilation = dilation;
    m.groups = groups;
    m.padding = padding;
    m.padding_out = padding_out;
    return m;
}

TensorAny ConvTranspose1d::forward_any(const TensorAny& input) const {
    return transpose_forward<1>("ConvTranspose1d", input, weight.val().handle(), bias, {stride}, {dilation},
                                groups, {padding}, {padding_out});
}

ConvTranspose2d ConvTranspose2dConfig::init(const Device& device) const {
    check_config("ConvTranspose2dConfig", channels[0], channels[1], kernel_size.data(), stride.data(),
                 dilation.data(), 2, groups);
    for (int i = 0; i < 2; ++i)
        BURN_CHECK(padding_out[i] < stride[i] || padding_out[i] < dilation[i],
                   "[ConvTranspose2dConfig] padding_out (", padding_out[0], " x ", padding_out[1],
                   ") must be smaller than the stride or the dilation");
    ConvTranspose2d m;
    init_params<4>(initializer, bias, channels[0], channels[1] / groups, kernel_size.data(), channels[1],
                   device, m.weight, m.bias);
    m.stride = stride;
    m.kernel_size = kernel_size;
    m.dilation = dilation;
    m.groups = groups;
    m.padding = padding;
    m.padding_out = padding_out;
    return m;
}

TensorAny ConvTranspose2d::forward_any(const TensorAny& input) const {
    return transpose_forward<2>("ConvTranspose2d", input, weight.val().handle(), bias, stride, dilation,
                                groups, padding, padding_out);
}

ConvTranspose3d ConvTranspose3dConfig::init(const Device& device) const {
    check_config("ConvTranspose3dConfig", channels[0], channels[1], kernel_size.data(), stride.data(),
                 dilation.data(), 3, groups);
    for (int i = 0; i < 3; ++i)
        BURN_CHECK(padding_out[i] < stride[i] || padding_out[i] < dilation[i],
                   "[ConvTranspose3dConfig] padding_out (", padding_out[0], " x ", padding_out[1], " x ",
                   padding_out[2], ") must be smaller than the stride or the dilation");
    ConvTranspose3d m;
    init_params<5>(initializer, bias, channels[0], channels[1] / groups, kernel_size.data(), channels[1],
                   device, m.weight, m.bias);
    m.stride = stride;
    m.kernel_size = kernel_size;
    m.dilation = dilation;
    m.groups = groups;
    m.padding = padding;
    m.padding_out = padding_out;
    return m;
}

TensorAny ConvTranspose3d::forward_any(const TensorAny& input) const {
    return transpose_forward<3>("ConvTranspose3d", input, weight.val().handle(), bias, stride, dilation,
                                groups, padding, padding_out);
}

}  // namespace burn::nn
