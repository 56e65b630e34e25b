// Triplet margin loss on pairwise distances.
#include "burn/nn/loss/triplet_margin.hpp"

#include "burn/nn/pairwise_distance.hpp"

namespace burn::nn::loss {

using namespace ops;

TripletMarginLoss TripletMarginLossConfig::init() const {
    BURN_CHECK(margin >= 0.0, "[TripletMarginLossConfig] margin must be non-negative, got ", margin);
    BURN_CHECK(p > 0.0, "[TripletMarginLossConfig] p must be positive, got ", p);
    return TripletMarginLoss{margin, p, eps, swap};
}

TensorAny TripletMarginLoss::forward_any(const TensorAny& a, const TensorAny& pos,
                                         const TensorAny& neg) const {
    BURN_CHECK(a.defined() && pos.defined() && neg.defined(), "[TripletMarginLoss] got an undefined tensor");
    BURN_CHECK_KIND(a.rank() == 2 && pos.shape() == a.shape() && neg.shape() == a.shape(), shape,
                    "[TripletMarginLoss] anchor ", a.shape(), ", positive ", pos.shape(), " and negative ",
                    neg.shape(), " must all be [batch, dim]");
    TensorAny d_ap = pairwise_distance(a, pos, p, eps);
    TensorAny d_an = pairwise_distance(a, neg, p, eps);
    if (swap) d_an = min_pair(std::move(d_an), pairwise_distance(pos, neg, p, eps));
    return relu(add_scalar(sub(std::move(d_ap), std::move(d_an)), margin));
}

}  // namespace burn::nn::loss
