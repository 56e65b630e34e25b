// ONNX resampling and space/depth moves: Resize, Upsample, DepthToSpace, SpaceToDepth.
// Resize is separable: each resized axis is a 1-D resampling whose source indices and weights are
// computed on the host from the shapes and attributes alone (never from tensor data), then applied
// with ops::select (one gather per filter tap) and a weighted sum. So it covers any rank and axis,
// nearest/linear/cubic, every coordinate mode, exclude_outside, antialias and the extrapolation of
// tf_crop_and_resize, on every device. The coordinate and coefficient rules follow ONNX's reference
// implementation (onnx/backend/test/case/node/resize.py and onnx/reference/ops/op_resize.py).
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string>

#include "onnx/op_util.hpp"

namespace burn::onnx::detail {

namespace {

using Outs = std::vector<TensorAny>;

struct RsMode {
    std::string mode = "nearest";  // nearest | linear | cubic
    std::string coord = "half_pixel";
    std::string nearest = "round_prefer_floor";  // or "simple": Resize-10 and Upsample
    double cubic_a = -0.75;
    bool exclude_outside = false;
    bool antialias = false;
    double extrapolation = 0;
};

struct RsAxis {
    int64_t in = 0, out = 0;
    double scale = 1, roi0 = 0, roi1 = 1;
};

// One axis' resampling: out[x] = sum over taps t of w[t][x] * in[idx[t][x]], or the extrapolation
// value where outside[x].
struct RsPlan {
    std::vector<std::vector<int64_t>> idx;
    std::vector<std::vector<double>> w;
    std::vector<double> outside;  // 1 where extrapolated
    bool any_outside = false, unit = true, identity = false;
};

// The source coordinate of output index x; outside is set where tf_crop_and_resize extrapolates.
double rs_source(const RsMode& m, const RsAxis& a, int64_t x, bool& outside) {
    const double xd = static_cast<double>(x), in = static_cast<double>(a.in), width = a.scale * in;
    outside = false;
    const std::string& c = m.coord;
    if (c == "half_pixel") return (xd + 0.5) / a.scale - 0.5;
    if (c == "half_pixel_symmetric")
        return in / 2 * (1 - static_cast<double>(a.out) / width) + (xd + 0.5) / a.scale - 0.5;
    if (c == "pytorch_half_pixel") return a.out == 1 ? -0.5 : (xd + 0.5) / a.scale - 0.5;
    if (c == "align_corners") return width == 1 ? 0.0 : xd * (in - 1) / (width - 1);
    if (c == "asymmetric") return xd / a.scale;
    if (c == "tf_half_pixel_for_nn") return (xd + 0.5) / a.scale;
    // tf_crop_and_resize
    double s = a.out == 1 ? (a.roi1 - a.roi0) * (in - 1) / 2
                          : xd * (a.roi1 - a.roi0) * (in - 1) / static_cast<double>(a.out - 1);
    s += a.roi0 * (in - 1);
    outside = s < 0 || s > in - 1;
    return s;
}

// The filter coefficients at fraction ratio in (0, 1] past source index i0; returns the offset from
// i0 of the first coefficient's source index.
int64_t rs_coeffs(const RsMode& m, double ratio, double scale, std::vector<double>& w) {
    w.clear();
    if (m.mode == "nearest") {
        bool up = true;  // ratio 1: the source coordinate is an integer, i0 + 1
        if (ratio != 1) {
            if (m.nearest == "round_prefer_floor")
                up = ratio > 0.5;
            else if (m.nearest == "round_prefer_ceil")
                up = ratio >= 0.5;
            else if (m.nearest == "floor")
                up = false;
            else if (m.nearest == "ceil")
                up = true;
            else
                up = scale < 1;  // simple: floor when upsampling, ceil when downsampling
        }
        w = {up ? 0.0 : 1.0, up ? 1.0 : 0.0};
        return 0;
    }
    // antialias stretches the filter by 1 / scale when downsampling
    const double s = m.antialias ? std::min(scale, 1.0) : 1.0;
    double sum = 0;
    if (m.mode == "linear") {
        const auto start = static_cast<int64_t>(std::floor(-1 / s)) + 1;
        for (int64_t i = start; i < 2 - start; ++i) {
            w.push_back(std::clamp(1 - std::abs((static_cast<double>(i) - ratio) * s), 0.0, 1.0));
            sum += w.back();
        }
        if (m.antialias && sum != 0)
            for (double& v : w) v /= sum;
        return start;
    }
    const double A = m.cubic_a;
    if (!m.antialias) {
        const double r = ratio + 1, p = ratio, q = 1 - ratio, u = 2 - ratio;
        w = {((A * r - 5 * A) * r + 8 * A) * r - 4 * A, ((A + 2) * p - (A + 3)) * p * p + 1,
             ((A + 2) * q - (A + 3)) * q * q + 1, ((A * u - 5 * A) * u + 8 * A) * u - 4 * A};
        return -1;
    }
    auto kernel = [A](double x) {
        x = std::abs(x);
        if (x <= 1) return ((A + 2) * x - (A + 3)) * x * x + 1;
        if (x < 2) return ((A * x - 5 * A) * x + 8 * A) * x - 4 * A;
        return 0.0;
    };
    const auto start = static_cast<int64_t>(std::floor(-2 / s)) + 1;
    for (int64_t i = start; i < 2 - start; ++i) {
        w.push_back(kernel(s * (static_cast<double>(i) - ratio)));
        sum += w.back();
    }
    if (sum != 0)
        for (double& v : w) v /= sum;
    return start;
}

RsPlan rs_plan(const RsMode& m, const RsAxis& a) {
    RsPlan p;
    p.outside.assign(static_cast<std::size_t>(a.out), 0.0);
    std::vector<std::map<int64_t, double>> taps(static_cast<std::size_t>(a.out));
    std::vector<double> w;
    for (int64_t x = 0; x < a.out; ++x) {
        bool outside = false;
        const double src = rs_source(m, a, x, outside);
        if (outside) {
            p.outside[static_cast<std::size_t>(x)] = 1;
            p.any_outside = true;
            continue;
        }
        // ratio in (0, 1]: an integer source coordinate counts as ratio 1 past the index below it
        const double fl = std::floor(src);
        const double i0 = fl == src ? fl - 1 : fl;
        int64_t first = static_cast<int64_t>(i0) + rs_coeffs(m, src - i0, a.scale, w);
        // the taps are the nearest indices within the input edge-padded by ceil(n / 2)
        const auto n = static_cast<int64_t>(w.size()), pad = (n + 1) / 2;
        first = std::clamp(first, -pad, a.in - 1 + pad - n + 1);
        if (m.exclude_outside && m.mode != "nearest") {
            double sum = 0;
            for (int64_t j = 0; j < n; ++j) {
                if (first + j < 0 || first + j >= a.in) w[static_cast<std::size_t>(j)] = 0;
                sum += w[static_cast<std::size_t>(j)];
            }
            if (sum != 0)
                for (double& v : w) v /= sum;
        }
        for (int64_t j = 0; j < n; ++j)
            if (w[static_cast<std::size_t>(j)] != 0)
                taps[static_cast<std::size_t>(x)][std::clamp<int64_t>(first + j, 0, a.in - 1)] +=
                    w[static_cast<std::size_t>(j)];
    }
    std::size_t count = 1;
    for (const auto& t : taps) count = std::max(count, t.size());
    p.idx.assign(count, std::vector<int64_t>(static_cast<std::size_t>(a.out), 0));
    p.w.assign(count, std::vector<double>(static_cast<std::size_t>(a.out), 0.0));
    p.unit = count == 1;
    p.identity = a.in == a.out && !p.any_outside;
    for (std::size_t x = 0; x < taps.size(); ++x) {
        std::size_t t = 0;
        for (const auto& [i, v] : taps[x]) {
            p.idx[t][x] = i;
            p.w[t][x] = v;
            ++t;
        }
        if (p.outside[x] == 0 && p.w[0][x] != 1) p.unit = false;
        if (p.idx[0][x] != static_cast<int64_t>(x)) p.identity = false;
    }
    p.identity = p.identity && p.unit;
    return p;
}

// x resampled along dim d by plan p.
TensorAny rs_apply(const OpContext& c, const TensorAny& x, int64_t d, const RsPlan& p, double extrapolation) {
    const auto out = static_cast<int64_t>(p.outside.size());
    Dims wshape = Dims::filled(static_cast<int>(x.rank()), 1);
    wshape[static_cast<int>(d)] = out;
    auto column = [&](const std::vector<double>& v) {
        return ops::reshape(c.constant(TensorData(v, Dims{out})), wshape);
    };
    TensorAny y;
    for (std::size_t t = 0; t < p.idx.size(); ++t) {
        TensorAny g = ops::select(x, d, c.constant(TensorData(p.idx[t], Dims{out})));
        if (!p.unit) g = ops::mul(g, ops::cast(column(p.w[t]), x.dtype()));
        y = t == 0 ? g : ops::add(y, g);
    }
    if (p.any_outside) {
        TensorAny mask = ops::greater_elem(column(p.outside), 0.5);
        y = ops::where(mask, ops::full(wshape, extrapolation, x.dtype(), x.device()), y);
    }
    return y;
}

// x resampled to the per-axis sizes of ax; downsampled axes go first (less work on the rest).
TensorAny rs_resample(const OpContext& c, TensorAny x, const std::vector<RsAxis>& ax, const RsMode& m) {
    const DType dt = x.dtype();
    c.check(dt != DType::boolean || m.mode == "nearest", "mode '", m.mode,
            "' cannot interpolate a bool tensor; use mode 'nearest' or cast the input first");
    const bool via_float = !is_float(dt) && dt != DType::boolean && m.mode != "nearest";
    if (via_float) x = ops::cast(x, DType::f32);
    std::vector<std::size_t> order(ax.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    auto ratio = [&](std::size_t i) {
        return ax[i].in == 0 ? 1.0 : static_cast<double>(ax[i].out) / static_cast<double>(ax[i].in);
    };
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return ratio(a) < ratio(b); });
    for (std::size_t d : order) {
        const RsAxis& a = ax[d];
        c.check(a.in > 0 || a.out == 0, "cannot resize dim ", d, " of ", x.shape(), " (size 0) to size ",
                a.out);
        if (a.in == 0) continue;
        const RsPlan p = rs_plan(m, a);
        if (!p.identity) x = rs_apply(c, x, static_cast<int64_t>(d), p, m.extrapolation);
    }
    if (via_float) {
        x = ops::round(x);
        double lo = 0, hi = 0;
        switch (dt) {
            case DType::u8:
                lo = 0, hi = 255;
                break;
            case DType::i8:
                lo = -128, hi = 127;
                break;
            case DType::i16:
                lo = -32768, hi = 32767;
                break;
            case DType::i32:
                lo = -2147483648.0, hi = 2147483647.0;
                break;
            default:
                lo = -9.2e18, hi = 9.2e18;
                break;
        }
        x = ops::cast(ops::clamp(x, lo, hi), dt);
    }
    return x;
}

std::vector<RsAxis> rs_axes_of(const TensorAny& x) {
    std::vector<RsAxis> ax(static_cast<std::size_t>(x.rank()));
    for (int i = 0; i < x.rank(); ++i)
        ax[static_cast<std::size_t>(i)].in = ax[static_cast<std::size_t>(i)].out = x.shape()[i];
    return ax;
}

// Resize-10 and Upsample: one scale per dim, asymmetric coordinates, floor/ceil nearest.
TensorAny rs_by_scales(const OpContext& c, const TensorAny& x, const std::vector<double>& scales,
                       std::string mode) {
    if (mode == "bilinear") mode = "linear";
    c.check(mode == "nearest" || mode == "linear", "mode '", mode, "' is not supported (nearest or linear)");
    c.check(static_cast<int64_t>(scales.size()) == x.rank(), "needs one scale per dim of ", x.shape(),
            ", got ", scales.size());
    RsMode m;
    m.mode = mode;
    m.coord = "asymmetric";
    m.nearest = "simple";
    std::vector<RsAxis> ax = rs_axes_of(x);
    for (std::size_t i = 0; i < ax.size(); ++i) {
        c.check(scales[i] > 0, "scale ", scales[i], " of dim ", i, " must be positive");
        ax[i].scale = scales[i];
        ax[i].out = static_cast<int64_t>(std::floor(static_cast<double>(ax[i].in) * scales[i]));
    }
    return rs_resample(c, x, ax, m);
}

Outs rs_upsample(const OpContext& c) {
    const std::vector<double> scales = c.opset() >= 9 ? c.doubles_of(1) : c.attr_floats("scales");
    return {rs_by_scales(c, c.in(0), scales, c.attr_string("mode", "nearest"))};
}

bool rs_one_of(const std::string& s, std::initializer_list<const char*> options) {
    for (const char* o : options)
        if (s == o) return true;
    return false;
}

Outs rs_resize(const OpContext& c) {
    const TensorAny& x = c.in(0);
    if (c.opset() < 11) return {rs_by_scales(c, x, c.doubles_of(1), c.attr_string("mode", "nearest"))};
    RsMode m;
    m.mode = c.attr_string("mode", "nearest");
    m.coord = c.attr_string("coordinate_transformation_mode", "half_pixel");
    m.nearest = c.attr_string("nearest_mode", "round_prefer_floor");
    m.cubic_a = c.attr_float("cubic_coeff_a", -0.75);
    m.exclude_outside = c.attr_int("exclude_outside", 0) != 0;
    m.extrapolation = c.attr_float("extrapolation_value", 0);
    m.antialias = c.attr_int("antialias", 0) != 0;
    c.check(rs_one_of(m.mode, {"nearest", "linear", "cubic"}), "mode '", m.mode,
            "' is not supported (nearest, linear or cubic)");
    c.check(rs_one_of(m.coord, {"half_pixel", "half_pixel_symmetric", "pytorch_half_pixel", "align_corners",
                                "asymmetric", "tf_half_pixel_for_nn", "tf_crop_and_resize"}),
            "coordinate_transformation_mode '", m.coord, "' is not supported");
    c.check(rs_one_of(m.nearest, {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"}),
            "nearest_mode '", m.nearest,
            "' is not supported (round_prefer_floor, round_prefer_ceil, floor or ceil)");
    const std::vector<double> roi = c.has(1) ? c.doubles_of(1) : std::vector<double>{};
    const std::vector<double> scales = c.has(2) ? c.doubles_of(2) : std::vector<double>{};
    const std::vector<int64_t> sizes = c.has(3) ? c.ints_of(3) : std::vector<int64_t>{};
    c.check(scales.empty() != sizes.empty(),
            "needs exactly one of the scales and sizes inputs (non-empty), got ", scales.size(),
            " scales and ", sizes.size(), " sizes");
    std::vector<int64_t> axes = c.attr_ints("axes");
    if (axes.empty())
        for (int64_t i = 0; i < x.rank(); ++i) axes.push_back(i);
    std::vector<RsAxis> ax = rs_axes_of(x);
    std::vector<bool> seen(ax.size(), false);
    for (int64_t& a : axes) {
        a = c.axis(a, x.rank());
        c.check(!seen[static_cast<std::size_t>(a)], "axis ", a, " appears twice in axes");
        seen[static_cast<std::size_t>(a)] = true;
    }
    const std::size_t k = axes.size();
    auto at = [&](std::size_t j) -> RsAxis& { return ax[static_cast<std::size_t>(axes[j])]; };
    if (!roi.empty()) {
        c.check(roi.size() == 2 * k, "roi needs 2 x ", k, " values (starts then ends), got ", roi.size());
        for (std::size_t j = 0; j < k; ++j) at(j).roi0 = roi[j], at(j).roi1 = roi[k + j];
    }
    c.check((scales.empty() ? sizes.size() : scales.size()) == k, "needs one ",
            scales.empty() ? "size" : "scale", " per resized axis (", k, "), got ",
            scales.empty() ? sizes.size() : scales.size());
    if (!scales.empty()) {
        for (std::size_t j = 0; j < k; ++j) {
            RsAxis& a = at(j);
            c.check(scales[j] > 0, "scale ", scales[j], " of axis ", axes[j], " must be positive");
            a.scale = scales[j];
            double len = static_cast<double>(a.in) * scales[j];
            if (m.coord == "tf_crop_and_resize")
                len = static_cast<double>(a.in) * (a.roi1 - a.roi0) * scales[j];
            a.out = static_cast<int64_t>(std::floor(len));
        }
    } else {
        const std::string policy = c.attr_string("keep_aspect_ratio_policy", "stretch");
        c.check(rs_one_of(policy, {"stretch", "not_larger", "not_smaller"}), "keep_aspect_ratio_policy '",
                policy, "' is not supported (stretch, not_larger or not_smaller)");
        double keep = policy == "not_larger" ? std::numeric_limits<double>::infinity() : 0.0;
        for (std::size_t j = 0; j < k; ++j) {
            RsAxis& a = at(j);
            c.check(sizes[j] >= 0, "size ", sizes[j], " of axis ", axes[j], " is negative");
            a.out = sizes[j];
            a.scale = a.in == 0 ? 1.0 : static_cast<double>(a.out) / static_cast<double>(a.in);
            keep = policy == "not_larger" ? std::min(keep, a.scale) : std::max(keep, a.scale);
        }
        if (policy != "stretch")
            for (std::size_t j = 0; j < k; ++j) {
                at(j).scale = keep;
                at(j).out = static_cast<int64_t>(std::floor(keep * static_cast<double>(at(j).in) + 0.5));
            }
    }
    return {rs_resample(c, x, ax, m)};
}

Outs rs_depth_to_space(const OpContext& c) {
    const TensorAny& x = c.in(0);
    c.check(x.rank() == 4, "needs a 4-D input [N, C, H, W], got ", x.shape());
    const int64_t b = c.attr_int("blocksize"), n = x.shape()[0], ch = x.shape()[1], h = x.shape()[2],
                  w = x.shape()[3];
    c.check(b > 0 && ch % (b * b) == 0, "blocksize ", b, ": the channels (", ch, ") must be a multiple of ",
            b * b);
    const std::string mode = c.attr_string("mode", "DCR");
    const int64_t oc = ch / (b * b);
    TensorAny y;
    if (mode == "DCR")
        y = ops::permute(ops::reshape(x, Dims{n, b, b, oc, h, w}), Dims{0, 3, 4, 1, 5, 2});
    else if (mode == "CRD")
        y = ops::permute(ops::reshape(x, Dims{n, oc, b, b, h, w}), Dims{0, 1, 4, 2, 5, 3});
    else
        c.fail("mode '", mode, "' is not supported (DCR or CRD)");
    return {ops::reshape(y, Dims{n, oc, h * b, w * b})};
}

Outs rs_space_to_depth(const OpContext& c) {
    const TensorAny& x = c.in(0);
    c.check(x.rank() == 4, "needs a 4-D input [N, C, H, W], got ", x.shape());
    const int64_t b = c.attr_int("blocksize"), n = x.shape()[0], ch = x.shape()[1], h = x.shape()[2],
                  w = x.shape()[3];
    c.check(b > 0 && h % b == 0 && w % b == 0, "blocksize ", b, " must divide the height ", h, " and width ",
            w);
    TensorAny y = ops::permute(ops::reshape(x, Dims{n, ch, h / b, b, w / b, b}), Dims{0, 3, 5, 1, 2, 4});
    return {ops::reshape(y, Dims{n, ch * b * b, h / b, w / b})};
}

}  // namespace

void add_resize_ops(OpTable& t) {
    t.add("Resize", 10, rs_resize);
    t.add("Upsample", 7, rs_upsample);
    t.add("DepthToSpace", 1, rs_depth_to_space);
    t.add("SpaceToDepth", 1, rs_space_to_depth);
}

}  // namespace burn::onnx::detail
