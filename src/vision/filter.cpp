// filter2d: pad, then a depthwise conv2d with the kernel repeated per channel.
#include "burn/vision/filter.hpp"

#include "burn/core/error.hpp"
#include "burn/tensor/module_ops.hpp"

namespace burn::vision {

Tensor<4> filter2d(const Tensor<4>& images, const Tensor<2>& kernel, const PadMode& border) {
    const Dims& s = images.handle().shape();
    const Dims& k = kernel.handle().shape();
    const int64_t channels = s[1], kh = k[0], kw = k[1];
    BURN_CHECK_KIND(kh > 0 && kw > 0, shape, "[filter2d] the kernel of shape ", k,
                    " is empty; pass at least 1 x 1");
    BURN_CHECK_KIND(border.kind != PadMode::Kind::reflect || (kh / 2 < s[2] && kw / 2 < s[3]), shape,
                    "[filter2d] reflect padding of images ", s, " by a ", k,
                    " kernel needs kH / 2 < H and kW / 2 < W; use PadMode::Edge() or a smaller kernel");
    const Tensor<4> weight =
        kernel.cast(images.dtype())
            .reshape(Shape<4>{1, 1, static_cast<std::size_t>(kh), static_cast<std::size_t>(kw)})
            .repeat_dim(0, channels);
    const Tensor<4> padded = images.pad({kw / 2, (kw - 1) / 2, kh / 2, (kh - 1) / 2}, border);
    ConvOptions<2> options;
    options.groups = static_cast<std::size_t>(channels);
    return burn::tensor::module::conv2d(padded, weight, std::nullopt, options);
}

}  // namespace burn::vision
