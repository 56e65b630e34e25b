#pragma once
/// Kullback-Leibler divergence (burn's KLDivLoss, PyTorch's KLDivLoss): predictions are
/// log-probabilities; targets probabilities, or log-probabilities with log_target. Per element
/// t (log t - p) (0 where t = 0), or exp(t) (t - p) with log_target. Reduction::Auto is BatchMean
/// (the divergence per sample); Mean averages over every element, like PyTorch's 'mean'.
#include "burn/nn/loss/reduction.hpp"

namespace burn::nn::loss {

struct KLDivLoss {
    bool log_target = false;

    template <std::size_t D>
    Tensor<1> forward(const Tensor<D>& predictions, const Tensor<D>& targets, Reduction reduction) const {
        return Tensor<1>(reduce(forward_any(predictions.handle(), targets.handle()),
                                reduction == Reduction::Auto ? Reduction::BatchMean : reduction));
    }
    template <std::size_t D>
    Tensor<D> forward_no_reduction(const Tensor<D>& predictions, const Tensor<D>& targets) const {
        return Tensor<D>(forward_any(predictions.handle(), targets.handle()));
    }
    TensorAny forward_any(const TensorAny& predictions, const TensorAny& targets) const;
};

struct KLDivLossConfig {
    bool log_target = false;
    KLDivLoss init() const { return KLDivLoss{log_target}; }
    BURN_CONFIG(KLDivLossConfig, log_target)
};

}  // namespace burn::nn::loss
