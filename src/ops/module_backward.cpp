// The public backward functions of the module ops (burn/tensor/module_backward.hpp): argument checks
// against the forward's output shape, then the ops.def backward rows.
#include "burn/tensor/module_backward.hpp"

#include "ops/module_ops_internal.hpp"

namespace burn::ops {

namespace {

using detail::describe;
using detail::PoolSpec;

attrs::Conv conv_spec(const ConvOptions<2>& o) {
    attrs::Conv spec;
    spec.spatial = 2;
    for (std::size_t i = 0; i < 2; ++i) {
        spec.stride[i] = static_cast<int64_t>(o.stride[i]);
        spec.pad_begin[i] = static_cast<int64_t>(o.padding[i]);
        spec.pad_end[i] = static_cast<int64_t>(o.padding_end ? (*o.padding_end)[i] : o.padding[i]);
        spec.dilation[i] = static_cast<int64_t>(o.dilation[i]);
    }
    spec.groups = static_cast<int64_t>(o.groups);
    return spec;
}

/// Checks that g is the gradient of conv2d(x, w): [N, O, oh, ow].
void check_conv_grad(const TensorAny& x, const TensorAny& w, const TensorAny& g, const attrs::Conv& s,
                     const char* op) {
    BURN_CHECK_KIND(x.rank() == 4 && w.rank() == 4 && g.rank() == 4, shape, "[", op,
                    "] x, weight and output_grad must be rank 4, got ", describe(x), ", ", describe(w), ", ",
                    describe(g));
    Dims want{x.shape()[0], w.shape()[0], 0, 0};
    for (int i = 0; i < 2; ++i)
        want[i + 2] = detail::conv_out_size(x.shape()[i + 2], w.shape()[i + 2], s.stride[i], s.pad_begin[i],
                                            s.pad_end[i], s.dilation[i]);
    BURN_CHECK_KIND(g.shape() == want, shape, "[", op, "] output_grad ", describe(g),
                    " is not the shape of conv2d's output for x ", describe(x), " and weight ", describe(w),
                    " (", want, "); pass the same options as the forward");
}

PoolSpec pool_spec(std::array<std::size_t, 2> k, std::array<std::size_t, 2> s, std::array<std::size_t, 2> p,
                   std::array<std::size_t, 2> d, bool ceil_mode) {
    PoolSpec spec;
    for (std::size_t i = 0; i < 2; ++i) {
        spec.kernel[i] = static_cast<int64_t>(k[i]);
        spec.stride[i] = static_cast<int64_t>(s[i]);
        spec.pad_begin[i] = spec.pad_end[i] = static_cast<int64_t>(p[i]);
        spec.dilation[i] = static_cast<int64_t>(d[i]);
    }
    spec.ceil_mode = ceil_mode;
    return spec;
}

/// Checks that g is the gradient of a pool of x with spec: [N, C, oh, ow].
void check_pool_grad(const TensorAny& x, const TensorAny& g, const PoolSpec& p, const char* op) {
    BURN_CHECK_KIND(x.rank() == 4 && g.rank() == 4, shape, "[", op,
                    "] x and output_grad must be [batch, channels, height, width], got ", describe(x),
                    " and ", describe(g));
    Dims want = x.shape();
    for (int i = 0; i < 2; ++i)
        want[i + 2] = detail::pool_out_size(x.shape()[i + 2], p.kernel[i], p.stride[i], p.pad_begin[i],
                                            p.pad_end[i], p.dilation[i], p.ceil_mode);
    BURN_CHECK_KIND(g.shape() == want, shape, "[", op, "] output_grad ", describe(g),
                    " is not the shape of the pool's output for x ", describe(x), " (", want,
                    "); pass the same kernel, stride, padding and ceil_mode as the forward");
}

}  // namespace

TensorAny conv2d_x_backward(TensorAny x, TensorAny weight, TensorAny output_grad,
                            const ConvOptions<2>& options) {
    const attrs::Conv spec = conv_spec(options);
    check_conv_grad(x, weight, output_grad, spec, "conv2d_x_backward");
    return detail::conv_backward_input(std::move(output_grad), std::move(weight), spec, x.shape());
}

TensorAny conv2d_weight_backward(TensorAny x, TensorAny weight, TensorAny output_grad,
                                 const ConvOptions<2>& options) {
    const attrs::Conv spec = conv_spec(options);
    check_conv_grad(x, weight, output_grad, spec, "conv2d_weight_backward");
    return detail::conv_backward_weight(std::move(x), std::move(output_grad), spec, weight.shape());
}

TensorAny conv2d_bias_backward(TensorAny x, TensorAny bias, TensorAny output_grad) {
    BURN_CHECK_KIND(
        output_grad.rank() == 4 && bias.rank() == 1 && bias.shape()[0] == output_grad.shape()[1] &&
            x.rank() == 4 && x.shape()[0] == output_grad.shape()[0],
        shape, "[conv2d_bias_backward] bias ", describe(bias), " and output_grad ", describe(output_grad),
        " do not fit x ", describe(x), ": the bias has one value per output channel (output_grad's dim 1)");
    return reshape(sum_dims(std::move(output_grad), Dims{0, 2, 3}), bias.shape());
}

TensorAny avg_pool2d_backward(TensorAny x, TensorAny output_grad, std::array<std::size_t, 2> kernel_size,
                              std::array<std::size_t, 2> stride, std::array<std::size_t, 2> padding,
                              bool count_include_pad, bool ceil_mode) {
    const PoolSpec p = pool_spec(kernel_size, stride, padding, {1, 1}, ceil_mode);
    check_pool_grad(x, output_grad, p, "avg_pool2d_backward");
    attrs::AvgPool2d a{
        {p.kernel[0], p.kernel[1]},   {p.stride[0], p.stride[1]}, {p.pad_begin[0], p.pad_begin[1]},
        {p.pad_end[0], p.pad_end[1]}, count_include_pad,          x.shape()};
    return detail::avg_pool2d_backward(std::move(output_grad), a);
}

TensorAny adaptive_avg_pool2d_backward(TensorAny x, TensorAny output_grad) {
    BURN_CHECK_KIND(x.rank() == 4, shape,
                    "[adaptive_avg_pool2d_backward] x must be [batch, channels, height, "
                    "width], got ",
                    describe(x));
    return detail::adaptive_avg_pool2d_backward(std::move(output_grad), x.shape());
}

TensorAny max_pool2d_with_indices_backward(TensorAny x, std::array<std::size_t, 2> kernel_size,
                                           std::array<std::size_t, 2> stride,
                                           std::array<std::size_t, 2> padding,
                                           std::array<std::size_t, 2> dilation, bool ceil_mode,
                                           TensorAny output_grad, TensorAny indices) {
    const PoolSpec p = pool_spec(kernel_size, stride, padding, dilation, ceil_mode);
    check_pool_grad(x, output_grad, p, "max_pool2d_with_indices_backward");
    BURN_CHECK_KIND(indices.shape() == output_grad.shape(), shape,
                    "[max_pool2d_with_indices_backward] indices ", describe(indices),
                    " must have output_grad's shape ", describe(output_grad),
                    " (the indices max_pool2d_with_indices returned)");
    attrs::MaxPool2dBackward a;
    a.shape = x.shape();
    return detail::max_pool2d_backward(std::move(output_grad), std::move(indices), a);
}

}  // namespace burn::ops
