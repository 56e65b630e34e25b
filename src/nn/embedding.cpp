#include "burn/nn/embedding.hpp"

#include "burn/tensor/module_ops.hpp"

namespace burn::nn {

Embedding EmbeddingConfig::init(const Device& device) const {
    BURN_CHECK(n_embedding > 0 && d_model > 0, "[EmbeddingConfig] n_embedding and d_model must be positive");
    Embedding e;
    e.weight = Param<Tensor<2>>(initializer.init<2>({n_embedding, d_model}, static_cast<int64_t>(n_embedding),
                                                    static_cast<int64_t>(d_model), device));
    return e;
}

TensorAny Embedding::forward_any(const TensorAny& indices) const {
    BURN_CHECK_KIND(is_int(indices.dtype()), dtype, "[Embedding] indices must be an Int tensor, got ",
                    indices.dtype());
    return ops::embedding(weight.val().handle(), indices);
}

}  // namespace burn::nn
