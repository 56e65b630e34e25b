// nn::scaled_dot_product_attention (sdpa.hpp): the attention row, or with dropout while training the
// same computation composed so that dropout can act on the weights.
#include "burn/nn/sdpa.hpp"

#include <cmath>
#include <limits>

#include "burn/nn/dropout.hpp"
#include "burn/tensor/module_ops.hpp"
#include "burn/tensor/ops.hpp"

namespace burn::nn {

namespace {
void check_options(const SdpaOptions& o, const char* op) {
    BURN_CHECK(o.dropout >= 0 && o.dropout < 1, "[", op, "] dropout must be in [0, 1), got ", o.dropout);
    BURN_CHECK(!o.softcap || *o.softcap > 0, "[", op, "] softcap must be positive, got ",
               o.softcap.value_or(0), " (leave it unset for no capping)");
}
}  // namespace

Tensor<4> scaled_dot_product_attention(const Tensor<4>& q, const Tensor<4>& k, const Tensor<4>& v,
                                       const SdpaOptions& o) {
    check_options(o, "scaled_dot_product_attention");
    if (!o.softcap && (o.dropout == 0 || !q.device().is_autodiff())) {
        std::optional<TensorAny> mask;
        if (o.mask) mask = o.mask->handle();
        return Tensor<4>(ops::attention(q.handle(), k.handle(), v.handle(), mask, o.causal, o.scale));
    }
    // Soft-capping, or training with dropout: the weights are materialised (the row does neither).
    return attention_fallback(q, k, v, o);
}

Tensor<4> attention_fallback(const Tensor<4>& q, const Tensor<4>& k, const Tensor<4>& v,
                             const SdpaOptions& o) {
    check_options(o, "attention_fallback");
    BURN_CHECK_KIND(
        q.shape()[3] == k.shape()[3] && q.shape()[0] == k.shape()[0] && k.shape()[2] == v.shape()[2], shape,
        "[attention_fallback] q ", q.shape(), ", k ", k.shape(), " and v ", v.shape(),
        " do not fit: q and k share the head dim, k and v the key count");
    const double scale = o.scale ? *o.scale : 1.0 / std::sqrt(static_cast<double>(q.shape()[3]));
    TensorAny s = ops::mul_scalar(ops::matmul(q.handle(), ops::swap_dims(k.handle(), 2, 3)), scale);
    if (o.softcap)
        s = ops::mul_scalar(ops::tanh(ops::mul_scalar(std::move(s), 1.0 / *o.softcap)), *o.softcap);
    const double minus_inf = -std::numeric_limits<double>::infinity();
    if (o.mask) s = ops::mask_fill(std::move(s), o.mask->handle(), minus_inf);
    if (o.causal) {
        const int64_t lq = q.shape()[2], lk = k.shape()[2];
        const TensorAny rows = ops::reshape(ops::arange(0, lq, 1, DType::i64, q.device()), Dims{1, 1, lq, 1});
        const TensorAny cols = ops::reshape(ops::arange(0, lk, 1, DType::i64, q.device()), Dims{1, 1, 1, lk});
        const TensorAny hidden = ops::greater(cols, ops::add_scalar(rows, static_cast<double>(lk - lq)));
        s = ops::mask_fill(std::move(s), hidden, minus_inf);
    }
    TensorAny w = ops::softmax(std::move(s), 3);
    if (o.dropout > 0 && q.device().is_autodiff()) w = Dropout{o.dropout, false}.forward_any(w);
    return Tensor<4>(ops::matmul(w, v.handle()));
}

}  // namespace burn::nn
