// Cosine embedding loss: 1 - cos for similar pairs, max(0, cos - margin) for dissimilar ones.
#include "burn/nn/loss/cosine_embedding.hpp"

namespace burn::nn::loss {

using namespace ops;

CosineEmbeddingLoss CosineEmbeddingLossConfig::init() const {
    BURN_CHECK(margin >= -1.0 && margin <= 1.0, "[CosineEmbeddingLossConfig] margin must be in [-1, 1], got ",
               margin);
    return CosineEmbeddingLoss{margin, reduction};
}

TensorAny CosineEmbeddingLoss::forward_any(const TensorAny& a, const TensorAny& b, const TensorAny& y) const {
    detail::check_pair(a, b, "CosineEmbeddingLoss");
    BURN_CHECK_KIND(a.rank() == 2, shape, "[CosineEmbeddingLoss] inputs ", a.shape(),
                    " must be [batch, dim]");
    BURN_CHECK_KIND(y.rank() == 1 && y.shape()[0] == a.shape()[0], shape, "[CosineEmbeddingLoss] target ",
                    y.shape(), " must be [batch] = [", a.shape()[0], "]");
    constexpr double eps = 1e-12;
    TensorAny dot = sum_dim(mul(a, b), 1);
    TensorAny mag = mul(add_scalar(sum_dim(square(a), 1), eps), add_scalar(sum_dim(square(b), 1), eps));
    TensorAny cos = reshape(div(std::move(dot), sqrt(std::move(mag))), Dims{-1});  // [batch]
    TensorAny yf = cast(y, a.dtype());
    TensorAny pos = cast(equal_elem(yf, 1.0), a.dtype()), negm = cast(equal_elem(yf, -1.0), a.dtype());
    TensorAny similar = rsub_scalar(cos, 1.0);
    TensorAny dissimilar = relu(sub_scalar(cos, margin));
    return add(mul(pos, std::move(similar)), mul(negm, std::move(dissimilar)));
}

}  // namespace burn::nn::loss
