#pragma once
/// The explicit backward functions of the module ops (burn's conv2d_weight_backward, conv2d_x_backward,
/// avg_pool2d_backward, ...): the gradients the autodiff rules compute, callable on their own, e.g. to
/// write a custom gradient or a hand-rolled training step without an autodiff device.
///
///     Tensor<4> dw = tensor::module::conv2d_weight_backward(x, w, dy, options);  // dL/dw
///
/// `output_grad` is dL/dy for y = the forward op on the same arguments; each function checks that it
/// has y's shape. They run the ops.def backward rows (conv_backward_input, conv_backward_weight,
/// avg_pool2d_backward, adaptive_avg_pool2d_backward, max_pool2d_backward), so every backend has them.
#include <array>
#include <cstddef>

#include "burn/tensor/module_ops.hpp"

namespace burn {

namespace ops {
TensorAny conv2d_x_backward(TensorAny x, TensorAny weight, TensorAny output_grad,
                            const ConvOptions<2>& options);
TensorAny conv2d_weight_backward(TensorAny x, TensorAny weight, TensorAny output_grad,
                                 const ConvOptions<2>& options);
TensorAny conv2d_bias_backward(TensorAny x, TensorAny bias, TensorAny output_grad);
TensorAny avg_pool2d_backward(TensorAny x, TensorAny output_grad, std::array<std::size_t, 2> kernel_size,
                              std::array<std::size_t, 2> stride, std::array<std::size_t, 2> padding,
                              bool count_include_pad = true, bool ceil_mode = false);
TensorAny adaptive_avg_pool2d_backward(TensorAny x, TensorAny output_grad);
TensorAny max_pool2d_with_indices_backward(TensorAny x, std::array<std::size_t, 2> kernel_size,
                                           std::array<std::size_t, 2> stride,
                                           std::array<std::size_t, 2> padding,
                                           std::array<std::size_t, 2> dilation, bool ceil_mode,
                                           TensorAny output_grad, TensorAny indices);
}  // namespace ops

namespace tensor::module {

/// dL/dx of conv2d(x, weight, bias, options): [N, C, H, W].
inline Tensor<4> conv2d_x_backward(const Tensor<4>& x, const Tensor<4>& weight, const Tensor<4>& output_grad,
                                   const ConvOptions<2>& options) {
    return Tensor<4>(ops::conv2d_x_backward(x.handle(), weight.handle(), output_grad.handle(), options));
}
/// dL/dweight of conv2d: [O, C / groups, kh, kw].
inline Tensor<4> conv2d_weight_backward(const Tensor<4>& x, const Tensor<4>& weight,
                                        const Tensor<4>& output_grad, const ConvOptions<2>& options) {
    return Tensor<4>(ops::conv2d_weight_backward(x.handle(), weight.handle(), output_grad.handle(), options));
}
/// dL/dbias of conv2d: output_grad summed over batch and space, [O].
inline Tensor<1> conv2d_bias_backward(const Tensor<4>& x, const Tensor<1>& bias,
                                      const Tensor<4>& output_grad) {
    return Tensor<1>(ops::conv2d_bias_backward(x.handle(), bias.handle(), output_grad.handle()));
}
/// dL/dx of avg_pool2d with the same arguments.
inline Tensor<4> avg_pool2d_backward(const Tensor<4>& x, const Tensor<4>& output_grad,
                                     std::array<std::size_t, 2> kernel_size,
                                     std::array<std::size_t, 2> stride, std::array<std::size_t, 2> padding,
                                     bool count_include_pad = true, bool ceil_mode = false) {
    return Tensor<4>(ops::avg_pool2d_backward(x.handle(), output_grad.handle(), kernel_size, stride, padding,
                                              count_include_pad, ceil_mode));
}
/// dL/dx of adaptive_avg_pool2d (the output size is output_grad's).
inline Tensor<4> adaptive_avg_pool2d_backward(const Tensor<4>& x, const Tensor<4>& output_grad) {
    return Tensor<4>(ops::adaptive_avg_pool2d_backward(x.handle(), output_grad.handle()));
}
/// dL/dx of max_pool2d_with_indices: each output gradient goes to the input its index names.
inline Tensor<4> max_pool2d_with_indices_backward(const Tensor<4>& x, std::array<std::size_t, 2> kernel_size,
                                                  std::array<std::size_t, 2> stride,
                                                  std::array<std::size_t, 2> padding,
                                                  std::array<std::size_t, 2> dilation, bool ceil_mode,
                                                  const Tensor<4>& output_grad,
                                                  const Tensor<4, Int>& indices) {
    return Tensor<4>(ops::max_pool2d_with_indices_backward(x.handle(), kernel_size, stride, padding, dilation,
                                                           ceil_mode, output_grad.handle(),
                                                           indices.handle()));
}

}  // namespace tensor::module

}  // namespace burn
