// Cosine similarity: ops::cosine_similarity (src/ops/linalg.cpp), the layer's checks on its config.
#include "burn/nn/cosine_similarity.hpp"

namespace burn::nn {

TensorAny cosine_similarity_keepdim(const TensorAny& x1, const TensorAny& x2, int64_t dim, double eps) {
    return ops::cosine_similarity(x1, x2, dim, eps);
}

CosineSimilarity CosineSimilarityConfig::init() const {
    BURN_CHECK(eps > 0.0, "[CosineSimilarityConfig] eps must be positive, got ", eps);
    return CosineSimilarity{dim, eps};
}

}  // namespace burn::nn
