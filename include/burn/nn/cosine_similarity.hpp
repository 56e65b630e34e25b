#pragma once
/// Cosine similarity (PyTorch's CosineSimilarity, burn's CosineSimilarity) along dim:
/// x1.x2 / (max(|x1|, eps) max(|x2|, eps)), the dim reduced. The norms are clamped before the square
/// root (sqrt(max(|x|^2, eps^2))), so an all-zero row gives 0 with a finite gradient. A composite of
/// mul, sum, clamp, sqrt and div: no new autodiff rule.
#include "burn/config/config.hpp"
#include "burn/tensor/tensor.hpp"

namespace burn::nn {

/// x1, x2 of one shape; dim may be negative. The result keeps dim (size 1). Defined in
/// src/nn/cosine_similarity.cpp.
TensorAny cosine_similarity_keepdim(const TensorAny& x1, const TensorAny& x2, int64_t dim, double eps = 1e-8);

struct CosineSimilarity {
    int64_t dim = 1;
    double eps = 1e-8;

    /// x1, x2 [..., n at dim, ...] -> the same without dim
    template <std::size_t D>
    Tensor<D - 1> forward(const Tensor<D>& x1, const Tensor<D>& x2) const requires(D >= 2) {
        const int64_t d = dim < 0 ? dim + static_cast<int64_t>(D) : dim;
        return Tensor<D - 1>(
            ops::squeeze_dim(cosine_similarity_keepdim(x1.handle(), x2.handle(), dim, eps), d));
    }
};

struct CosineSimilarityConfig {
    int64_t dim = 1;  // PyTorch's and burn's default
    double eps = 1e-8;
    CosineSimilarity init() const;  // checks eps > 0
    BURN_CONFIG(CosineSimilarityConfig, dim, eps)
};

}  // namespace burn::nn
