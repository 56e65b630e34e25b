// save_tensor_as_image: a tensor scaled to [0, 1], laid out as [N, C, H, W], resampled (nearest) and
// drawn into an 8-bit RGB image that write_png encodes.
#include <algorithm>
#include <cmath>
#include <system_error>
#include <vector>

#include "burn/core/error.hpp"
#include "burn/data/image.hpp"
#include "burn/tensor/ops.hpp"
#include "burn/vision/save.hpp"

namespace burn::vision {

namespace {

struct SaveLayout {
    int rank;
    int n, c, h, w;  // which dim holds each (-1: absent, size 1)
};

SaveLayout save_layout_of(ImageDimOrder order) {
    switch (order) {
        case ImageDimOrder::hw:
            return {2, -1, -1, 0, 1};
        case ImageDimOrder::chw:
            return {3, -1, 0, 1, 2};
        case ImageDimOrder::hwc:
            return {3, -1, 2, 0, 1};
        case ImageDimOrder::nhw:
            return {3, 0, -1, 1, 2};
        case ImageDimOrder::nchw:
            return {4, 0, 1, 2, 3};
        case ImageDimOrder::nhwc:
            return {4, 0, 3, 1, 2};
    }
    return {4, 0, 1, 2, 3};
}

}  // namespace

void save_tensor_as_image(const TensorAny& tensor, const TensorDisplayOptions& options,
                          const std::filesystem::path& path) {
    const SaveLayout l = save_layout_of(options.dim_order);
    const Dims& s = tensor.shape();
    BURN_CHECK_KIND(s.rank() == l.rank, shape, "[save_tensor_as_image] the dim order needs a rank-", l.rank,
                    " tensor, got shape ", s, "; pass the ImageDimOrder that matches the tensor");
    auto size = [&](int d) { return d < 0 ? int64_t{1} : s[d]; };
    const int64_t n = size(l.n), c = size(l.c), h = size(l.h), w = size(l.w);
    BURN_CHECK_KIND(n * c * h * w > 0, shape, "[save_tensor_as_image] the tensor of shape ", s, " is empty");
    BURN_CHECK_KIND(options.color.kind != ColorDisplay::Kind::rgb || c <= 3, shape,
                    "[save_tensor_as_image] RGB display takes 1 to 3 channels, got ", c, " (shape ", s,
                    "); select three channels or use ColorDisplay::monochrome");
    BURN_CHECK(
        options.width_out >= 0 && options.height_out >= 0,
        "[save_tensor_as_image] width_out and height_out must be positive (or 0: the tensor's size), got ",
        options.width_out, " x ", options.height_out);
    const int64_t wo = options.width_out > 0 ? options.width_out : w;
    const int64_t ho = options.height_out > 0 ? options.height_out : h;
    const bool tiled = options.batch == BatchDisplay::tiled;

    std::vector<double> v = burn::ops::into_data(tensor).convert(DType::f64).to_vec<double>();
    const auto [lo_it, hi_it] = std::minmax_element(v.begin(), v.end());
    const double lo = *lo_it, range = *hi_it - *lo_it == 0 ? 1.0 : *hi_it - *lo_it;
    for (double& x : v) x = (x - lo) / range;
    // Strides of each logical dim in the tensor's own layout.
    std::vector<int64_t> stride(static_cast<std::size_t>(s.rank()), 1);
    for (int d = s.rank() - 2; d >= 0; --d)
        stride[static_cast<std::size_t>(d)] = stride[static_cast<std::size_t>(d) + 1] * s[d + 1];
    auto st = [&](int d) { return d < 0 ? int64_t{0} : stride[static_cast<std::size_t>(d)]; };

    data::Image img(static_cast<int>(tiled ? ho * n : ho), static_cast<int>(wo), 3);
    for (int64_t b = 0; b < n; ++b)
        for (int64_t y = 0; y < ho; ++y)
            for (int64_t x = 0; x < wo; ++x) {
                const int64_t sy = y * h / ho, sx = x * w / wo;
                double ch[3] = {0, 0, 0}, sum = 0;
                for (int64_t k = 0; k < c; ++k) {
                    const double val =
                        v[static_cast<std::size_t>(b * st(l.n) + k * st(l.c) + sy * st(l.h) + sx * st(l.w))];
                    if (k < 3) ch[k] = val;
                    sum += val;
                }
                double px[3];
                for (int k = 0; k < 3; ++k)
                    px[k] = options.color.kind == ColorDisplay::Kind::rgb
                                ? ch[k]
                                : options.color.min[k] * (1.0 - sum) + options.color.max[k] * sum;
                const int64_t oy = tiled ? b * ho + y : y;
                for (int k = 0; k < 3; ++k)
                    img.at(static_cast<int>(oy), static_cast<int>(x), k) =
                        static_cast<uint8_t>(std::clamp(std::floor(px[k] * 255.0), 0.0, 255.0));
            }
    if (path.has_parent_path()) {
        std::error_code ec;
        std::filesystem::create_directories(path.parent_path(), ec);
        BURN_CHECK_KIND(!ec, io, "[save_tensor_as_image] cannot create the directory '",
                        path.parent_path().string(), "': ", ec.message());
    }
    data::write_png(path, img);
}

}  // namespace burn::vision
