// nn::scaled_dot_product_attention (sdpa.hpp): the attention row, or with dropout while training the
// same computation composed so that dropout can act on the weights.
#include "burn/nn/sdpa.hpp"

#include <cmath>
#include <limits>

#include "burn/nn/dropout.hpp"
#include "burn/tensor/module_ops.hpp"
#include "burn/tensor/ops.hpp"

namespace burn::nn {

Tensor<4> scaled_dot_product_attention(const Tensor<4>& q, const Tensor<4>& k, const Tensor<4>& v,
                                       const SdpaOptions& o) {
    BURN_CHECK(o.dropout >= 0 && o.dropout < 1,
               "[scaled_dot_product_attention] dropout must be in [0, 1), got ", o.dropout);
    std::optional<TensorAny> mask;
    if (o.mask) mask = o.mask->handle();
    if (o.dropout == 0 || !q.device().is_autodiff())
        return Tensor<4>(ops::attention(q.handle(), k.handle(), v.handle(), mask, o.causal, o.scale));
    // Training with dropout: the weights are materialised (the row does not drop them).
    const double scale = o.scale ? *o.scale : 1.0 / std::sqrt(static_cast<double>(q.shape()[3]));
    TensorAny s = ops::mul_scalar(ops::matmul(q.handle(), ops::swap_dims(k.handle(), 2, 3)), scale);
    const double minus_inf = -std::numeric_limits<double>::infinity();
    if (mask) s = ops::mask_fill(std::move(s), *mask, minus_inf);
    if (o.causal) {
        const int64_t lq = q.shape()[2], lk = k.shape()[2];
        const TensorAny rows = ops::reshape(ops::arange(0, lq, 1, DType::i64, q.device()), Dims{1, 1, lq, 1});
        const TensorAny cols = ops::reshape(ops::arange(0, lk, 1, DType::i64, q.device()), Dims{1, 1, 1, lk});
        const TensorAny hidden = ops::greater(cols, ops::add_scalar(rows, static_cast<double>(lk - lq)));
        s = ops::mask_fill(std::move(s), hidden, minus_inf);
    }
    const TensorAny w = Dropout{o.dropout, false}.forward_any(ops::softmax(std::move(s), 3));
    return Tensor<4>(ops::matmul(w, v.handle()));
}

}  // namespace burn::nn
