// Connected-component labelling on the host: one raster scan with union-find over provisional
// labels, then the roots renumbered 1, 2, ... in the order they were created (the raster order of
// each component's first pixel).
#include "burn/vision/connected_components.hpp"

#include <algorithm>
#include <vector>

#include "burn/core/error.hpp"
#include "vision/host_values.hpp"

namespace burn::vision {

namespace {

int32_t cc_find_root(std::vector<int32_t>& parent, int32_t a) {
    while (parent[static_cast<std::size_t>(a)] != a) {
        parent[static_cast<std::size_t>(a)] =
            parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(a)])];
        a = parent[static_cast<std::size_t>(a)];
    }
    return a;
}

void cc_unite(std::vector<int32_t>& parent, int32_t a, int32_t b) {
    a = cc_find_root(parent, a);
    b = cc_find_root(parent, b);
    if (a < b)
        parent[static_cast<std::size_t>(b)] = a;
    else if (b < a)
        parent[static_cast<std::size_t>(a)] = b;
}

// Labels (row-major, 0 = background) and the number of components.
std::vector<int32_t> cc_label(const Tensor<2, Bool>& image, Connectivity connectivity, int64_t& h, int64_t& w,
                              int32_t& count, const char* op) {
    const TensorAny& t = image.handle();
    BURN_CHECK_KIND(t.rank() == 2, shape, op, " the image must be [H, W] bool, got shape ", t.shape());
    h = t.shape()[0];
    w = t.shape()[1];
    BURN_CHECK_KIND(h * w < (int64_t{1} << 31), shape, op, " the image of shape ", t.shape(),
                    " has more pixels than i32 labels can count; label it in tiles");
    const std::vector<double> px = detail::host_values(t);
    std::vector<int32_t> lab(px.size(), 0);
    std::vector<int32_t> parent{0};
    const bool eight = connectivity == Connectivity::eight;
    for (int64_t y = 0; y < h; ++y)
        for (int64_t x = 0; x < w; ++x) {
            const auto i = static_cast<std::size_t>(y * w + x);
            if (px[i] == 0) continue;
            // Already-visited neighbours: left, up, and for eight-connectivity up-left and up-right.
            int32_t mine = 0;
            auto join = [&](int64_t yy, int64_t xx) {
                if (yy < 0 || xx < 0 || xx >= w) return;
                const int32_t other = lab[static_cast<std::size_t>(yy * w + xx)];
                if (other == 0) return;
                if (mine == 0)
                    mine = other;
                else
                    cc_unite(parent, mine, other);
            };
            join(y, x - 1);
            join(y - 1, x);
            if (eight) {
                join(y - 1, x - 1);
                join(y - 1, x + 1);
            }
            if (mine == 0) {
                mine = static_cast<int32_t>(parent.size());
                parent.push_back(mine);
            }
            lab[i] = mine;
        }
    // Roots are each component's smallest provisional label, created at its first pixel.
    std::vector<int32_t> final_label(parent.size(), 0);
    count = 0;
    for (std::size_t l = 1; l < parent.size(); ++l) {
        const int32_t r = cc_find_root(parent, static_cast<int32_t>(l));
        if (r == static_cast<int32_t>(l))
            final_label[l] = ++count;
        else
            final_label[l] = final_label[static_cast<std::size_t>(r)];
    }
    for (int32_t& v : lab) v = final_label[static_cast<std::size_t>(v)];
    return lab;
}

Tensor<1, Int> cc_ints(const std::vector<int32_t>& v, const Device& device) {
    return Tensor<1, Int>::from_data(TensorData(v, Dims{static_cast<int64_t>(v.size())}), device);
}

}  // namespace

Tensor<2, Int> connected_components(const Tensor<2, Bool>& image, Connectivity connectivity) {
    int64_t h = 0, w = 0;
    int32_t count = 0;
    std::vector<int32_t> lab = cc_label(image, connectivity, h, w, count, "[connected_components]");
    return Tensor<2, Int>::from_data(TensorData(lab, Dims{h, w}), image.device());
}

std::pair<Tensor<2, Int>, ConnectedStats> connected_components_with_stats(const Tensor<2, Bool>& image,
                                                                          Connectivity connectivity,
                                                                          const ConnectedStatsOptions&) {
    int64_t h = 0, w = 0;
    int32_t count = 0;
    std::vector<int32_t> lab =
        cc_label(image, connectivity, h, w, count, "[connected_components_with_stats]");
    const auto n = static_cast<std::size_t>(count) + 1;
    std::vector<int32_t> area(n, 0), top(n, INT32_MAX), left(n, INT32_MAX), right(n, 0), bottom(n, 0);
    for (int64_t y = 0; y < h; ++y)
        for (int64_t x = 0; x < w; ++x) {
            const auto l = static_cast<std::size_t>(lab[static_cast<std::size_t>(y * w + x)]);
            if (l == 0) continue;
            area[l] += 1;
            top[l] = std::min(top[l], static_cast<int32_t>(y));
            left[l] = std::min(left[l], static_cast<int32_t>(x));
            right[l] = std::max(right[l], static_cast<int32_t>(x));
            bottom[l] = std::max(bottom[l], static_cast<int32_t>(y));
        }
    top[0] = left[0] = 0;  // the background has no statistics
    const Device& d = image.device();
    ConnectedStats stats{cc_ints(area, d),  cc_ints(top, d),    cc_ints(left, d),
                         cc_ints(right, d), cc_ints(bottom, d), cc_ints({count}, d)};
    return {Tensor<2, Int>::from_data(TensorData(lab, Dims{h, w}), d), std::move(stats)};
}

}  // namespace burn::vision
