// Cosine similarity: the dot product over the product of the clamped norms.
#include "burn/nn/cosine_similarity.hpp"

#include <limits>

namespace burn::nn {

using namespace ops;

TensorAny cosine_similarity_keepdim(const TensorAny& x1, const TensorAny& x2, int64_t dim, double eps) {
    BURN_CHECK(x1.defined() && x2.defined(), "[cosine_similarity] got an undefined tensor");
    BURN_CHECK_KIND(is_float(x1.dtype()) && is_float(x2.dtype()), dtype,
                    "[cosine_similarity] inputs must be Float, got ", x1.dtype(), " and ", x2.dtype());
    BURN_CHECK_KIND(x1.shape() == x2.shape(), shape, "[cosine_similarity] x1 ", x1.shape(), " and x2 ",
                    x2.shape(), " must have one shape");
    const auto rank = static_cast<int64_t>(x1.rank());
    BURN_CHECK_KIND(rank > 0 && dim >= -rank && dim < rank, shape, "[cosine_similarity] dim ", dim,
                    " is out of range for ", x1.shape(), "; pass a dim in [", -rank, ", ", rank, ")");
    BURN_CHECK(eps > 0.0, "[cosine_similarity] eps must be positive, got ", eps);
    const int64_t d = dim < 0 ? dim + rank : dim;
    constexpr double inf = std::numeric_limits<double>::infinity();
    auto norm = [&](const TensorAny& x) { return sqrt(clamp(sum_dim(square(x), d), eps * eps, inf)); };
    return div(sum_dim(mul(x1, x2), d), mul(norm(x1), norm(x2)));
}

CosineSimilarity CosineSimilarityConfig::init() const {
    BURN_CHECK(eps > 0.0, "[CosineSimilarityConfig] eps must be positive, got ", eps);
    return CosineSimilarity{dim, eps};
}

}  // namespace burn::nn
