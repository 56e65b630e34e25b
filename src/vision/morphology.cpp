// erode / dilate on the host: a direct min/max over the kernel's set cells, with OpenCV's borders.
#include "burn/vision/morphology.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "burn/core/error.hpp"
#include "vision/host_values.hpp"

namespace burn::vision {

namespace {

// Index p mapped into [0, n) by the border rule; -1 for a constant border outside.
int64_t morph_border_index(int64_t p, int64_t n, BorderType type) {
    if (p >= 0 && p < n) return p;
    switch (type) {
        case BorderType::constant:
            return -1;
        case BorderType::replicate:
            return p < 0 ? 0 : n - 1;
        case BorderType::wrap:
            return ((p % n) + n) % n;
        case BorderType::reflect:
        case BorderType::reflect101: {
            if (n == 1) return 0;
            const int64_t delta = type == BorderType::reflect101 ? 1 : 0;
            while (p < 0 || p >= n) p = p < 0 ? -p - 1 + delta : 2 * n - 1 - p - delta;
            return p;
        }
    }
    return -1;
}

std::pair<double, double> morph_int_range(DType d) {
    switch (d) {
        case DType::i64:
            return {-9223372036854775808.0, 9223372036854774784.0};
        case DType::i32:
            return {std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()};
        case DType::i16:
            return {std::numeric_limits<int16_t>::min(), std::numeric_limits<int16_t>::max()};
        case DType::i8:
            return {std::numeric_limits<int8_t>::min(), std::numeric_limits<int8_t>::max()};
        case DType::u8:
            return {0.0, 255.0};
        default:
            return {0.0, 1.0};  // bool
    }
}

}  // namespace

Tensor<2, Bool> create_structuring_element(KernelShape shape, int64_t height, int64_t width,
                                           std::optional<Point> anchor, const Device& device) {
    BURN_CHECK_KIND(height > 0 && width > 0, shape,
                    "[create_structuring_element] the size must be positive, got ", height, " x ", width,
                    "; pass a height and width of at least 1");
    const Point a = anchor.value_or(Point{width / 2, height / 2});
    BURN_CHECK_KIND(a.x >= 0 && a.x < width && a.y >= 0 && a.y < height, index,
                    "[create_structuring_element] the anchor (", a.x, ", ", a.y, ") is outside the ", height,
                    " x ", width, " kernel; pass x in [0, width) and y in [0, height)");
    if (height == 1 && width == 1) shape = KernelShape::rect;
    std::vector<bool> cells(static_cast<std::size_t>(height * width), false);
    const int64_t r = height / 2, c = width / 2;
    const double inv_r2 = r > 0 ? 1.0 / static_cast<double>(r * r) : 0.0;
    for (int64_t i = 0; i < height; ++i) {
        int64_t j1 = 0, j2 = 0;
        if (shape == KernelShape::rect || (shape == KernelShape::cross && i == a.y)) {
            j2 = width;
        } else if (shape == KernelShape::cross) {
            j1 = a.x;
            j2 = a.x + 1;
        } else {
            const int64_t dy = i - r;
            if (dy >= -r && dy <= r) {
                const int64_t dx = std::lround(static_cast<double>(c) *
                                               std::sqrt(static_cast<double>(r * r - dy * dy) * inv_r2));
                j1 = std::max<int64_t>(c - dx, 0);
                j2 = std::min<int64_t>(c + dx + 1, width);
            }
        }
        for (int64_t j = j1; j < j2; ++j) cells[static_cast<std::size_t>(i * width + j)] = true;
    }
    return Tensor<2, Bool>::from_data(TensorData(cells, Dims{height, width}), device);
}

namespace ops {

TensorAny morphology(const TensorAny& input, const TensorAny& kernel, bool dilate,
                     const MorphOptions& options) {
    const char* op = dilate ? "[dilate]" : "[erode]";
    BURN_CHECK_KIND(input.rank() == 3, shape, op, " the input must be [H, W, C], got shape ", input.shape(),
                    "; add a channel dim with unsqueeze_dim(2) for a one-channel image");
    BURN_CHECK_KIND(kernel.rank() == 2 && is_bool(kernel.dtype()), shape, op,
                    " the kernel must be a 2-D bool tensor, got shape ", kernel.shape(), " of ",
                    kernel.dtype(), "; build one with create_structuring_element");
    BURN_CHECK(options.iterations >= 1, op, " iterations must be at least 1, got ", options.iterations);
    const int64_t h = input.shape()[0], w = input.shape()[1], ch = input.shape()[2];
    const int64_t kh = kernel.shape()[0], kw = kernel.shape()[1];
    const Point a = options.anchor.value_or(Point{kw / 2, kh / 2});
    BURN_CHECK_KIND(a.x >= 0 && a.x < kw && a.y >= 0 && a.y < kh, index, op, " the anchor (", a.x, ", ", a.y,
                    ") is outside the kernel of shape ", kernel.shape(),
                    "; pass x in [0, kW) and y in [0, kH)");
    std::vector<double> fill(static_cast<std::size_t>(ch), dilate ? -std::numeric_limits<double>::infinity()
                                                                  : std::numeric_limits<double>::infinity());
    if (options.border_value) {
        const auto& bv = *options.border_value;
        BURN_CHECK_KIND(bv.size() == 1 || static_cast<int64_t>(bv.size()) == ch, shape, op,
                        " border_value has ", bv.size(), " values for an input of shape ", input.shape(),
                        "; give one value or ", ch);
        for (int64_t c = 0; c < ch; ++c) fill[static_cast<std::size_t>(c)] = bv[bv.size() == 1 ? 0 : c];
    }
    std::vector<std::pair<int64_t, int64_t>> offsets;  // (dy, dx) of the set cells
    {
        const std::vector<double> k = detail::host_values(kernel);
        for (int64_t i = 0; i < kh; ++i)
            for (int64_t j = 0; j < kw; ++j)
                if (k[static_cast<std::size_t>(i * kw + j)] != 0) offsets.emplace_back(i - a.y, j - a.x);
    }
    std::vector<double> cur = detail::host_values(input), next(cur.size());
    if (h * w * ch == 0 || offsets.empty()) {
        // No set cell: OpenCV leaves the image unchanged.
        return input;
    }
    for (int64_t it = 0; it < options.iterations; ++it) {
        for (int64_t y = 0; y < h; ++y)
            for (int64_t x = 0; x < w; ++x)
                for (int64_t c = 0; c < ch; ++c) {
                    double best = dilate ? -std::numeric_limits<double>::infinity()
                                         : std::numeric_limits<double>::infinity();
                    for (const auto& [dy, dx] : offsets) {
                        const int64_t yy = morph_border_index(y + dy, h, options.border_type);
                        const int64_t xx = morph_border_index(x + dx, w, options.border_type);
                        const double v = (yy < 0 || xx < 0)
                                             ? fill[static_cast<std::size_t>(c)]
                                             : cur[static_cast<std::size_t>((yy * w + xx) * ch + c)];
                        best = dilate ? std::max(best, v) : std::min(best, v);
                    }
                    next[static_cast<std::size_t>((y * w + x) * ch + c)] = best;
                }
        std::swap(cur, next);
    }
    if (!is_float(input.dtype())) {
        // A pixel whose set cells all fall on a default constant border keeps the "never wins" value:
        // the dtype's largest (erode) or smallest (dilate), as OpenCV saturates it.
        const auto [lo, hi] = morph_int_range(input.dtype());
        for (double& v : cur) v = std::clamp(v, lo, hi);
    }
    return detail::from_host(cur, input.shape(), input.dtype(), input.device());
}

}  // namespace ops

}  // namespace burn::vision
