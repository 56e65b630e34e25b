// Splitting a oneDNN convolution call into parts (dnnl_conv_parts.hpp).
#include "backends/cpu/dnnl_conv_parts.hpp"

#include <algorithm>

#include "platform/parallel.hpp"

namespace burn::cpu::dnnl_parts {
namespace {

/// Splits [0, n) into `parts` ranges whose sizes are multiples of `unit` (but the last).
std::vector<int64_t> split(int64_t n, int64_t parts, int64_t unit) {
    const int64_t units = (n + unit - 1) / unit;
    parts = std::max<int64_t>(1, std::min(parts, units));
    std::vector<int64_t> cuts{0};
    for (int64_t i = 1; i <= parts; ++i) cuts.push_back(std::min(n, units * i / parts * unit));
    return cuts;
}

}  // namespace

std::vector<Part> make_parts(const attrs::Conv& a, const Dims& xs, const Dims& ws, const Dims& ys,
                             bool y_cl) {
    const int64_t n = xs[0], c = xs[1], o = ys[1], groups = a.groups;
    const int64_t x_img = xs.numel() / std::max<int64_t>(1, n), y_img = ys.numel() / std::max<int64_t>(1, n);
    const int64_t y_vol = y_img / std::max<int64_t>(1, o), x_vol = x_img / std::max<int64_t>(1, c);
    const int64_t w_per_out = ws.numel() / std::max<int64_t>(1, o);
    const int64_t threads = platform::threads();
    const Part whole{a, xs, ws, ys};
    std::vector<Part> parts;
    if (n > 1 || threads == 1) {
        // Ranges of images: dense slices of x and y in either layout, all the weights.
        const auto cuts = split(n, threads, 1);
        for (std::size_t i = 0; i + 1 < cuts.size(); ++i) {
            Part q = whole;
            q.xs[0] = q.ys[0] = cuts[i + 1] - cuts[i];
            q.x_off = cuts[i] * x_img;
            q.y_off = cuts[i] * y_img;
            parts.push_back(q);
        }
    } else if (y_cl && groups == 1 && ys[2] % threads != 0 && ys[2] < 4 * threads &&
               o % (16 * threads) == 0) {
        // One channels-last image whose few rows do not split evenly (7 rows on 2 threads: 4 and 3):
        // equal ranges of output channels, each through a dense buffer (Part::y_channels).
        const auto cuts = split(o, threads, 16);
        for (std::size_t i = 0; i + 1 < cuts.size(); ++i) {
            Part q = whole;
            q.ws[0] = q.ys[1] = cuts[i + 1] - cuts[i];
            q.w_off = cuts[i] * w_per_out;
            q.b_off = cuts[i];
            q.y_channels = o;
            parts.push_back(q);
        }
    } else if (y_cl) {
        // One channels-last image: ranges of output rows, each with the input rows it reads (dense in
        // that layout) and the top padding that remains.
        const auto cuts = split(ys[2], threads, 1);
        const int64_t st = a.stride[0], pt = a.pad_begin[0], reach = (ws[2] - 1) * a.dilation[0] + 1;
        for (std::size_t i = 0; i + 1 < cuts.size(); ++i) {
            const int64_t lo = cuts[i] * st - pt, hi = (cuts[i + 1] - 1) * st - pt + reach;
            const int64_t i0 = std::max<int64_t>(0, lo), i1 = std::min(xs[2], hi);
            if (i1 <= i0) return {whole};  // rows that read padding only: one part
            Part q = whole;
            q.a.pad_begin[0] = i0 - lo;
            q.xs[2] = i1 - i0;
            q.ys[2] = cuts[i + 1] - cuts[i];
            q.x_off = i0 * (x_img / xs[2]);
            q.y_off = cuts[i] * (y_img / ys[2]);
            parts.push_back(q);
        }
    } else if (groups == 1) {
        // One image: ranges of output channels (16 at a time: oneDNN's block), all the input.
        const auto cuts = split(o, threads, 16);
        for (std::size_t i = 0; i + 1 < cuts.size(); ++i) {
            Part q = whole;
            q.ws[0] = q.ys[1] = cuts[i + 1] - cuts[i];
            q.w_off = q.b_off = cuts[i];
            q.w_off *= w_per_out;
            q.y_off = cuts[i] * y_vol;
            parts.push_back(q);
        }
    } else {
        // One image, grouped (depthwise too): ranges of groups, each with its own input channels.
        const int64_t cg = c / groups, og = o / groups;
        const auto cuts = split(groups, threads, std::max<int64_t>(1, 16 / std::max<int64_t>(1, og)));
        for (std::size_t i = 0; i + 1 < cuts.size(); ++i) {
            Part q = whole;
            const int64_t g0 = cuts[i], gn = cuts[i + 1] - cuts[i];
            q.a.groups = gn;
            q.xs[1] = gn * cg;
            q.ws[0] = q.ys[1] = gn * og;
            q.x_off = g0 * cg * x_vol;
            q.w_off = g0 * og * w_per_out;
            q.y_off = g0 * og * y_vol;
            q.b_off = g0 * og;
            parts.push_back(q);
        }
    }
    return parts;
}

}  // namespace burn::cpu::dnnl_parts
