// Composite masks and grids (no rows of their own): tril_mask, triu_mask, diag_mask, meshgrid and
// cartesian_grid, written with arange, comparisons and expand views.
#include <utility>
#include <vector>

#include "ops/common.hpp"

namespace burn::ops {

using namespace detail;

namespace {

enum class Tri { lower, upper, diagonal };

TensorAny tri_mask(const Dims& shape, int64_t offset, const Device& device, Tri part, const char* op) {
    BURN_CHECK_KIND(shape.rank() >= 2, shape, "[", op,
                    "] needs a shape of rank >= 2 (its last two dims are the ", "matrix), got ", shape);
    check_shape(shape, op, 1);
    const int r = shape.rank();
    const int64_t rows = shape[r - 2], cols = shape[r - 1];
    TensorAny i = unsqueeze_dim(arange(0, rows, 1, DType::i64, device), 1);
    TensorAny j = unsqueeze_dim(arange(0, cols, 1, DType::i64, device), 0);
    TensorAny diff = sub(std::move(j), std::move(i));  // j - i
    const auto k = static_cast<double>(offset);
    TensorAny m = part == Tri::lower   ? greater_elem(diff, k)
                  : part == Tri::upper ? lower_elem(diff, k)
                                       : not_equal_elem(diff, k);
    Dims mshape = Dims::filled(r, 1);
    mshape[r - 2] = rows;
    mshape[r - 1] = cols;
    return expand(reshape(std::move(m), mshape), shape);
}

}  // namespace

TensorAny tril_mask(const Dims& shape, int64_t offset, const Device& device) {
    return tri_mask(shape, offset, device, Tri::lower, "tril_mask");
}
TensorAny triu_mask(const Dims& shape, int64_t offset, const Device& device) {
    return tri_mask(shape, offset, device, Tri::upper, "triu_mask");
}
TensorAny diag_mask(const Dims& shape, int64_t offset, const Device& device) {
    return tri_mask(shape, offset, device, Tri::diagonal, "diag_mask");
}

std::vector<TensorAny> meshgrid(const std::vector<TensorAny>& xs, bool cartesian) {
    const int n = static_cast<int>(xs.size());
    BURN_CHECK_KIND(n >= 1 && n <= kMaxRank, shape, "[meshgrid] needs 1 to ", kMaxRank, " vectors, got ", n);
    Dims grid;
    for (const auto& x : xs) {
        check_defined(x, "meshgrid");
        BURN_CHECK_KIND(x.rank() == 1, shape, "[meshgrid] every input must be a vector, got ", describe(x),
                        "; flatten it first");
        BURN_CHECK_KIND(x.dtype() == xs[0].dtype(), dtype,
                        "[meshgrid] inputs have different dtypes: ", describe(xs[0]), " and ", describe(x),
                        "; cast them to one");
        BURN_CHECK_KIND(x.device() == xs[0].device(), device,
                        "[meshgrid] inputs are on different devices: ", describe(xs[0]), " and ", describe(x),
                        "; move them with .to_device(device) first");
        grid.push_back(x.shape()[0]);
    }
    // where input i lies in the output: cartesian ("xy") swaps the first two dims
    auto pos = [&](int i) { return cartesian && n >= 2 && i < 2 ? 1 - i : i; };
    if (cartesian && n >= 2) std::swap(grid[0], grid[1]);
    std::vector<TensorAny> out;
    for (int i = 0; i < n; ++i) {
        Dims s = Dims::filled(n, 1);
        s[pos(i)] = xs[static_cast<std::size_t>(i)].shape()[0];
        out.push_back(expand(reshape(xs[static_cast<std::size_t>(i)], s), grid));
    }
    return out;
}

TensorAny meshgrid_stack(const std::vector<TensorAny>& xs, bool index_last) {
    const int n = static_cast<int>(xs.size());
    BURN_CHECK_KIND(n >= 1 && n < kMaxRank, shape, "[meshgrid_stack] needs 1 to ", kMaxRank - 1,
                    " vectors (the result adds a dim), got ", n);
    return stack(meshgrid(xs, false), index_last ? n : 0);
}

TensorAny cartesian_grid(const Dims& shape, DType dtype, const Device& device) {
    BURN_CHECK_KIND(is_int(dtype), dtype, "[cartesian_grid] makes integer coordinates, got dtype ", dtype,
                    "; use an int dtype");
    BURN_CHECK_KIND(shape.rank() >= 1 && shape.rank() < kMaxRank, shape,
                    "[cartesian_grid] needs a shape of rank 1 to ", kMaxRank - 1,
                    " (the result adds a dim), got ", shape);
    std::vector<TensorAny> axes;
    for (int64_t n : shape) axes.push_back(arange(0, n, 1, dtype, device));
    return stack(meshgrid(axes, false), shape.rank());
}

}  // namespace burn::ops
