#pragma once
/// Module ops on tensors (burn's burn::tensor::module): convolution, transposed convolution, pools,
/// interpolation and pixel shuffle over [batch, channels, spatial...] tensors; fused layer_norm and
/// cross_entropy; embedding and batch_norm (composites).
///
///     auto y = ops::conv2d(x, w, b, ConvOptions<2>{.stride = {2, 2}, .padding = {1, 1}});  // TensorAny
///     Tensor<4> z = tensor::module::max_pool2d(y4, {2, 2}, {2, 2}, {0, 0}, {1, 1});        // typed
///
/// The rank-erased functions in burn::ops are what the nn layers call; burn::tensor::module holds typed
/// forms that forward to them. Weights use PyTorch's layouts: convolution [out, in / groups, k...],
/// transposed convolution [in, out / groups, k...]. All of them are differentiable on autodiff devices.
#include <array>
#include <cstddef>
#include <optional>
#include <utility>

#include "burn/config/config.hpp"
#include "burn/tensor/tensor.hpp"

namespace burn {

namespace detail {
template <std::size_t N>
constexpr std::array<std::size_t, N> filled_array(std::size_t v) {
    std::array<std::size_t, N> a{};
    for (auto& x : a) x = v;
    return a;
}
}  // namespace detail

/// Convolution settings for N spatial dims (burn's ConvOptions). `padding` is added before each
/// spatial dim, and after it too unless `padding_end` says otherwise (asymmetric padding, which is
/// what `Same` padding needs for an even kernel).
template <std::size_t N>
struct ConvOptions {
    std::array<std::size_t, N> stride = detail::filled_array<N>(1);
    std::array<std::size_t, N> padding = detail::filled_array<N>(0);
    std::array<std::size_t, N> dilation = detail::filled_array<N>(1);
    std::size_t groups = 1;
    std::optional<std::array<std::size_t, N>> padding_end;
};

/// Transposed convolution settings (burn's ConvTransposeOptions). The output size per spatial dim is
/// (in - 1) * stride - 2 * padding + dilation * (k - 1) + padding_out + 1.
template <std::size_t N>
struct ConvTransposeOptions {
    std::array<std::size_t, N> stride = detail::filled_array<N>(1);
    std::array<std::size_t, N> padding = detail::filled_array<N>(0);
    std::array<std::size_t, N> padding_out = detail::filled_array<N>(0);
    std::array<std::size_t, N> dilation = detail::filled_array<N>(1);
    std::size_t groups = 1;
};

/// How interpolate computes an output pixel. nearest: PyTorch's "nearest" (floor of dst * in / out);
/// nearest_exact: PyTorch's "nearest-exact", the pixel whose centre is nearest (floor of (dst + 0.5) *
/// in / out; burn's NearestExact); bilinear and bicubic: PyTorch's, with align_corners choosing the
/// coordinate mapping. align_corners does not change the nearest modes.
enum class InterpolateMode { nearest, bilinear, bicubic, nearest_exact };
BURN_ENUM(InterpolateMode, nearest, bilinear, bicubic, nearest_exact)

struct InterpolateOptions {
    InterpolateMode mode = InterpolateMode::nearest;
    /// true: corner pixels of input and output align (burn's default); false: half-pixel centres
    /// (PyTorch's default for F.interpolate). Ignored by nearest.
    bool align_corners = true;
};

/// Sliding-window settings of unfold4d and fold4d (burn's UnfoldOptions): padding is added on both sides
/// of each spatial dim, dilation spaces a window's taps.
struct UnfoldOptions {
    std::array<std::size_t, 2> stride = {1, 1};
    std::array<std::size_t, 2> padding = {0, 0};
    std::array<std::size_t, 2> dilation = {1, 1};
};

namespace ops {

/// x [N, C_in, L], weight [C_out, C_in / groups, K], bias [C_out] -> [N, C_out, L_out].
TensorAny conv1d(TensorAny x, TensorAny weight, std::optional<TensorAny> bias, const ConvOptions<1>& options);
/// x [N, C_in, H, W], weight [C_out, C_in / groups, KH, KW] -> [N, C_out, H_out, W_out].
TensorAny conv2d(TensorAny x, TensorAny weight, std::optional<TensorAny> bias, const ConvOptions<2>& options);
/// x [N, C_in, D, H, W], weight [C_out, C_in / groups, KD, KH, KW].
TensorAny conv3d(TensorAny x, TensorAny weight, std::optional<TensorAny> bias, const ConvOptions<3>& options);
/// x [N, C_in, L], weight [C_in, C_out / groups, K], bias [C_out].
TensorAny conv_transpose1d(TensorAny x, TensorAny weight, std::optional<TensorAny> bias,
                           const ConvTransposeOptions<1>& options);
/// x [N, C_in, H, W], weight [C_in, C_out / groups, KH, KW], bias [C_out].
TensorAny conv_transpose2d(TensorAny x, TensorAny weight, std::optional<TensorAny> bias,
                           const ConvTransposeOptions<2>& options);
TensorAny conv_transpose3d(TensorAny x, TensorAny weight, std::optional<TensorAny> bias,
                           const ConvTransposeOptions<3>& options);

/// Max over windows of [N, C, L]; padded positions never win. ceil_mode rounds the output size up.
TensorAny max_pool1d(TensorAny x, std::size_t kernel_size, std::size_t stride, std::size_t padding,
                     std::size_t dilation = 1, bool ceil_mode = false);
/// Values and indices (i32, the position in the input line).
std::pair<TensorAny, TensorAny> max_pool1d_with_indices(TensorAny x, std::size_t kernel_size,
                                                        std::size_t stride, std::size_t padding,
                                                        std::size_t dilation = 1, bool ceil_mode = false);
TensorAny max_pool2d(TensorAny x, std::array<std::size_t, 2> kernel_size, std::array<std::size_t, 2> stride,
                     std::array<std::size_t, 2> padding, std::array<std::size_t, 2> dilation = {1, 1},
                     bool ceil_mode = false);
/// Values and indices (i32, h * W + w in the input plane, PyTorch's convention).
std::pair<TensorAny, TensorAny> max_pool2d_with_indices(TensorAny x, std::array<std::size_t, 2> kernel_size,
                                                        std::array<std::size_t, 2> stride,
                                                        std::array<std::size_t, 2> padding,
                                                        std::array<std::size_t, 2> dilation = {1, 1},
                                                        bool ceil_mode = false);
/// Mean over windows; count_include_pad counts padded positions in the divisor (PyTorch's default).
TensorAny avg_pool1d(TensorAny x, std::size_t kernel_size, std::size_t stride, std::size_t padding,
                     bool count_include_pad = true, bool ceil_mode = false);
TensorAny avg_pool2d(TensorAny x, std::array<std::size_t, 2> kernel_size, std::array<std::size_t, 2> stride,
                     std::array<std::size_t, 2> padding, bool count_include_pad = true,
                     bool ceil_mode = false);
/// Mean over the bins [floor(i * in / out), ceil((i + 1) * in / out)) of each spatial dim.
TensorAny adaptive_avg_pool1d(TensorAny x, std::size_t output_size);
TensorAny adaptive_avg_pool2d(TensorAny x, std::array<std::size_t, 2> output_size);
/// Resizes [N, C, H, W] to [N, C, out_h, out_w].
TensorAny interpolate(TensorAny x, std::array<std::size_t, 2> output_size, const InterpolateOptions& options);
/// Resizes [N, C, L] to [N, C, output_size] (burn's interpolate1d; PyTorch's 1-D F.interpolate with
/// nearest, nearest-exact, linear or cubic): interpolate on [N, C, 1, L].
TensorAny interpolate1d(TensorAny x, std::size_t output_size, const InterpolateOptions& options);
/// [N, C * r * r, H, W] -> [N, C, H * r, W * r] (PyTorch's pixel_shuffle).
TensorAny pixel_shuffle(TensorAny x, std::size_t upscale_factor);
/// The sliding windows of x [N, C, H, W] as columns (im2col; burn's unfold4d, PyTorch's F.unfold):
/// [N, C * kh * kw, L], L = oh * ow window positions in row-major order, the column of channel c and tap
/// (i, j) at row c * kh * kw + i * kw + j; oh = (H + 2 * ph - dh * (kh - 1) - 1) / sh + 1, ow likewise.
TensorAny unfold4d(TensorAny x, std::array<std::size_t, 2> kernel_size, const UnfoldOptions& options = {});
/// The adjoint of unfold4d (col2im; PyTorch's F.fold): columns [N, C * kh * kw, L] summed back into
/// [N, C, H, W] for output_size (H, W); a position that several windows cover gets their sum.
TensorAny fold4d(TensorAny columns, std::array<std::size_t, 2> output_size,
                 std::array<std::size_t, 2> kernel_size, const UnfoldOptions& options = {});
/// Layer normalisation over the last dim of x [..., D]: (x - mean) / sqrt(var + eps) * gamma + beta
/// (biased variance; gamma, beta [D] of x's dtype, each optional). One fused op (nn::LayerNorm uses it).
TensorAny layer_norm(TensorAny x, std::optional<TensorAny> gamma, std::optional<TensorAny> beta,
                     double eps = 1e-5);
/// Scaled dot-product attention (PyTorch's F.scaled_dot_product_attention, burn's module::attention):
/// softmax(q k^T * scale) v over q [..., Lq, D], k [..., Lk, D], v [..., Lk, Dv] (one float dtype, equal
/// leading dims) -> [..., Lq, Dv]. mask: Bool broadcastable to [..., Lq, Lk], true = the key is not
/// attended (burn's convention; PyTorch's bool attn_mask means the opposite); causal: query i attends
/// keys j <= i + Lk - Lq; scale: 1 / sqrt(D) when not given. A query whose every key is masked gives NaN
/// (as PyTorch). One op (the attention row); a backend without a kernel for it runs its decomposition.
TensorAny attention(TensorAny q, TensorAny k, TensorAny v, std::optional<TensorAny> mask = std::nullopt,
                    bool causal = false, std::optional<double> scale = std::nullopt);
/// Per-row cross-entropy of logits [N, C] and class indices [N] (any Int dtype, in [0, C): IndexError
/// otherwise) with label smoothing s: logsumexp - (1 - s) * logits[t] - s * mean(logits) -> [N].
/// One fused op (nn::loss::CrossEntropyLoss uses it).
TensorAny cross_entropy(TensorAny logits, TensorAny targets, double smoothing = 0);
/// The rows of weights [n, d] (float) at indices (Int, any rank, each in [0, n)) -> [...indices, d]
/// (burn's module::embedding; nn::Embedding is this over its weight). Differentiable for weights.
TensorAny embedding(TensorAny weights, TensorAny indices);
/// Batch normalisation with the statistics given (burn's module::batch_norm): x [N, C, ...] and gamma,
/// beta, mean, variance [C] (x's float dtype) -> (x - mean) / sqrt(variance + eps) * gamma + beta per
/// channel. Computes no statistics and updates none; nn::BatchNorm calls it.
TensorAny batch_norm(TensorAny x, TensorAny gamma, TensorAny beta, TensorAny mean, TensorAny variance,
                     double eps);
/// burn's batch_norm_train: batch_norm with the batch's own mean and biased variance over every dim but
/// 1 (computed in f32 for f16 / bf16 x), returned beside the output in x's dtype (detached: gradients
/// reach x through the output alone).
struct BatchNormTrainOutput {
    TensorAny output;
    TensorAny mean;      // [C]
    TensorAny variance;  // [C], biased, without eps
};
BatchNormTrainOutput batch_norm_train(TensorAny x, TensorAny gamma, TensorAny beta, double eps);

}  // namespace ops

/// Typed forms (burn's burn::tensor::module functions).
namespace tensor::module {

namespace detail {
inline std::optional<TensorAny> handle_of(const std::optional<Tensor<1>>& b) {
    return b ? std::optional<TensorAny>(b->handle()) : std::nullopt;
}
}  // namespace detail

inline Tensor<3> conv1d(const Tensor<3>& x, const Tensor<3>& weight, const std::optional<Tensor<1>>& bias,
                        const ConvOptions<1>& options) {
    return Tensor<3>(ops::conv1d(x.handle(), weight.handle(), detail::handle_of(bias), options));
}
inline Tensor<4> conv2d(const Tensor<4>& x, const Tensor<4>& weight, const std::optional<Tensor<1>>& bias,
                        const ConvOptions<2>& options) {
    return Tensor<4>(ops::conv2d(x.handle(), weight.handle(), detail::handle_of(bias), options));
}
inline Tensor<5> conv3d(const Tensor<5>& x, const Tensor<5>& weight, const std::optional<Tensor<1>>& bias,
                        const ConvOptions<3>& options) {
    return Tensor<5>(ops::conv3d(x.handle(), weight.handle(), detail::handle_of(bias), options));
}
inline Tensor<3> conv_transpose1d(const Tensor<3>& x, const Tensor<3>& weight,
                                  const std::optional<Tensor<1>>& bias,
                                  const ConvTransposeOptions<1>& options) {
    return Tensor<3>(ops::conv_transpose1d(x.handle(), weight.handle(), detail::handle_of(bias), options));
}
inline Tensor<4> conv_transpose2d(const Tensor<4>& x, const Tensor<4>& weight,
                                  const std::optional<Tensor<1>>& bias,
                                  const ConvTransposeOptions<2>& options) {
    return Tensor<4>(ops::conv_transpose2d(x.handle(), weight.handle(), detail::handle_of(bias), options));
}
inline Tensor<3> max_pool1d(const Tensor<3>& x, std::size_t kernel_size, std::size_t stride,
                            std::size_t padding, std::size_t dilation = 1, bool ceil_mode = false) {
    return Tensor<3>(ops::max_pool1d(x.handle(), kernel_size, stride, padding, dilation, ceil_mode));
}
inline Tensor<4> max_pool2d(const Tensor<4>& x, std::array<std::size_t, 2> kernel_size,
                            std::array<std::size_t, 2> stride, std::array<std::size_t, 2> padding,
                            std::array<std::size_t, 2> dilation = {1, 1}, bool ceil_mode = false) {
    return Tensor<4>(ops::max_pool2d(x.handle(), kernel_size, stride, padding, dilation, ceil_mode));
}
inline std::pair<Tensor<4>, Tensor<4, Int>> max_pool2d_with_indices(
    const Tensor<4>& x, std::array<std::size_t, 2> kernel_size, std::array<std::size_t, 2> stride,
    std::array<std::size_t, 2> padding, std::array<std::size_t, 2> dilation = {1, 1},
    bool ceil_mode = false) {
    auto [v, i] = ops::max_pool2d_with_indices(x.handle(), kernel_size, stride, padding, dilation, ceil_mode);
    return {Tensor<4>(std::move(v)), Tensor<4, Int>(std::move(i))};
}
inline Tensor<3> avg_pool1d(const Tensor<3>& x, std::size_t kernel_size, std::size_t stride,
                            std::size_t padding, bool count_include_pad = true, bool ceil_mode = false) {
    return Tensor<3>(ops::avg_pool1d(x.handle(), kernel_size, stride, padding, count_include_pad, ceil_mode));
}
inline Tensor<4> avg_pool2d(const Tensor<4>& x, std::array<std::size_t, 2> kernel_size,
                            std::array<std::size_t, 2> stride, std::array<std::size_t, 2> padding,
                            bool count_include_pad = true, bool ceil_mode = false) {
    return Tensor<4>(ops::avg_pool2d(x.handle(), kernel_size, stride, padding, count_include_pad, ceil_mode));
}
inline Tensor<3> adaptive_avg_pool1d(const Tensor<3>& x, std::size_t output_size) {
    return Tensor<3>(ops::adaptive_avg_pool1d(x.handle(), output_size));
}
inline Tensor<4> adaptive_avg_pool2d(const Tensor<4>& x, std::array<std::size_t, 2> output_size) {
    return Tensor<4>(ops::adaptive_avg_pool2d(x.handle(), output_size));
}
inline Tensor<4> interpolate(const Tensor<4>& x, std::array<std::size_t, 2> output_size,
                             const InterpolateOptions& options) {
    return Tensor<4>(ops::interpolate(x.handle(), output_size, options));
}
inline Tensor<3> interpolate1d(const Tensor<3>& x, std::size_t output_size,
                               const InterpolateOptions& options) {
    return Tensor<3>(ops::interpolate1d(x.handle(), output_size, options));
}
inline Tensor<4> pixel_shuffle(const Tensor<4>& x, std::size_t upscale_factor) {
    return Tensor<4>(ops::pixel_shuffle(x.handle(), upscale_factor));
}
inline Tensor<3> unfold4d(const Tensor<4>& x, std::array<std::size_t, 2> kernel_size,
                          const UnfoldOptions& options = {}) {
    return Tensor<3>(ops::unfold4d(x.handle(), kernel_size, options));
}
inline Tensor<4> fold4d(const Tensor<3>& columns, std::array<std::size_t, 2> output_size,
                        std::array<std::size_t, 2> kernel_size, const UnfoldOptions& options = {}) {
    return Tensor<4>(ops::fold4d(columns.handle(), output_size, kernel_size, options));
}
template <std::size_t D>
Tensor<D> layer_norm(const Tensor<D>& x, const std::optional<Tensor<1>>& gamma,
                     const std::optional<Tensor<1>>& beta, double eps = 1e-5) {
    return Tensor<D>(ops::layer_norm(x.handle(), detail::handle_of(gamma), detail::handle_of(beta), eps));
}
inline Tensor<1> cross_entropy(const Tensor<2>& logits, const Tensor<1, Int>& targets, double smoothing = 0) {
    return Tensor<1>(ops::cross_entropy(logits.handle(), targets.handle(), smoothing));
}
/// weights [n_embedding, d_model], indices [batch, seq] -> [batch, seq, d_model] (burn's embedding).
inline Tensor<3> embedding(const Tensor<2>& weights, const Tensor<2, Int>& indices) {
    return Tensor<3>(ops::embedding(weights.handle(), indices.handle()));
}
/// x [N, C, ...] normalised per channel with the statistics given (burn's batch_norm).
template <std::size_t D>
Tensor<D> batch_norm(const Tensor<D>& x, const Tensor<1>& gamma, const Tensor<1>& beta, const Tensor<1>& mean,
                     const Tensor<1>& variance, double eps = 1e-5) requires(D >= 2) {
    return Tensor<D>(
        ops::batch_norm(x.handle(), gamma.handle(), beta.handle(), mean.handle(), variance.handle(), eps));
}
/// batch_norm over the batch's own statistics, returned with it (burn's BatchNormTrainOutput).
template <std::size_t D>
struct BatchNormTrainOutput {
    Tensor<D> output;
    Tensor<1> mean;
    Tensor<1> variance;
};
template <std::size_t D>
BatchNormTrainOutput<D> batch_norm_train(const Tensor<D>& x, const Tensor<1>& gamma, const Tensor<1>& beta,
                                         double eps = 1e-5) requires(D >= 2) {
    ops::BatchNormTrainOutput r = ops::batch_norm_train(x.handle(), gamma.handle(), beta.handle(), eps);
    return {Tensor<D>(std::move(r.output)), Tensor<1>(std::move(r.mean)), Tensor<1>(std::move(r.variance))};
}

}  // namespace tensor::module

}  // namespace burn
