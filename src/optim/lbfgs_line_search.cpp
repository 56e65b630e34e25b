// Strong-Wolfe line search, step for step as torch 1.13's _strong_wolfe (bracketing, then zoom).
#include "lbfgs_line_search.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "burn/tensor/ops.hpp"

namespace burn::optim::detail {

namespace {

double to_double(const TensorAny& t) {
    return ops::into_data(ops::cast(t, DType::f64)).to_vec<double>()[0];
}

}  // namespace

double cubic_interpolate(double x1, double f1, double g1, double x2, double f2, double g2,
                         std::optional<std::pair<double, double>> bounds) {
    const auto [lo, hi] = bounds ? *bounds : (x1 <= x2 ? std::pair{x1, x2} : std::pair{x2, x1});
    const double d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2);
    const double d2_square = d1 * d1 - g1 * g2;
    if (d2_square < 0) return (lo + hi) / 2.0;
    const double d2 = std::sqrt(d2_square);
    const double min_pos = x1 <= x2 ? x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
                                    : x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2));
    return std::min(std::max(min_pos, lo), hi);
}

LineSearchResult strong_wolfe(const std::function<double(double, TensorAny&)>& eval, double t,
                              const TensorAny& d, double f, const TensorAny& g, double gtd,
                              double tolerance_change, std::size_t max_ls) {
    const double c1 = 1e-4, c2 = 0.9;
    const double d_norm = to_double(ops::max_abs(d));
    TensorAny g_new;
    double f_new = eval(t, g_new);
    std::size_t evals = 1;
    double gtd_new = to_double(ops::dot(g_new, d));

    double t_prev = 0, f_prev = f, gtd_prev = gtd;
    TensorAny g_prev = g;
    bool done = false;
    std::size_t ls_iter = 0;
    std::vector<double> bracket, bracket_f, bracket_gtd;
    std::vector<TensorAny> bracket_g;
    // Bracketing: grow t until an interval surely holds a point satisfying the conditions.
    while (ls_iter < max_ls) {
        const bool overshot = f_new > f + c1 * t * gtd || (ls_iter > 1 && f_new >= f_prev);
        if (!overshot && std::abs(gtd_new) <= -c2 * gtd) {  // t satisfies both conditions
            bracket = {t}, bracket_f = {f_new}, bracket_g = {g_new};
            done = true;
            break;
        }
        if (overshot || gtd_new >= 0) {  // [t_prev, t] brackets a point satisfying them
            bracket = {t_prev, t}, bracket_f = {f_prev, f_new}, bracket_g = {g_prev, g_new};
            bracket_gtd = {gtd_prev, gtd_new};
            break;
        }
        const double min_step = t + 0.01 * (t - t_prev), max_step = t * 10;
        const double tmp = t;
        t = cubic_interpolate(t_prev, f_prev, gtd_prev, t, f_new, gtd_new, std::pair{min_step, max_step});
        t_prev = tmp, f_prev = f_new, g_prev = g_new, gtd_prev = gtd_new;
        f_new = eval(t, g_new);
        ++evals;
        gtd_new = to_double(ops::dot(g_new, d));
        ++ls_iter;
    }
    if (ls_iter == max_ls) bracket = {0, t}, bracket_f = {f, f_new}, bracket_g = {g, g_new};

    // Zoom: shrink the bracket until a point satisfies the conditions.
    bool insuf_progress = false;
    std::size_t low = bracket_f.front() <= bracket_f.back() ? 0 : 1, high = 1 - low;
    while (!done && ls_iter < max_ls) {
        if (std::abs(bracket[1] - bracket[0]) * d_norm < tolerance_change) break;
        t = cubic_interpolate(bracket[0], bracket_f[0], bracket_gtd[0], bracket[1], bracket_f[1],
                              bracket_gtd[1]);
        const double b_max = std::max(bracket[0], bracket[1]), b_min = std::min(bracket[0], bracket[1]);
        const double eps = 0.1 * (b_max - b_min);
        if (std::min(b_max - t, t - b_min) < eps) {
            // Too close to an end: move away from it unless the last step already made progress.
            if (insuf_progress || t >= b_max || t <= b_min) {
                t = std::abs(t - b_max) < std::abs(t - b_min) ? b_max - eps : b_min + eps;
                insuf_progress = false;
            } else {
                insuf_progress = true;
            }
        } else {
            insuf_progress = false;
        }
        f_new = eval(t, g_new);
        ++evals;
        gtd_new = to_double(ops::dot(g_new, d));
        ++ls_iter;
        if (f_new > f + c1 * t * gtd || f_new >= bracket_f[low]) {
            bracket[high] = t, bracket_f[high] = f_new, bracket_g[high] = g_new, bracket_gtd[high] = gtd_new;
            low = bracket_f[0] <= bracket_f[1] ? 0 : 1;
            high = 1 - low;
        } else {
            if (std::abs(gtd_new) <= -c2 * gtd) {
                done = true;
            } else if (gtd_new * (bracket[high] - bracket[low]) >= 0) {
                bracket[high] = bracket[low], bracket_f[high] = bracket_f[low];
                bracket_g[high] = bracket_g[low], bracket_gtd[high] = bracket_gtd[low];
            }
            bracket[low] = t, bracket_f[low] = f_new, bracket_g[low] = g_new, bracket_gtd[low] = gtd_new;
        }
    }
    return {bracket_f[low], bracket_g[low], bracket[low], evals};
}

}  // namespace burn::optim::detail
