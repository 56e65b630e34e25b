// ONNX detection and sampling: NonMaxSuppression, RoiAlign, GridSample, MaxUnpool.
// - NonMaxSuppression runs on the host (its output's length depends on the data): boxes and scores are
//   read back, the selected indices go to the model's device.
// - RoiAlign reads its small parameter tensors (rois, batch_indices) on the host and computes there the
//   sampling positions and bilinear weights of every output bin; the values are then gathered from X on
//   the device (ops::select) and reduced (sum for avg, max for max), so it runs on every device and
//   differentiates with respect to X (not the rois).
// - GridSample is burn::ops::grid_sample_2d (burn/tensor/grid_sample.hpp); MaxUnpool stays on the
//   device (scatter with positions computed by burn::ops).
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "burn/tensor/grid_sample.hpp"
#include "onnx/op_util.hpp"

namespace burn::onnx::detail {

namespace {

using Outs = std::vector<TensorAny>;

// ---- NonMaxSuppression -------------------------------------------------------------------------

struct Box {
    double x0, y0, x1, y1;
};

Box box_at(const std::vector<double>& b, std::size_t at, bool center) {
    const double a = b[at], e = b[at + 1], f = b[at + 2], g = b[at + 3];
    if (center) return {a - f / 2, e - g / 2, a + f / 2, e + g / 2};          // [x_c, y_c, w, h]
    return {std::min(e, g), std::min(a, f), std::max(e, g), std::max(a, f)};  // [y1, x1, y2, x2]
}

/// Whether the IoU of a and b exceeds threshold (onnxruntime's rules for empty and degenerate boxes).
bool suppresses(const Box& a, const Box& b, double threshold) {
    const double ix0 = std::max(a.x0, b.x0), ix1 = std::min(a.x1, b.x1);
    const double iy0 = std::max(a.y0, b.y0), iy1 = std::min(a.y1, b.y1);
    if (ix1 <= ix0 || iy1 <= iy0) return false;
    const double inter = (ix1 - ix0) * (iy1 - iy0);
    const double area_a = (a.x1 - a.x0) * (a.y1 - a.y0), area_b = (b.x1 - b.x0) * (b.y1 - b.y0);
    const double uni = area_a + area_b - inter;
    if (inter <= 0 || area_a <= 0 || area_b <= 0 || uni <= 0) return false;
    return inter / uni > threshold;
}

Outs non_max_suppression(const OpContext& c) {
    const TensorAny &boxes = c.in(0), &scores = c.in(1);
    c.check(boxes.rank() == 3 && boxes.shape()[2] == 4, "boxes must be [batch, boxes, 4], got ",
            boxes.shape());
    c.check(
        scores.rank() == 3 && scores.shape()[0] == boxes.shape()[0] && scores.shape()[2] == boxes.shape()[1],
        "scores must be [batch, classes, boxes] = [", boxes.shape()[0], ", C, ", boxes.shape()[1], "], got ",
        scores.shape());
    c.check(is_float(boxes.dtype()) && is_float(scores.dtype()),
            "boxes and scores must be float tensors, got ", boxes.dtype(), " and ", scores.dtype());
    const int64_t center = c.attr_int("center_point_box", 0);
    c.check(center == 0 || center == 1, "center_point_box must be 0 or 1, got ", center);
    int64_t max_out = 0;
    if (c.has(2)) {
        const std::vector<int64_t> v = c.ints_of(2);
        c.check(v.size() <= 1, "max_output_boxes_per_class must be a scalar, got ", v.size(), " values");
        if (!v.empty()) max_out = std::max<int64_t>(0, v[0]);
    }
    double iou = 0;
    if (c.has(3)) {
        const std::vector<double> v = c.doubles_of(3);
        c.check(v.size() <= 1, "iou_threshold must be a scalar, got ", v.size(), " values");
        if (!v.empty()) iou = v[0];
        c.check(iou >= 0 && iou <= 1, "iou_threshold must be in [0, 1], got ", iou);
    }
    const bool has_score = c.has(4);
    double score_min = 0;
    if (has_score) {
        const std::vector<double> v = c.doubles_of(4);
        c.check(v.size() == 1, "score_threshold must be a scalar, got ", v.size(), " values");
        score_min = v[0];
    }
    const int64_t nb = boxes.shape()[0], nbox = boxes.shape()[1], ncls = scores.shape()[1];
    std::vector<int64_t> out;
    if (max_out > 0 && nbox > 0 && ncls > 0) {
        const std::vector<double> bx = ops::into_data(ops::cast(boxes, DType::f64)).to_vec<double>();
        const std::vector<double> sc = ops::into_data(ops::cast(scores, DType::f64)).to_vec<double>();
        std::vector<Box> bs(static_cast<std::size_t>(nbox));
        std::vector<int64_t> order, kept;
        for (int64_t b = 0; b < nb; ++b) {
            for (int64_t i = 0; i < nbox; ++i)
                bs[static_cast<std::size_t>(i)] =
                    box_at(bx, static_cast<std::size_t>((b * nbox + i) * 4), center);
            for (int64_t k = 0; k < ncls; ++k) {
                const double* s = sc.data() + (b * ncls + k) * nbox;
                order.clear();
                for (int64_t i = 0; i < nbox; ++i)
                    if (!std::isnan(s[i]) && (!has_score || s[i] > score_min)) order.push_back(i);
                // highest score first, the lower index first among equal scores
                std::stable_sort(order.begin(), order.end(),
                                 [s](int64_t i, int64_t j) { return s[i] > s[j]; });
                kept.clear();
                for (int64_t i : order) {
                    if (static_cast<int64_t>(kept.size()) >= max_out) break;
                    const Box& bi = bs[static_cast<std::size_t>(i)];
                    if (std::any_of(kept.begin(), kept.end(), [&](int64_t j) {
                            return suppresses(bi, bs[static_cast<std::size_t>(j)], iou);
                        }))
                        continue;
                    kept.push_back(i);
                    out.insert(out.end(), {b, k, i});
                }
            }
        }
    }
    const auto rows = static_cast<int64_t>(out.size() / 3);
    return {ops::from_data(TensorData(out, Dims{rows, 3}), c.device())};
}

// ---- RoiAlign ----------------------------------------------------------------------------------

/// The gathered elements (entries x channels) one RoiAlign chunk may hold.
constexpr int64_t kRoiChunkElems = int64_t(1) << 24;
/// A single roi may need at most this many gathered elements.
constexpr int64_t kRoiMaxElems = int64_t(1) << 28;

/// One bilinear sample along one axis: the two neighbouring positions and their weights (all 0 when the
/// sample lies outside [-1, size]; onnxruntime's rules).
struct Tap {
    int64_t lo = 0, hi = 0;
    double wlo = 0, whi = 0;
};

Tap tap_at(double v, int64_t size) {
    if (v < -1.0 || v > static_cast<double>(size)) return {};
    v = std::max(v, 0.0);
    auto lo = static_cast<int64_t>(v);
    int64_t hi = lo + 1;
    if (lo >= size - 1) {
        lo = hi = size - 1;
        v = static_cast<double>(lo);
    }
    const double l = v - static_cast<double>(lo);
    return {lo, hi, 1 - l, l};
}

using Entries = std::vector<std::pair<int64_t, double>>;  // (position, weight)

/// Per output bin p along one axis: the samples' taps.
std::vector<std::vector<Tap>> axis_taps(double start, double bin, int64_t grid, int64_t bins, int64_t size) {
    std::vector<std::vector<Tap>> out(static_cast<std::size_t>(bins));
    for (int64_t p = 0; p < bins; ++p)
        for (int64_t i = 0; i < grid; ++i)
            out[static_cast<std::size_t>(p)].push_back(tap_at(
                start + static_cast<double>(p) * bin + (static_cast<double>(i) + 0.5) * bin / double(grid),
                size));
    return out;
}

/// The taps of one bin merged into (position, weight) pairs, each weight divided by the sample count.
Entries merged(const std::vector<Tap>& taps) {
    Entries e;
    for (const Tap& t : taps) {
        if (t.wlo != 0) e.push_back({t.lo, t.wlo / double(taps.size())});
        if (t.whi != 0) e.push_back({t.hi, t.whi / double(taps.size())});
    }
    std::sort(e.begin(), e.end());
    Entries m;
    for (const auto& pw : e) {
        if (!m.empty() && m.back().first == pw.first)
            m.back().second += pw.second;
        else
            m.push_back(pw);
    }
    return m;
}

/// RoiAlign's geometry (attributes and X's extents).
struct RoiGeom {
    int64_t h = 0, w = 0, ch = 0, ph = 1, pw = 1, ratio = 0;
    double scale = 1;
    bool half = true, avg = true;
};

/// The output bins of roi r ([x1, y1, x2, y2] at q) as (row of X viewed as [N * H * W, C], weight)
/// entries; base is the first row of the roi's image.
std::vector<Entries> roi_bins(const OpContext& c, const RoiGeom& g, const double* q, int64_t r,
                              int64_t base) {
    for (int k = 0; k < 4; ++k) c.check(std::isfinite(q[k] * g.scale), "roi ", r, " is not finite");
    const double off = g.half ? 0.5 : 0.0;
    const double x0 = q[0] * g.scale - off, y0 = q[1] * g.scale - off;
    double rw = q[2] * g.scale - off - x0, rh = q[3] * g.scale - off - y0;
    if (!g.half) {  // malformed rois become 1 x 1
        rw = std::max(rw, 1.0);
        rh = std::max(rh, 1.0);
    }
    const double bh = rh / double(g.ph), bw = rw / double(g.pw);
    const double gh = g.ratio > 0 ? double(g.ratio) : std::ceil(bh);
    const double gw = g.ratio > 0 ? double(g.ratio) : std::ceil(bw);
    const double bins = double(g.ph * g.pw);
    const double samples =
        g.avg ? std::max(gh * double(g.ph), gw * double(g.pw)) : gh * gw * bins * 4 * double(g.ch);
    c.check(samples <= double(kRoiMaxElems), "roi ", r, " needs too many samples (", gh, " x ", gw,
            " per bin)");
    const auto ys = axis_taps(y0, bh, std::max<int64_t>(0, int64_t(gh)), g.ph, g.h);
    const auto xs = axis_taps(x0, bw, std::max<int64_t>(0, int64_t(gw)), g.pw, g.w);
    std::vector<Entries> out(static_cast<std::size_t>(g.ph * g.pw));
    if (g.avg) {  // a bin's weights factor into a row map times a column map
        std::vector<Entries> ey, ex;
        std::size_t my = 0, mx = 0;
        for (const auto& t : ys) {
            ey.push_back(merged(t));
            my = std::max(my, ey.back().size());
        }
        for (const auto& t : xs) {
            ex.push_back(merged(t));
            mx = std::max(mx, ex.back().size());
        }
        c.check(double(my * mx) * bins * double(g.ch) <= double(kRoiMaxElems), "roi ", r,
                " covers too many elements of X (", my, " x ", mx, " per bin)");
        for (int64_t i = 0; i < g.ph; ++i)
            for (int64_t j = 0; j < g.pw; ++j)
                for (const auto& a : ey[static_cast<std::size_t>(i)])
                    for (const auto& b : ex[static_cast<std::size_t>(j)])
                        out[static_cast<std::size_t>(i * g.pw + j)].push_back(
                            {base + a.first * g.w + b.first, a.second * b.second});
        return out;
    }
    // max: the largest weighted corner over every sample of the bin (onnxruntime's definition)
    for (int64_t i = 0; i < g.ph; ++i)
        for (int64_t j = 0; j < g.pw; ++j) {
            Entries& e = out[static_cast<std::size_t>(i * g.pw + j)];
            for (const Tap& a : ys[static_cast<std::size_t>(i)])
                for (const Tap& b : xs[static_cast<std::size_t>(j)]) {
                    e.push_back({base + a.lo * g.w + b.lo, a.wlo * b.wlo});
                    e.push_back({base + a.lo * g.w + b.hi, a.wlo * b.whi});
                    e.push_back({base + a.hi * g.w + b.lo, a.whi * b.wlo});
                    e.push_back({base + a.hi * g.w + b.hi, a.whi * b.whi});
                }
        }
    return out;
}

/// The output of a chunk of rois [rois, C, PH, PW]: their entries (each bin padded to e_max: a copy
/// of its first entry for max, a zero weight for avg and empty bins) gathered from rows, weighted,
/// reduced per bin.
TensorAny roi_chunk(const OpContext& c, const RoiGeom& g, const TensorAny& rows,
                    const std::vector<std::vector<Entries>>& chunk, std::size_t e_max) {
    std::vector<int64_t> idx;
    std::vector<double> wt;
    for (const auto& roi : chunk)
        for (const Entries& b : roi)
            for (std::size_t k = 0; k < e_max; ++k) {
                const auto pad = b.empty() ? std::pair<int64_t, double>{0, 0.0} : b[0];
                idx.push_back(k < b.size() ? b[k].first : pad.first);
                wt.push_back(k < b.size() ? b[k].second : (g.avg ? 0.0 : pad.second));
            }
    const auto nr = static_cast<int64_t>(chunk.size()), k_all = static_cast<int64_t>(idx.size());
    TensorAny v = ops::select(rows, 0, ops::from_data(TensorData(idx), c.device()));
    v = ops::mul(v, ops::cast(ops::from_data(TensorData(wt, Dims{k_all, 1}), c.device()), rows.dtype()));
    v = ops::reshape(v, Dims{nr * g.ph * g.pw, static_cast<int64_t>(e_max), g.ch});
    v = g.avg ? ops::sum_dim(v, 1) : ops::max_dim(v, 1);
    return ops::permute(ops::reshape(v, Dims{nr, g.ph, g.pw, g.ch}), Dims{0, 3, 1, 2});
}

Outs roi_align(const OpContext& c) {
    const TensorAny& x = c.in(0);
    const TensorAny& rois_t = c.in(1);
    c.check(x.rank() == 4 && is_float(x.dtype()), "X must be a float [N, C, H, W] tensor, got ", x.dtype(),
            " ", x.shape());
    c.check(rois_t.rank() == 2 && rois_t.shape()[1] == 4, "rois must be [num_rois, 4], got ", rois_t.shape());
    const std::vector<int64_t> bidx = c.ints_of(2);
    const int64_t nr = rois_t.shape()[0], n = x.shape()[0];
    c.check(static_cast<int64_t>(bidx.size()) == nr, "batch_indices has ", bidx.size(), " entries for ", nr,
            " rois");
    RoiGeom g;
    g.ch = x.shape()[1];
    g.h = x.shape()[2];
    g.w = x.shape()[3];
    g.ph = c.attr_int("output_height", 1);
    g.pw = c.attr_int("output_width", 1);
    g.ratio = c.attr_int("sampling_ratio", 0);
    g.scale = c.attr_float("spatial_scale", 1.0);
    const std::string mode = c.attr_string("mode", "avg");
    const std::string ctm =
        c.opset() >= 16 ? c.attr_string("coordinate_transformation_mode", "half_pixel") : "output_half_pixel";
    c.check(g.ph >= 1 && g.pw >= 1 && g.ph <= 1024 && g.pw <= 1024,
            "output_height and output_width must be in [1, 1024], got ", g.ph, " and ", g.pw);
    c.check(g.ratio >= 0, "sampling_ratio must be >= 0, got ", g.ratio);
    c.check(std::isfinite(g.scale), "spatial_scale must be finite, got ", g.scale);
    c.check(mode == "avg" || mode == "max", "mode '", mode, "' is not one of avg, max");
    c.check(ctm == "half_pixel" || ctm == "output_half_pixel", "coordinate_transformation_mode '", ctm,
            "' is not one of half_pixel, output_half_pixel");
    for (int64_t b : bidx)
        c.check(b >= 0 && b < n, "batch index ", b, " is out of range for X of shape ", x.shape());
    if (nr == 0 || g.ch == 0 || g.h == 0 || g.w == 0)
        return {ops::full(Dims{nr, g.ch, g.ph, g.pw}, 0, x.dtype(), x.device())};
    g.half = ctm == "half_pixel";
    g.avg = mode == "avg";
    const std::vector<double> rois = ops::into_data(ops::cast(rois_t, DType::f64)).to_vec<double>();
    // X as rows [N * H * W, C]; chunks of rois of at most kRoiChunkElems gathered elements
    const TensorAny rows =
        ops::reshape(ops::contiguous(ops::permute(x, Dims{0, 2, 3, 1})), Dims{n * g.h * g.w, g.ch});
    std::vector<TensorAny> parts;
    std::vector<std::vector<Entries>> chunk;
    std::size_t e_max = 1;
    for (int64_t r = 0; r < nr; ++r) {
        std::vector<Entries> bins =
            roi_bins(c, g, rois.data() + r * 4, r, bidx[static_cast<std::size_t>(r)] * g.h * g.w);
        std::size_t e = e_max;
        for (const Entries& b : bins) e = std::max(e, b.size());
        const auto next =
            static_cast<int64_t>(chunk.size() + 1) * g.ph * g.pw * static_cast<int64_t>(e) * g.ch;
        if (!chunk.empty() && next > kRoiChunkElems) {
            parts.push_back(roi_chunk(c, g, rows, chunk, e_max));
            chunk.clear();
            e = 1;
            for (const Entries& b : bins) e = std::max(e, b.size());
        }
        chunk.push_back(std::move(bins));
        e_max = e;
    }
    parts.push_back(roi_chunk(c, g, rows, chunk, e_max));
    return {parts.size() == 1 ? parts[0] : ops::cat(parts, 0)};
}

// ---- GridSample --------------------------------------------------------------------------------

Outs grid_sample(const OpContext& c) {
    TensorAny x = c.in(0);
    TensorAny grid = c.in(1);
    c.check(x.rank() == 4, "X must be [N, C, H, W], got ", x.shape());
    c.check(grid.rank() == 4 && grid.shape()[0] == x.shape()[0] && grid.shape()[3] == 2,
            "grid must be [N, H_out, W_out, 2] with N = ", x.shape()[0], ", got ", grid.shape());
    c.check(is_float(grid.dtype()), "grid must be a float tensor, got ", grid.dtype());
    std::string mode = c.attr_string("mode", "bilinear");
    if (mode == "linear") mode = "bilinear";
    if (mode == "cubic") mode = "bicubic";
    const std::string pad = c.attr_string("padding_mode", "zeros");
    c.check(mode == "bilinear" || mode == "nearest" || mode == "bicubic", "mode '", mode,
            "' is not one of bilinear, nearest, bicubic");
    c.check(pad == "zeros" || pad == "border" || pad == "reflection", "padding_mode '", pad,
            "' is not one of zeros, border, reflection");
    GridSampleOptions o;
    o.mode = mode == "nearest"    ? InterpolateMode::nearest
             : mode == "bilinear" ? InterpolateMode::bilinear
                                  : InterpolateMode::bicubic;
    o.padding_mode = pad == "zeros"    ? GridSamplePaddingMode::zeros
                     : pad == "border" ? GridSamplePaddingMode::border
                                       : GridSamplePaddingMode::reflection;
    o.align_corners = c.attr_int("align_corners", 0) != 0;
    const DType dt = x.dtype();
    if (!is_float(dt)) x = ops::cast(x, DType::f32);  // integer images: sampled in f32, rounded back
    TensorAny y = ops::grid_sample_2d(std::move(x), std::move(grid), o);
    return {y.dtype() == dt ? y : ops::cast(ops::round(y), dt)};
}

// ---- MaxUnpool ---------------------------------------------------------------------------------

Outs max_unpool(const OpContext& c) {
    const TensorAny &x = c.in(0), &ind = c.in(1);
    const int s = static_cast<int>(x.rank()) - 2;
    const auto ns = static_cast<std::size_t>(std::max(s, 0));
    c.check(s >= 1 && s <= 3, "X must be [N, C, spatial...] of rank 3 to 5, got ", x.shape());
    c.check(ind.shape() == x.shape(), "I must have X's shape ", x.shape(), ", got ", ind.shape());
    c.check(!is_float(ind.dtype()) && ind.dtype() != DType::boolean, "I must be an integer tensor, got ",
            ind.dtype());
    const std::vector<int64_t> kernel = c.attr_ints("kernel_shape");
    const std::vector<int64_t> strides = c.attr_ints("strides", std::vector<int64_t>(ns, 1));
    const std::vector<int64_t> pads = c.attr_ints("pads", std::vector<int64_t>(2 * ns, 0));
    c.check(kernel.size() == ns && strides.size() == ns && pads.size() == 2 * ns,
            "kernel_shape, strides and pads ", "need ", ns, ", ", ns, " and ", 2 * ns,
            " entries for X of shape ", x.shape());
    Dims shape = x.shape();
    for (std::size_t i = 0; i < ns; ++i) {
        c.check(kernel[i] >= 1 && strides[i] >= 1 && pads[i] >= 0 && pads[i + ns] >= 0,
                "kernel_shape and strides must be positive and pads non-negative");
        const int64_t in = x.shape()[static_cast<int>(i) + 2];
        const int64_t out = (in - 1) * strides[i] - pads[i] - pads[i + ns] + kernel[i];
        c.check(out >= 0 && out <= (int64_t(1) << 31), "the unpooled size of spatial dim ", i, " is ", out);
        shape[static_cast<int>(i) + 2] = out;
    }
    double elems = 1;
    for (int i = 0; i < shape.rank(); ++i) elems *= double(shape[i]);
    c.check(elems <= double(int64_t(1) << 40), "the unpooled shape ", shape, " is too large");
    const int64_t total = shape.numel(), count = x.shape().numel();
    // X's values scattered into zeros at I; indices that repeat (overlapping windows pick one element
    // twice) get the mean of their values, which is that element's value
    TensorAny idx = ops::reshape(ops::cast(ind, DType::i64), Dims{count});
    TensorAny placed =
        ops::scatter(ops::full(Dims{total}, 0, x.dtype(), x.device()), 0, idx, ops::reshape(x, Dims{count}));
    TensorAny hits = ops::scatter(ops::full(Dims{total}, 0, DType::i32, x.device()), 0, idx,
                                  ops::full(Dims{count}, 1, DType::i32, x.device()));
    TensorAny y = ops::reshape(
        ops::div(placed, ops::cast(ops::clamp(hits, 1, double(std::max<int64_t>(count, 1))), x.dtype())),
        shape);
    if (!c.has(2)) return {y};
    // output_shape: the unpooled tensor at the origin of zeros of that shape (the reference's rule)
    const std::vector<int64_t> want = c.ints_of(2);
    c.check(want.size() == static_cast<std::size_t>(x.rank()), "output_shape has ", want.size(),
            " entries for X of rank ", x.rank());
    std::vector<SliceArg> ranges;
    for (int i = 0; i < x.rank(); ++i) {
        c.check(want[static_cast<std::size_t>(i)] >= shape[i] &&
                    want[static_cast<std::size_t>(i)] <= (int64_t(1) << 31),
                "output_shape ", Dims::from(want.data(), x.rank()), " is smaller than the unpooled shape ",
                shape);
        ranges.emplace_back(0, shape[i]);
    }
    const Dims out_shape = Dims::from(want.data(), x.rank());
    if (out_shape == shape) return {y};
    return {ops::slice_assign(ops::full(out_shape, 0, x.dtype(), x.device()), ranges, y)};
}

}  // namespace

void add_vision_ops(OpTable& t) {
    t.add("NonMaxSuppression", 10, non_max_suppression);
    t.add("RoiAlign", 10, roi_align);
    t.add("GridSample", 16, grid_sample);
    t.add("MaxUnpool", 9, max_unpool);
}

}  // namespace burn::onnx::detail
