// Composite shape helpers (no rows of their own): squeeze_dims, unsqueeze_dims, movedim, slice_dim and
// split_with_sizes, each a reshape, permute or slice view with the checks that name the op.
#include <algorithm>
#include <vector>

#include "ops/common.hpp"

namespace burn::ops {

using namespace detail;

TensorAny squeeze_dims(TensorAny x, const Dims& dims, int64_t want_rank) {
    check_defined(x, "squeeze_dims");
    const int r = x.rank();
    std::vector<bool> drop(static_cast<std::size_t>(r), false);
    for (int64_t dim : dims) {
        const int d = normalize_dim(dim, r, "squeeze_dims");
        BURN_CHECK_KIND(!drop[static_cast<std::size_t>(d)], shape, "[squeeze_dims] dim ", d,
                        " appears twice in ", dims, "; list each dim once");
        BURN_CHECK_KIND(x.shape()[d] == 1, shape, "[squeeze_dims] dim ", d, " of shape ", x.shape(),
                        " has size ", x.shape()[d], ", not 1; only size-1 dims can be removed");
        drop[static_cast<std::size_t>(d)] = true;
    }
    if (dims.rank() == 0)
        for (int d = 0; d < r; ++d) drop[static_cast<std::size_t>(d)] = x.shape()[d] == 1;
    Dims out;
    for (int d = 0; d < r; ++d)
        if (!drop[static_cast<std::size_t>(d)]) out.push_back(x.shape()[d]);
    if (want_rank >= 0 && out.rank() != want_rank && out.rank() == 0 && want_rank == 1) out.push_back(1);
    BURN_CHECK_KIND(out.rank() >= 1, shape, "[squeeze_dims] removing ",
                    dims.rank() == 0 ? "every size-1 dim" : "dims ", dims, " of shape ", x.shape(),
                    " leaves no dim; keep one (tensors have rank >= 1)");
    BURN_CHECK_KIND(want_rank < 0 || out.rank() == want_rank, shape, "[squeeze_dims] removing ",
                    dims.rank() == 0 ? "every size-1 dim" : "dims ", dims, " of shape ", x.shape(), " gives ",
                    out, " of rank ", out.rank(), ", but rank ", want_rank, " was asked for; request Tensor<",
                    out.rank(), "> or list the dims to remove");
    return reshape(std::move(x), out);
}

TensorAny unsqueeze_dims(TensorAny x, const Dims& dims) {
    check_defined(x, "unsqueeze_dims");
    const int r = x.rank() + dims.rank();
    BURN_CHECK_KIND(r <= kMaxRank, shape, "[unsqueeze_dims] inserting ", dims.rank(), " dims into shape ",
                    x.shape(), " gives rank ", r, ", above the maximum ", kMaxRank);
    std::vector<bool> inserted(static_cast<std::size_t>(r), false);
    for (int64_t dim : dims) {
        const int d = normalize_dim(dim, r, "unsqueeze_dims");
        BURN_CHECK_KIND(!inserted[static_cast<std::size_t>(d)], shape, "[unsqueeze_dims] position ", d,
                        " appears twice in ", dims, " (positions of the rank-", r,
                        " result); list each once");
        inserted[static_cast<std::size_t>(d)] = true;
    }
    Dims out;
    int src = 0;
    for (int d = 0; d < r; ++d) out.push_back(inserted[static_cast<std::size_t>(d)] ? 1 : x.shape()[src++]);
    return reshape(std::move(x), out);
}

TensorAny movedim(TensorAny x, const Dims& src, const Dims& dst) {
    check_defined(x, "movedim");
    const int r = x.rank();
    BURN_CHECK_KIND(src.rank() == dst.rank(), shape, "[movedim] ", src.rank(), " source dim(s) ", src,
                    " but ", dst.rank(), " destination(s) ", dst, "; give one destination per source");
    std::vector<int> order(static_cast<std::size_t>(r), -1);  // order[dst] = src
    std::vector<bool> moved(static_cast<std::size_t>(r), false);
    for (int i = 0; i < src.rank(); ++i) {
        const int s = normalize_dim(src[i], r, "movedim"), d = normalize_dim(dst[i], r, "movedim");
        BURN_CHECK_KIND(!moved[static_cast<std::size_t>(s)], shape, "[movedim] source dim ", s,
                        " appears twice in ", src, "; list each dim once");
        BURN_CHECK_KIND(order[static_cast<std::size_t>(d)] < 0, shape, "[movedim] destination ", d,
                        " appears twice in ", dst, "; list each position once");
        moved[static_cast<std::size_t>(s)] = true;
        order[static_cast<std::size_t>(d)] = s;
    }
    int next = 0;  // the dims not moved fill the free positions in their order
    for (int d = 0; d < r; ++d) {
        if (order[static_cast<std::size_t>(d)] >= 0) continue;
        while (moved[static_cast<std::size_t>(next)]) ++next;
        order[static_cast<std::size_t>(d)] = next++;
    }
    Dims axes;
    for (int d = 0; d < r; ++d) axes.push_back(order[static_cast<std::size_t>(d)]);
    return permute(std::move(x), axes);
}

TensorAny slice_dim(TensorAny x, int64_t dim, SliceArg range) {
    check_defined(x, "slice_dim");
    const int d = normalize_dim(dim, x.rank(), "slice_dim");
    std::vector<SliceArg> args(static_cast<std::size_t>(x.rank()), SliceArg(burn::all));
    args[static_cast<std::size_t>(d)] = range;
    return slice(std::move(x), args);
}

std::vector<TensorAny> split_with_sizes(TensorAny x, const Dims& sizes, int64_t dim) {
    check_defined(x, "split_with_sizes");
    const int d = normalize_dim(dim, x.rank(), "split_with_sizes");
    const int64_t n = x.shape()[d];
    int64_t total = 0;
    for (int64_t s : sizes) {
        BURN_CHECK_KIND(s >= 0, shape, "[split_with_sizes] sizes ", sizes, " hold the negative size ", s);
        BURN_CHECK_KIND(s <= n - total, shape, "[split_with_sizes] sizes ", sizes,
                        " add up to more than dim ", d, " of shape ", x.shape(), " (size ", n,
                        "); they must add up to ", n);
        total += s;
    }
    BURN_CHECK_KIND(total == n, shape, "[split_with_sizes] sizes ", sizes, " add up to ", total, " but dim ",
                    d, " of shape ", x.shape(), " has size ", n, "; they must add up to ", n);
    std::vector<TensorAny> out;
    int64_t start = 0;
    for (int64_t s : sizes) {
        out.push_back(narrow(x, d, start, s));
        start += s;
    }
    return out;
}

}  // namespace burn::ops
