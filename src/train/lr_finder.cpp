// The learning-rate range test's suggestion (burn/train/lr_finder.hpp).
#include "burn/train/lr_finder.hpp"

namespace burn::train {

double steepest_descent_lr(const std::vector<double>& lrs, const std::vector<double>& losses) {
    const std::size_t n = std::min(lrs.size(), losses.size());
    if (n < 3) return std::numeric_limits<double>::quiet_NaN();
    std::size_t end = 0;  // the minimum's index: the descent is before it
    for (std::size_t i = 1; i < n; ++i)
        if (std::isfinite(losses[i]) && (!std::isfinite(losses[end]) || losses[i] < losses[end])) end = i;
    if (end < 2) end = std::min<std::size_t>(n - 1, 2);
    std::size_t steepest = 0;
    double slope = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i <= end; ++i) {
        const std::size_t a = i == 0 ? 0 : i - 1, b = i == end ? end : i + 1;
        const double d = (losses[b] - losses[a]) / (std::log(lrs[b]) - std::log(lrs[a]));
        if (std::isfinite(d) && d < slope) {
            slope = d;
            steepest = i;
        }
    }
    return lrs[steepest];
}

}  // namespace burn::train
