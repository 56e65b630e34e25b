// Resolution of the padding settings to (begin, end) sizes per spatial dim.
#include "burn/nn/padding.hpp"

#include <algorithm>

namespace burn::nn {

namespace {

/// Same: the output keeps ceil(in / stride) positions; the total padding that needs is split with
/// the extra position at the end.
std::pair<std::size_t, std::size_t> same(std::size_t in, std::size_t k, std::size_t stride, std::size_t dilation) {
    const std::size_t out = (in + stride - 1) / stride;
    const std::size_t span = out == 0 ? 0 : (out - 1) * stride + dilation * (k - 1) + 1;
    const std::size_t total = span > in ? span - in : 0;
    return {total / 2, total - total / 2};
}

template <std::size_t N>
std::array<std::pair<std::size_t, std::size_t>, N> same_all(const std::array<std::size_t, N>& in,
                                                             const std::array<std::size_t, N>& k,
                                                             const std::array<std::size_t, N>& s,
                                                             const std::array<std::size_t, N>& d) {
    std::array<std::pair<std::size_t, std::size_t>, N> out{};
    for (std::size_t i = 0; i < N; ++i) out[i] = same(in[i], k[i], std::max<std::size_t>(s[i], 1), d[i]);
    return out;
}

}  // namespace

PaddingPairs1d padding_pairs(const PaddingConfig1d& p, std::array<std::size_t, 1> in, std::array<std::size_t, 1> kernel,
                             std::array<std::size_t, 1> stride, std::array<std::size_t, 1> dilation) {
    if (std::holds_alternative<Same>(p)) return same_all<1>(in, kernel, stride, dilation);
    if (const auto* e = std::get_if<Explicit1d>(&p)) return {{{e->left, e->right.value_or(e->left)}}};
    return {};
}

PaddingPairs2d padding_pairs(const PaddingConfig2d& p, std::array<std::size_t, 2> in, std::array<std::size_t, 2> kernel,
                             std::array<std::size_t, 2> stride, std::array<std::size_t, 2> dilation) {
    if (std::holds_alternative<Same>(p)) return same_all<2>(in, kernel, stride, dilation);
    if (const auto* e = std::get_if<Explicit2d>(&p))
        return {{{e->height, e->bottom.value_or(e->height)}, {e->width, e->right.value_or(e->width)}}};
    return {};
}

PaddingPairs3d padding_pairs(const PaddingConfig3d& p, std::array<std::size_t, 3> in, std::array<std::size_t, 3> kernel,
                             std::array<std::size_t, 3> stride, std::array<std::size_t, 3> dilation) {
    if (std::holds_alternative<Same>(p)) return same_all<3>(in, kernel, stride, dilation);
    if (const auto* e = std::get_if<Explicit3d>(&p))
        return {{{e->depth, e->back.value_or(e->depth)},
                 {e->height, e->bottom.value_or(e->height)},
                 {e->width, e->right.value_or(e->width)}}};
    return {};
}

}  // namespace burn::nn
