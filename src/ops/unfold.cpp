// unfold (composite, no row of its own): torch.Tensor.unfold / burn's unfold, the sliding windows of
// dim as a new last dim. One select of the window positions (an Int [windows * size] index), a reshape
// and a movedim, so every device runs it and autodiff differentiates it (select's rule adds back).
#include "ops/common.hpp"

namespace burn::ops {

using namespace detail;

TensorAny unfold(TensorAny x, int64_t dim, int64_t size, int64_t step) {
    check_defined(x, "unfold");
    const int d = normalize_dim(dim, x.rank(), "unfold");
    const int64_t n = x.shape()[d];
    BURN_CHECK_KIND(size >= 0 && size <= n, shape, "[unfold] window size ", size, " does not fit dim ", d,
                    " of ", describe(x), " (size ", n, "); it must be between 0 and ", n);
    BURN_CHECK_KIND(step >= 1, shape, "[unfold] step ", step, " must be >= 1");
    BURN_CHECK_KIND(x.rank() < kMaxRank, shape, "[unfold] adds a dim to ", describe(x),
                    ", past the largest rank ", kMaxRank);
    const int64_t windows = (n - size) / step + 1;
    // positions w * step + k for each window w and offset k, row-major [windows, size]
    std::vector<int64_t> pos;
    pos.reserve(static_cast<std::size_t>(windows * size));
    for (int64_t w = 0; w < windows; ++w)
        for (int64_t k = 0; k < size; ++k) pos.push_back(w * step + k);
    const DType it = n <= INT32_MAX ? DType::i32 : DType::i64;
    TensorAny idx = from_data(TensorData(pos, Dims{windows * size}).convert(it), x.device());
    TensorAny y = select(std::move(x), d, std::move(idx));  // dim d now windows * size
    Dims s = y.shape();
    Dims split;
    for (int i = 0; i < s.rank(); ++i) {
        if (i == d) {
            split.push_back(windows);
            split.push_back(size);
        } else {
            split.push_back(s[i]);
        }
    }
    y = reshape(std::move(y), split);
    return movedim(std::move(y), Dims{d + 1}, Dims{split.rank() - 1});
}

}  // namespace burn::ops
