#include "burn/train/output.hpp"

namespace burn::train {

namespace {

std::vector<float> host_floats(const TensorAny& t) {
    TensorData d = ops::into_data(t);
    if (d.dtype() != DType::f32) d = d.convert(DType::f32);
    return d.to_vec<float>();
}

std::vector<int64_t> host_ints(const TensorAny& t) {
    TensorData d = ops::into_data(t);
    if (d.dtype() != DType::i64) d = d.convert(DType::i64);
    return d.to_vec<int64_t>();
}

std::optional<double> host_loss(const Tensor<1>& loss) {
    if (!loss.defined() || loss.numel() == 0) return std::nullopt;
    BURN_CHECK_KIND(loss.numel() == 1, shape,
                    "[train] the loss of an output must have one element, got shape ", loss.shape(),
                    "; reduce it with mean() first");
    return loss.into_scalar<double>();
}

}  // namespace

MetricInput ClassificationOutput::metric_input() const {
    MetricInput in;
    in.loss = host_loss(loss);
    BURN_CHECK_KIND(output.defined() && targets.defined(), shape,
                    "[ClassificationOutput] output and targets must both be set");
    auto dims = output.dims();
    BURN_CHECK_KIND(targets.numel() == static_cast<int64_t>(dims[0]), shape, "[ClassificationOutput] output ",
                    output.shape(), " has ", dims[0], " rows but targets ", targets.shape(), " has ",
                    targets.numel(), " entries");
    in.batch_size = static_cast<std::size_t>(dims[0]);
    in.num_classes = static_cast<std::size_t>(dims[1]);
    in.scores = host_floats(output.handle());
    in.targets = host_ints(targets.handle());
    return in;
}

MetricInput SequenceOutput::metric_input() const {
    MetricInput in;
    in.loss = host_loss(loss);
    BURN_CHECK_KIND(output.defined() && targets.defined(), shape,
                    "[SequenceOutput] output and targets must both be set");
    auto dims = output.dims();
    auto t = targets.dims();
    BURN_CHECK_KIND(t[0] == dims[0] && t[1] == dims[1], shape, "[SequenceOutput] output ", output.shape(),
                    " is [batch, seq, vocab] but targets ", targets.shape(), " are not [batch, seq]");
    in.batch_size = static_cast<std::size_t>(dims[0] * dims[1]);
    in.sequence_length = static_cast<std::size_t>(dims[1]);
    in.num_classes = static_cast<std::size_t>(dims[2]);
    in.scores = host_floats(output.handle());
    in.targets = host_ints(targets.handle());
    return in;
}

MetricInput MultiLabelClassificationOutput::metric_input() const {
    MetricInput in;
    in.loss = host_loss(loss);
    BURN_CHECK_KIND(output.defined() && targets.defined() && output.shape() == targets.shape(), shape,
                    "[MultiLabelClassificationOutput] output ", output.shape(), " and targets ",
                    targets.shape(), " must have the same shape [batch, labels]");
    auto dims = output.dims();
    in.batch_size = static_cast<std::size_t>(dims[0]);
    in.num_classes = static_cast<std::size_t>(dims[1]);
    in.scores = host_floats(output.handle());
    in.target_values = host_floats(targets.handle());
    return in;
}

MetricInput RegressionOutput::metric_input() const {
    MetricInput in;
    in.loss = host_loss(loss);
    BURN_CHECK_KIND(output.defined() && targets.defined() && output.shape() == targets.shape(), shape,
                    "[RegressionOutput] output ", output.shape(), " and targets ", targets.shape(),
                    " must have the same shape");
    in.batch_size = static_cast<std::size_t>(output.dims()[0]);
    in.predictions = host_floats(output.handle());
    in.target_values = host_floats(targets.handle());
    return in;
}

MetricInput ImageOutput::metric_input() const {
    MetricInput in;
    in.loss = host_loss(loss);
    BURN_CHECK_KIND(output.defined() && targets.defined() && output.shape() == targets.shape(), shape,
                    "[ImageOutput] output ", output.shape(), " and targets ", targets.shape(),
                    " must have the same shape [batch, channels, height, width]");
    auto dims = output.dims();
    in.batch_size = static_cast<std::size_t>(dims[0]);
    in.item_shape = {static_cast<std::size_t>(dims[1]), static_cast<std::size_t>(dims[2]),
                     static_cast<std::size_t>(dims[3])};
    in.predictions = host_floats(output.handle());
    in.target_values = host_floats(targets.handle());
    return in;
}

MetricInput SegmentationOutput::metric_input() const {
    MetricInput in;
    in.loss = host_loss(loss);
    BURN_CHECK_KIND(output.defined() && targets.defined(), shape,
                    "[SegmentationOutput] output and targets must both be set");
    auto dims = output.dims();
    auto t = targets.dims();
    BURN_CHECK_KIND(t[0] == dims[0] && t[1] == dims[2] && t[2] == dims[3], shape,
                    "[SegmentationOutput] output ", output.shape(),
                    " is [batch, classes, height, width] but targets ", targets.shape(),
                    " are not [batch, height, width]");
    const auto n = static_cast<std::size_t>(dims[0]), c = static_cast<std::size_t>(dims[1]);
    const auto pixels = static_cast<std::size_t>(dims[2] * dims[3]);
    in.batch_size = n;
    in.num_classes = c;
    in.item_shape = {c, static_cast<std::size_t>(dims[2]), static_cast<std::size_t>(dims[3])};
    const std::vector<float> scores = host_floats(output.handle());
    const std::vector<int64_t> classes = host_ints(targets.handle());
    in.predictions.assign(n * c * pixels, 0.0f);
    in.target_values.assign(n * c * pixels, 0.0f);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t p = 0; p < pixels; ++p) {
            const float* s = scores.data() + i * c * pixels + p;  // class k at s[k * pixels]
            std::size_t best = 0;
            for (std::size_t k = 1; k < c; ++k)
                if (s[k * pixels] > s[best * pixels]) best = k;
            in.predictions[(i * c + best) * pixels + p] = 1.0f;
            const int64_t target = classes[i * pixels + p];
            BURN_CHECK_KIND(target >= 0 && static_cast<std::size_t>(target) < c, index,
                            "[SegmentationOutput] item ", i, " pixel ", p, " has class ", target,
                            ", outside the output's ", c, " classes [0, ", c, ")");
            in.target_values[(i * c + static_cast<std::size_t>(target)) * pixels + p] = 1.0f;
        }
    return in;
}

}  // namespace burn::train
