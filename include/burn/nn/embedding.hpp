#pragma once
/// Embedding: a lookup table [n_embedding, d_model]; indices [batch, seq] -> [batch, seq, d_model].
#include "burn/module/module.hpp"
#include "burn/nn/initializer.hpp"

namespace burn::nn {

struct Embedding {
    Param<Tensor<2>> weight;  // [n_embedding, d_model]

    Tensor<3> forward(const Tensor<2, Int>& indices) const {
        return Tensor<3>(forward_any(indices.handle()));
    }
    TensorAny forward_any(const TensorAny& indices) const;

    BURN_MODULE(Embedding, weight)
};

struct EmbeddingConfig {
    std::size_t n_embedding = 0;
    std::size_t d_model = 0;
    Initializer initializer = Initializer::Normal(0.0, 1.0);
    Embedding init(const Device& device = Device()) const;
    BURN_CONFIG(EmbeddingConfig, n_embedding, d_model, initializer)
};

}  // namespace burn::nn
