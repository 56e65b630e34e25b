// Multi-class margin loss: hinge terms of every wrong class against the target class, masked at the
// target itself, optionally squared and weighted by the target's class weight.
#include "burn/nn/loss/multi_margin.hpp"

namespace burn::nn::loss {

using namespace ops;

MultiMarginLoss MultiMarginLossConfig::init() const {
    BURN_CHECK(p == 1 || p == 2, "[MultiMarginLossConfig] p must be 1 or 2, got ", p);
    return MultiMarginLoss{p, margin, weights};
}

TensorAny MultiMarginLoss::forward_any(const TensorAny& x, const TensorAny& target) const {
    BURN_CHECK(x.defined() && target.defined(), "[MultiMarginLoss] got an undefined tensor");
    BURN_CHECK_KIND(is_float(x.dtype()), dtype, "[MultiMarginLoss] input must be Float, got ", x.dtype());
    BURN_CHECK_KIND(is_int(target.dtype()), dtype,
                    "[MultiMarginLoss] target must be an Int tensor of class "
                    "indices, got ",
                    target.dtype());
    BURN_CHECK_KIND(x.rank() == 2 && target.rank() == 1 && target.shape()[0] == x.shape()[0], shape,
                    "[MultiMarginLoss] input ", x.shape(), " and target ", target.shape(),
                    " must be [batch, classes] and [batch]");
    BURN_CHECK(p == 1 || p == 2, "[MultiMarginLoss] p must be 1 or 2, got ", p);
    const int64_t classes = x.shape()[1];
    TensorAny idx = unsqueeze_dim(target, 1);                        // [batch, 1]
    TensorAny xy = gather(x, 1, idx);                                // [batch, 1] (checks the range)
    TensorAny z = relu(add(rsub_scalar(std::move(xy), margin), x));  // max(0, margin - x[y] + x[i])
    if (p == 2) z = square(std::move(z));
    TensorAny others = rsub_scalar(cast(one_hot(target, classes), x.dtype()), 1.0);  // 0 at the target
    z = mul(std::move(z), std::move(others));
    if (weights) {
        BURN_CHECK_KIND(static_cast<int64_t>(weights->size()) == classes, shape, "[MultiMarginLoss] ",
                        weights->size(), " class weights for ", classes,
                        " classes; give one weight per class");
        TensorAny w = cast(from_data(TensorData(*weights), x.device()), x.dtype());
        z = mul(std::move(z), reshape(select(w, 0, target), Dims{-1, 1}));
    }
    return div_scalar(reshape(sum_dim(std::move(z), 1), Dims{-1}), static_cast<double>(classes));
}

}  // namespace burn::nn::loss
