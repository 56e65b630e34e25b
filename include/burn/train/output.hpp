#pragma once
/// What a model's train_step / infer_step return, and the host-side view metrics read from it.
///
///     train::TrainOutput<train::ClassificationOutput> train_step(const MnistBatch& batch) const {
///         auto item = forward_classification(batch);
///         return train::TrainOutput(*this, item.loss.backward(), item);
///     }
///     train::ClassificationOutput infer_step(const MnistBatch& batch) const { return
///     forward_classification(batch); }
///
/// An output type of your own takes part by providing `train::MetricInput metric_input() const`.
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "burn/optim/gradients_params.hpp"
#include "burn/tensor/tensor.hpp"

namespace burn::train {

/// A batch's outputs copied to the host: what every metric reads.
struct MetricInput {
    std::size_t batch_size = 0;
    std::optional<double> loss;
    /// Classification: scores (logits or probabilities) [batch_size, num_classes], row-major, and the
    /// class index of each row (num_classes == 1: a binary problem with one logit per row).
    std::vector<float> scores;
    std::size_t num_classes = 0;
    std::vector<int64_t> targets;
    /// Regression: predictions and targets, both [batch_size, outputs], row-major. Multi-label
    /// classification: target_values holds the 0/1 labels [batch_size, num_classes] beside scores.
    std::vector<float> predictions;
    std::vector<float> target_values;
    /// Sequences (SequenceOutput): each item is sequence_length consecutive rows (tokens), so
    /// batch_size is items * sequence_length; 0 when rows are independent.
    std::size_t sequence_length = 0;
    /// Images and masks (ImageOutput, SegmentationOutput): the shape of one item of predictions and
    /// target_values, e.g. {channels, height, width}; empty when an item is a flat row.
    std::vector<std::size_t> item_shape;
    /// Reinforcement learning (rl::DqnLearner): the episodes that finished since the last update, their
    /// cumulative rewards and lengths, and the exploration rate in use.
    std::vector<double> episode_rewards;
    std::vector<std::size_t> episode_lengths;
    std::optional<double> exploration_rate;
};

/// A classification batch: the mean loss, the logits [batch, classes] and the targets [batch].
struct ClassificationOutput {
    Tensor<1> loss;
    Tensor<2> output;
    Tensor<1, Int> targets;
    MetricInput metric_input() const;
};

/// A regression batch: the mean loss, predictions and targets [batch, outputs].
struct RegressionOutput {
    Tensor<1> loss;
    Tensor<2> output;
    Tensor<2> targets;
    MetricInput metric_input() const;
};

/// A sequence batch (burn's SequenceOutput): the mean loss, the logits [batch, seq, vocab] and the
/// target tokens [batch, seq]. Metrics see one row per token (so AccuracyMetric with a pad token is
/// token accuracy) and sequence_length = seq (CER, WER, BLEU, perplexity).
struct SequenceOutput {
    Tensor<1> loss;
    Tensor<3> output;
    Tensor<2, Int> targets;
    MetricInput metric_input() const;
};

/// A multi-label batch (burn's MultiLabelClassificationOutput): the mean loss, one logit per label
/// [batch, labels] and the 0/1 targets [batch, labels] (HammingScore).
struct MultiLabelClassificationOutput {
    Tensor<1> loss;
    Tensor<2> output;
    Tensor<2, Int> targets;
    MetricInput metric_input() const;
};

/// An image-to-image batch (denoising, super-resolution, reconstruction): the mean loss, the output
/// images and the target images, both [batch, channels, height, width] (PsnrMetric, SsimMetric,
/// MsSsimMetric; DiceMetric when they are masks).
struct ImageOutput {
    Tensor<1> loss;
    Tensor<4> output;
    Tensor<4> targets;
    MetricInput metric_input() const;
};

/// A semantic-segmentation batch: the mean loss, the class scores [batch, classes, height, width] and
/// the class of each pixel [batch, height, width]. Metrics see one-hot masks [batch, classes, height,
/// width]: the predicted class of a pixel is its highest score (DiceMetric).
struct SegmentationOutput {
    Tensor<1> loss;
    Tensor<4> output;
    Tensor<3, Int> targets;
    MetricInput metric_input() const;
};

/// The result of a training step: the gradients keyed by parameter, and the item metrics read.
template <class T>
struct TrainOutput {
    optim::GradientsParams grads;
    T item;

    TrainOutput(optim::GradientsParams g, T i) : grads(std::move(g)), item(std::move(i)) {}
    /// Re-keys the gradients of a backward pass by model's parameters (GradientsParams::from_grads).
    template <class M>
    TrainOutput(const M& model, Gradients g, T i)
        : grads(optim::GradientsParams::from_grads(std::move(g), model)), item(std::move(i)) {}
};
template <class M, class T>
TrainOutput(const M&, Gradients, T) -> TrainOutput<T>;

/// The metric view of an output: output.metric_input().
template <class T>
MetricInput to_metric_input(const T& output) {
    if constexpr (requires { output.metric_input(); }) {
        return output.metric_input();
    } else {
        static_assert(
            sizeof(T) == 0,
            "a training output needs `train::MetricInput metric_input() const` (see train/output.hpp)");
        return {};
    }
}

}  // namespace burn::train
