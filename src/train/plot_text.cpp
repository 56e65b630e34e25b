// The dashboard's plot as text (plot_text.hpp).
#include "train/plot_text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace burn::train::detail {

namespace {

constexpr int kMargin = 11;  // value labels in columns [0, 10), the axis at column 10

double recent_start(const PlotInput& in, double x_hi) {
    if (!in.recent) return 0.0;
    const double window = 1.0 / static_cast<double>(std::max<std::size_t>(in.num_epochs, 1));
    return std::max(0.0, x_hi - window);
}

std::string label(double v, const char* format) {
    char buf[32];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

}  // namespace

bool plot_range(const PlotInput& in, double& x_lo, double& x_hi, double& y_lo, double& y_hi) {
    x_hi = 0;
    bool any = false;
    for (const auto* pts : {in.train, in.valid})
        if (pts)
            for (const PlotPoint& p : *pts)
                if (std::isfinite(p.y) && std::isfinite(p.x)) {
                    x_hi = any ? std::max(x_hi, p.x) : p.x;
                    any = true;
                }
    if (!any) return false;
    x_lo = recent_start(in, x_hi);
    y_lo = INFINITY;
    y_hi = -INFINITY;
    for (const auto* pts : {in.train, in.valid})
        if (pts)
            for (const PlotPoint& p : *pts)
                if (std::isfinite(p.y) && p.x >= x_lo && p.x <= x_hi) {
                    y_lo = std::min(y_lo, p.y);
                    y_hi = std::max(y_hi, p.y);
                }
    if (!(y_lo <= y_hi)) return false;
    if (y_hi - y_lo < 1e-12) y_lo -= 0.5, y_hi += 0.5;
    if (x_hi - x_lo < 1e-12) x_hi = x_lo + 1e-9;
    return true;
}

std::vector<std::string> render_plot(const PlotInput& in, int width, int height) {
    std::vector<std::string> rows(static_cast<std::size_t>(std::max(height, 0)),
                                  std::string(std::max(width, 0), ' '));
    double x_lo = 0, x_hi = 0, y_lo = 0, y_hi = 0;
    if (width < 24 || height < 5 || !plot_range(in, x_lo, x_hi, y_lo, y_hi)) return rows;
    const int plot_h = height - 2, plot_w = width - kMargin;
    auto put = [&](int r, int c, const std::string& s) {
        for (std::size_t i = 0; i < s.size() && c + static_cast<int>(i) < width; ++i)
            if (c + static_cast<int>(i) >= 0)
                rows[static_cast<std::size_t>(r)][static_cast<std::size_t>(c) + i] = s[i];
    };
    // the value axis and its labels (top, middle, bottom)
    for (int r = 0; r < plot_h; ++r) put(r, kMargin - 1, "|");
    put(0, 0, label(y_hi, "%9.4g"));
    if (plot_h >= 5) put(plot_h / 2, 0, label((y_lo + y_hi) / 2, "%9.4g"));
    put(plot_h - 1, 0, label(y_lo, "%9.4g"));
    // the progress axis: epoch boundaries as '+', labelled with the epoch number where they fit
    const auto col_of = [&](double x) {
        return kMargin + static_cast<int>(std::lround((x - x_lo) / (x_hi - x_lo) * (plot_w - 1)));
    };
    const int axis = plot_h, labels = plot_h + 1;
    put(axis, kMargin - 1, "+" + std::string(static_cast<std::size_t>(plot_w), '-'));
    put(labels, 0, "    epoch");
    const double epochs = static_cast<double>(std::max<std::size_t>(in.num_epochs, 1));
    int free_from = kMargin;  // the first column a new label may use
    auto tick = [&](double e, const char* format) {
        const int c = col_of(e / epochs);
        const std::string s = label(e, format);
        const int start =
            std::clamp(c - static_cast<int>(s.size()) / 2, kMargin, width - static_cast<int>(s.size()));
        if (start < free_from) return;
        put(labels, start, s);
        free_from = start + static_cast<int>(s.size()) + 1;
    };
    const bool whole_ends = std::abs(x_lo * epochs - std::round(x_lo * epochs)) < 1e-9;
    tick(x_lo * epochs, whole_ends ? "%.0f" : "%.2f");
    for (double e = std::ceil(x_lo * epochs - 1e-9); e / epochs <= x_hi + 1e-12; e += 1) {
        if (e / epochs < x_lo - 1e-12) continue;
        put(axis, col_of(e / epochs), "+");
        if (e > x_lo * epochs + 1e-9) tick(e, "%.0f");
    }
    if (x_hi * epochs - std::floor(x_hi * epochs + 1e-9) > 1e-9) tick(x_hi * epochs, "%.2f");
    // the points, valid over train
    auto draw = [&](const std::vector<PlotPoint>* pts, char c) {
        if (!pts) return;
        for (const PlotPoint& p : *pts) {
            if (!std::isfinite(p.y) || p.x < x_lo || p.x > x_hi) continue;
            const int r = static_cast<int>(std::lround((y_hi - p.y) / (y_hi - y_lo) * (plot_h - 1)));
            put(r, col_of(p.x), std::string(1, c));
        }
    };
    draw(in.train, '*');
    draw(in.valid, 'o');
    return rows;
}

}  // namespace burn::train::detail
