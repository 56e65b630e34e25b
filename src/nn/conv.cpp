// Convolution layers: configuration checks, PyTorch-style initialisation and forward passes that
// resolve the padding setting for the input at hand and call the tensor-level convolution.
#include "burn/nn/conv.hpp"

#include "ops/module_ops_internal.hpp"

namespace burn::nn {

namespace {

std::string sizes(const std::size_t* v, int n) {
    ::burn::detail::Text os;
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

/// A scalar (the 1d configs) or an array (2d, 3d) as a pointer to its sizes.
const std::size_t* sizes_of(const std::size_t& v) {
    return &v;
}
template <std::size_t N>
const std::size_t* sizes_of(const std::array<std::size_t, N>& v) {
    return v.data();
}

/// The one body of the six init()s: checks the config, draws the weight and then the bias (that order
/// is the random stream the fixtures expect) and copies the hyper-parameters. A convolution's weight is
/// [out, in / groups, k...], a transposed one's [in, out / groups, k...]; the bias is [out] for both.
template <class M, int S, bool Transposed, class Config>
M init_conv(const char* name, const Config& c, std::size_t c_in, std::size_t c_out, const Device& device) {
    check_config(name, c_in, c_out, sizes_of(c.kernel_size), sizes_of(c.stride), sizes_of(c.dilation), S,
                 c.groups);
    if constexpr (Transposed) {
        const std::size_t *pad_out = sizes_of(c.padding_out), *stride = sizes_of(c.stride),
                          *dilation = sizes_of(c.dilation);
        for (int i = 0; i < S; ++i)
            BURN_CHECK(pad_out[i] < stride[i] || pad_out[i] < dilation[i], "[", name, "] padding_out (",
                       sizes(pad_out, S), ") must be smaller than the stride (", sizes(stride, S),
                       ") or the dilation (", sizes(dilation, S), ")");
    }
    M m;
    const std::size_t d0 = Transposed ? c_in : c_out, d1 = (Transposed ? c_out : c_in) / c.groups;
    init_params<S + 2>(c.initializer, c.bias, d0, d1, sizes_of(c.kernel_size), c_out, device, m.weight,
                       m.bias);
    m.stride = c.stride;
    m.kernel_size = c.kernel_size;
    m.dilation = c.dilation;
    m.groups = c.groups;
    m.padding = c.padding;
    if constexpr (Transposed) m.padding_out = c.padding_out;
    return m;
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
    attrs::Conv spec;
    spec.spatial = static_cast<int>(N);
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
    attrs::Conv spec;
    spec.spatial = static_cast<int>(N);
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
    return init_conv<Conv1d, 1, false>("Conv1dConfig", *this, channels_in, channels_out, device);
}

TensorAny Conv1d::forward_any(const TensorAny& input) const {
    return conv_forward<1>("Conv1d", input, weight.val().handle(), bias, {stride}, {kernel_size}, {dilation},
                           groups, padding);
}

Conv2d Conv2dConfig::init(const Device& device) const {
    return init_conv<Conv2d, 2, false>("Conv2dConfig", *this, channels[0], channels[1], device);
}

TensorAny Conv2d::forward_any(const TensorAny& input) const {
    return conv_forward<2>("Conv2d", input, weight.val().handle(), bias, stride, kernel_size, dilation,
                           groups, padding);
}

Conv3d Conv3dConfig::init(const Device& device) const {
    return init_conv<Conv3d, 3, false>("Conv3dConfig", *this, channels[0], channels[1], device);
}

TensorAny Conv3d::forward_any(const TensorAny& input) const {
    return conv_forward<3>("Conv3d", input, weight.val().handle(), bias, stride, kernel_size, dilation,
                           groups, padding);
}

ConvTranspose1d ConvTranspose1dConfig::init(const Device& device) const {
    return init_conv<ConvTranspose1d, 1, true>("ConvTranspose1dConfig", *this, channels[0], channels[1],
                                               device);
}

TensorAny ConvTranspose1d::forward_any(const TensorAny& input) const {
    return transpose_forward<1>("ConvTranspose1d", input, weight.val().handle(), bias, {stride}, {dilation},
                                groups, {padding}, {padding_out});
}

ConvTranspose2d ConvTranspose2dConfig::init(const Device& device) const {
    return init_conv<ConvTranspose2d, 2, true>("ConvTranspose2dConfig", *this, channels[0], channels[1],
                                               device);
}

TensorAny ConvTranspose2d::forward_any(const TensorAny& input) const {
    return transpose_forward<2>("ConvTranspose2d", input, weight.val().handle(), bias, stride, dilation,
                                groups, padding, padding_out);
}

ConvTranspose3d ConvTranspose3dConfig::init(const Device& device) const {
    return init_conv<ConvTranspose3d, 3, true>("ConvTranspose3dConfig", *this, channels[0], channels[1],
                                               device);
}

TensorAny ConvTranspose3d::forward_any(const TensorAny& input) const {
    return transpose_forward<3>("ConvTranspose3d", input, weight.val().handle(), bias, stride, dilation,
                                groups, padding, padding_out);
}

}  // namespace burn::nn
