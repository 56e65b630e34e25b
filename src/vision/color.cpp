// Colour conversions: grey ones as tensor composites, HSV ones on the host in float64.
#include "burn/vision/color.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "burn/core/error.hpp"
#include "vision/host_values.hpp"

namespace burn::vision {

namespace {

void color_check_channels(const Tensor<4>& images, int64_t channels, const char* op, const char* fix) {
    BURN_CHECK_KIND(images.handle().shape()[1] == channels, shape, op, " expects [N, ", channels,
                    ", H, W] images, got shape ", images.handle().shape(), "; ", fix);
}

// The [N, 3, H, W] values with f applied to each pixel's three channels.
template <class F>
Tensor<4> color_per_pixel(const Tensor<4>& images, F f) {
    const TensorAny& t = images.handle();
    std::vector<double> v = detail::host_values(t);
    const int64_t n = t.shape()[0], plane = t.shape()[2] * t.shape()[3];
    for (int64_t b = 0; b < n; ++b)
        for (int64_t p = 0; p < plane; ++p) {
            double* c0 = &v[static_cast<std::size_t>(b * 3 * plane + p)];
            f(c0[0], c0[plane], c0[2 * plane]);
        }
    return Tensor<4>(detail::from_host(v, t.shape(), t.dtype(), t.device()));
}

}  // namespace

Tensor<4> rgb2gray(const Tensor<4>& images) {
    color_check_channels(images, 3, "[rgb2gray]",
                         "pass RGB images, channels first (permute HWC images to CHW)");
    return 0.299 * images.narrow(1, 0, 1) + 0.587 * images.narrow(1, 1, 1) + 0.114 * images.narrow(1, 2, 1);
}

Tensor<4> gray2rgb(const Tensor<4>& images) {
    color_check_channels(images, 1, "[gray2rgb]", "pass one-channel images, channels first");
    return images.repeat_dim(1, 3);
}

Tensor<4> rgb2hsv(const Tensor<4>& images) {
    color_check_channels(images, 3, "[rgb2hsv]",
                         "pass RGB images, channels first (permute HWC images to CHW)");
    return color_per_pixel(images, [](double& r, double& g, double& b) {
        const double v = std::max({r, g, b});
        const double chroma = v - std::min({r, g, b});
        double h = 0;
        if (chroma > 0) {
            if (v == r)
                h = (g - b) / chroma;
            else if (v == g)
                h = (b - r) / chroma + 2;
            else
                h = (r - g) / chroma + 4;
            h *= 60;
            if (h < 0) h += 360;
        }
        const double s = v > 0 ? chroma / v : 0;
        r = h;
        g = s;
        b = v;
    });
}

Tensor<4> hsv2rgb(const Tensor<4>& images) {
    color_check_channels(images, 3, "[hsv2rgb]", "pass HSV images, channels first");
    return color_per_pixel(images, [](double& h, double& s, double& v) {
        const double sixths = std::fmod(std::fmod(h, 360.0) + 360.0, 360.0) / 60.0;
        const double chroma = v * s;
        // Each channel falls from v by chroma over the part of the hue wheel away from its colour.
        auto channel = [&](int target) {
            const double rotated = std::fmod(sixths + 5.0 - 2.0 * target, 6.0);
            const double ramp = std::clamp(std::min(rotated, 4.0 - rotated), 0.0, 1.0);
            return v - chroma * ramp;
        };
        const double r = channel(0), g = channel(1), b = channel(2);
        h = r;
        s = g;
        v = b;
    });
}

}  // namespace burn::vision
