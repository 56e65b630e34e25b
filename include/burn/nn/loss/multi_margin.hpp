#pragma once
/// Multi-class margin loss (PyTorch's MultiMarginLoss, burn's MultiMarginLoss): for scores x [batch, C]
/// and a class y [batch], loss = sum over i != y of w[y] max(0, margin - x[y] + x[i])^p / C, p 1 or 2,
/// w optional class weights [C].
#include <optional>
#include <vector>

#include "burn/nn/loss/reduction.hpp"

namespace burn::nn::loss {

struct MultiMarginLoss {
    int p = 1;
    double margin = 1.0;
    std::optional<std::vector<float>> weights = std::nullopt;  // per class

    /// input [batch, classes], target [batch] (Int) -> [1]
    Tensor<1> forward(const Tensor<2>& input, const Tensor<1, Int>& target, Reduction reduction) const {
        return Tensor<1>(reduce(forward_any(input.handle(), target.handle()), reduction));
    }
    /// -> [batch]
    Tensor<1> forward_no_reduction(const Tensor<2>& input, const Tensor<1, Int>& target) const {
        return Tensor<1>(forward_any(input.handle(), target.handle()));
    }
    TensorAny forward_any(const TensorAny& input, const TensorAny& target) const;
};

struct MultiMarginLossConfig {
    int p = 1;
    double margin = 1.0;
    std::optional<std::vector<float>> weights = std::nullopt;
    MultiMarginLoss init() const;  // checks p is 1 or 2
    BURN_CONFIG(MultiMarginLossConfig, p, margin, weights)
};

}  // namespace burn::nn::loss
