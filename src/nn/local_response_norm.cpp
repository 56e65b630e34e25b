// Local response normalisation: the squared input zero-padded along the channels, summed over a window
// of `size` shifted narrows, and the input divided by (k + alpha * mean)^beta.
#include "burn/nn/local_response_norm.hpp"

namespace burn::nn {

using namespace ops;

LocalResponseNorm LocalResponseNormConfig::init() const {
    BURN_CHECK(size > 0, "[LocalResponseNormConfig] size must be positive");
    return LocalResponseNorm{size, alpha, beta, k};
}

TensorAny LocalResponseNorm::forward_any(const TensorAny& x) const {
    BURN_CHECK(x.defined(), "[LocalResponseNorm] got an undefined tensor");
    BURN_CHECK_KIND(is_float(x.dtype()), dtype, "[LocalResponseNorm] needs a Float tensor, got ", x.dtype());
    BURN_CHECK_KIND(x.rank() >= 3, shape, "[LocalResponseNorm] input ", x.shape(),
                    " must be [batch, channels, ...] with at least one spatial dim (rank >= 3); add one with "
                    "unsqueeze_dim for [batch, channels]");
    BURN_CHECK(size > 0, "[LocalResponseNorm] size must be positive");
    const auto n = static_cast<int64_t>(size);
    const int64_t channels = x.shape()[1], front = n / 2, back = (n - 1) / 2;
    TensorAny sq = square(x);
    std::vector<TensorAny> parts;
    auto zeros = [&](int64_t c) {
        Dims s = x.shape();
        s[1] = c;
        return full(s, 0.0, x.dtype(), x.device());
    };
    if (front > 0) parts.push_back(zeros(front));
    parts.push_back(sq);
    if (back > 0) parts.push_back(zeros(back));
    TensorAny padded = parts.size() == 1 ? sq : cat(parts, 1);  // [b, channels + size - 1, ...]
    TensorAny sum = narrow(padded, 1, 0, channels);
    for (int64_t j = 1; j < n; ++j) sum = add(std::move(sum), narrow(padded, 1, j, channels));
    TensorAny div =
        powf_scalar(add_scalar(mul_scalar(std::move(sum), alpha / static_cast<double>(n)), k), beta);
    return ops::div(x, std::move(div));
}

}  // namespace burn::nn
