// Greedy non-maximum suppression on the host (torchvision.ops.nms's rule).
#include "burn/vision/nms.hpp"

#include <algorithm>
#include <numeric>
#include <vector>

#include "burn/core/error.hpp"
#include "vision/host_values.hpp"

namespace burn::vision {

Tensor<1, Int> nms(const Tensor<2>& boxes, const Tensor<1>& scores, const NmsOptions& options) {
    const TensorAny& b = boxes.handle();
    const TensorAny& s = scores.handle();
    BURN_CHECK_KIND(b.shape()[1] == 4 && s.shape()[0] == b.shape()[0], shape,
                    "[nms] boxes must be [N, 4] (x1, y1, x2, y2) and scores [N], got boxes ", b.shape(),
                    " and scores ", s.shape(), "; pass one score per box");
    BURN_CHECK(options.max_output_boxes >= 0, "[nms] max_output_boxes must be 0 (no limit) or positive, got ",
               options.max_output_boxes);
    const std::vector<double> bx = detail::host_values(b), sc = detail::host_values(s);
    const auto n = static_cast<std::size_t>(b.shape()[0]);
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < n; ++i)
        if (!(sc[i] < options.score_threshold)) order.push_back(i);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t c) { return sc[a] > sc[c]; });
    auto area = [&](std::size_t i) { return (bx[4 * i + 2] - bx[4 * i]) * (bx[4 * i + 3] - bx[4 * i + 1]); };
    std::vector<int32_t> keep;
    std::vector<bool> dropped(n, false);
    for (std::size_t oi = 0; oi < order.size(); ++oi) {
        const std::size_t i = order[oi];
        if (dropped[i]) continue;
        keep.push_back(static_cast<int32_t>(i));
        if (options.max_output_boxes > 0 && static_cast<int64_t>(keep.size()) >= options.max_output_boxes)
            break;
        for (std::size_t oj = oi + 1; oj < order.size(); ++oj) {
            const std::size_t j = order[oj];
            if (dropped[j]) continue;
            const double iw =
                std::max(0.0, std::min(bx[4 * i + 2], bx[4 * j + 2]) - std::max(bx[4 * i], bx[4 * j]));
            const double ih = std::max(
                0.0, std::min(bx[4 * i + 3], bx[4 * j + 3]) - std::max(bx[4 * i + 1], bx[4 * j + 1]));
            const double inter = iw * ih;
            const double uni = area(i) + area(j) - inter;
            if (uni > 0 && inter / uni > options.iou_threshold) dropped[j] = true;
        }
    }
    return Tensor<1, Int>::from_data(TensorData(keep, Dims{static_cast<int64_t>(keep.size())}),
                                     boxes.device());
}

}  // namespace burn::vision
