// RegressionOutput and MultiLabelClassificationOutput through the managed loop: models whose train_step and
// infer_step return them, a user-defined Metric (mean absolute error, written here) and HammingScore
// registered on both splits, and the logged values (report, epoch callback, CSV) checked against the
// trained model evaluated independently in float64.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "training_test_util.hpp"

using namespace burn;
using namespace burn::train;
namespace fs = std::filesystem;

// File-local names in a namespace named after the file (a unity batch shares one translation unit).
namespace training_outputs_test {

struct Sample {
    float x0, x1;
};

struct XBatch {
    Tensor<2> inputs;  // [n, 2]
    std::vector<Sample> items;
};

struct XBatcher final : data::Batcher<Sample, XBatch> {
    XBatch batch(std::vector<Sample> items, const Device& device) const override {
        std::vector<float> xs;
        for (const auto& s : items) {
            xs.push_back(s.x0);
            xs.push_back(s.x1);
        }
        const auto n = static_cast<int64_t>(items.size());
        return {Tensor<2>::from_data(TensorData(xs, Dims{n, 2}), device), std::move(items)};
    }
};

data::InMemDataset<Sample> samples(std::size_t n, uint64_t seed) {
    data::Rng rng(seed);
    std::vector<Sample> v;
    for (std::size_t i = 0; i < n; ++i)
        v.push_back({static_cast<float>(rng.uniform() * 4 - 2), static_cast<float>(rng.uniform() * 4 - 2)});
    return data::InMemDataset<Sample>(v);
}

/// The regression target y = 2 x0 - x1 + 0.5, and the three labels x0 > 0, x1 > 0, x0 + x1 > 0.5.
double target(const Sample& s) {
    return 2.0 * s.x0 - s.x1 + 0.5;
}
std::vector<int32_t> labels(const Sample& s) {
    return {s.x0 > 0, s.x1 > 0, s.x0 + s.x1 > 0.5f};
}

struct Regressor {
    nn::Linear fc;
    RegressionOutput forward_regression(const XBatch& b) const {
        std::vector<float> ys;
        for (const auto& s : b.items) ys.push_back(static_cast<float>(target(s)));
        auto t =
            Tensor<2>::from_data(TensorData(ys, Dims{static_cast<int64_t>(ys.size()), 1}), b.inputs.device());
        auto pred = fc.forward(b.inputs);
        return {(pred - t).square().mean(), pred, t};
    }
    TrainOutput<RegressionOutput> train_step(const XBatch& b) const {
        auto item = forward_regression(b);
        return TrainOutput(*this, item.loss.backward(), item);
    }
    RegressionOutput infer_step(const XBatch& b) const { return forward_regression(b); }
    BURN_MODULE(Regressor, fc)
};

struct Tagger {
    nn::Linear fc;
    MultiLabelClassificationOutput forward_tags(const XBatch& b) const {
        std::vector<int32_t> ts;
        for (const auto& s : b.items)
            for (int32_t l : labels(s)) ts.push_back(l);
        auto t = Tensor<2, Int>::from_data(TensorData(ts, Dims{static_cast<int64_t>(b.items.size()), 3}),
                                           b.inputs.device());
        auto z = fc.forward(b.inputs);
        // binary cross-entropy with logits: softplus(z) - t z
        auto loss = (activation::softplus(z) - z * t.float_()).mean();
        return {loss, z, t};
    }
    TrainOutput<MultiLabelClassificationOutput> train_step(const XBatch& b) const {
        auto item = forward_tags(b);
        return TrainOutput(*this, item.loss.backward(), item);
    }
    MultiLabelClassificationOutput infer_step(const XBatch& b) const { return forward_tags(b); }
    BURN_MODULE(Tagger, fc)
};

/// What the metric saw, shared by its clones.
struct Seen {
    std::size_t train_updates = 0, valid_updates = 0, max_epoch = 0;
};

/// A user-defined metric: the mean absolute error of a regression output, batch-size weighted.
class MaeMetric final : public MeanMetric<MaeMetric> {
  public:
    explicit MaeMetric(std::shared_ptr<Seen> seen) : seen_(std::move(seen)) {}
    std::string name() const override { return "Mean Absolute Error"; }
    Direction direction() const override { return Direction::lowest; }
    void update(const MetricInput& in, const MetricMetadata& meta) override {
        (meta.split == Split::train ? seen_->train_updates : seen_->valid_updates) += 1;
        seen_->max_epoch = std::max(seen_->max_epoch, meta.epoch);
        EXPECT_EQ(in.predictions.size(), in.batch_size);
        EXPECT_EQ(in.target_values.size(), in.batch_size);
        double sum = 0;
        for (std::size_t i = 0; i < in.predictions.size(); ++i)
            sum += std::abs(static_cast<double>(in.predictions[i]) - in.target_values[i]);
        mean_.add(sum / static_cast<double>(in.batch_size), static_cast<double>(in.batch_size));
    }

  private:
    std::shared_ptr<Seen> seen_;
};

/// 8 train batches of 32 (shuffled) and 2 valid batches of 64.
auto loaders() {
    auto train = data::DataLoaderBuilder(XBatcher()).batch_size(32).shuffle(3).build(samples(256, 1));
    auto valid = data::DataLoaderBuilder(XBatcher()).batch_size(64).build(samples(128, 2));
    return std::make_pair(train, valid);
}

/// fc(x) for every valid sample in float64, from the trained layer's weights.
std::vector<std::vector<double>> outputs(const nn::Linear& fc, const std::vector<Sample>& xs) {
    auto w = fc.weight.val().cast(DType::f64).to_vec<double>();  // [out, 2]
    auto b = fc.bias->val().cast(DType::f64).to_vec<double>();
    std::vector<std::vector<double>> out;
    for (const auto& s : xs) {
        std::vector<double> row;
        for (std::size_t o = 0; o < b.size(); ++o)
            row.push_back(w[o * 2] * s.x0 + w[o * 2 + 1] * s.x1 + b[o]);
        out.push_back(row);
    }
    return out;
}

const MetricHistory& history(const std::vector<MetricHistory>& hs, const std::string& name) {
    for (const auto& h : hs)
        if (h.name == name) return h;
    throw std::runtime_error("no metric " + name);
}

std::string read(const fs::path& p) {
    std::ifstream f(p);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

TEST(TrainOutputs, RegressionOutputFeedsAUserDefinedMetric) {
    auto dir = train_test::fresh_dir("regression_output");
    auto [train, valid] = loaders();
    auto seen = std::make_shared<Seen>();
    std::vector<EpochRecord> epochs;
    auto training = SupervisedTraining(dir, train, valid)
                        .metric_train_numeric(MaeMetric(seen))
                        .metric_valid_numeric(MaeMetric(seen))
                        .metric_valid_numeric(LossMetric())
                        .num_epochs(4)
                        .renderer(RendererKind::none)
                        .on_epoch_end([&](const EpochRecord& r) { epochs.push_back(r); })
                        .seed(9);
    Device device = Device().autodiff();
    device.seed(4);
    auto result = training.launch(
        Learner(Regressor{nn::LinearConfig{2, 1}.init(device)}, optim::AdamConfig().init(), 0.05));
    // Registered on both splits: every batch of every epoch reached the metric.
    EXPECT_EQ(seen->train_updates, 4u * 8u);
    EXPECT_EQ(seen->valid_updates, 4u * 2u);
    EXPECT_EQ(seen->max_epoch, 4u);

    const auto& mae = history(result.report.valid, "Mean Absolute Error");
    ASSERT_EQ(mae.values.size(), 4u);
    EXPECT_EQ(mae.direction, Direction::lowest);
    EXPECT_LT(mae.values.back(), 0.5 * mae.values.front()) << "the model learned";
    EXPECT_EQ(history(result.report.train, "Mean Absolute Error").values.size(), 4u);

    // The last valid value is the trained model's mean absolute error (and its loss the mean squared error).
    const auto xs = samples(128, 2).to_vec();
    const auto out = outputs(result.model.fc, xs);
    double abs_err = 0, sq_err = 0;
    for (std::size_t i = 0; i < xs.size(); ++i) {
        abs_err += std::abs(out[i][0] - target(xs[i])) / 128.0;
        sq_err += (out[i][0] - target(xs[i])) * (out[i][0] - target(xs[i])) / 128.0;
    }
    EXPECT_NEAR(mae.values.back(), abs_err, 1e-5 * std::max(1.0, abs_err));
    EXPECT_NEAR(history(result.report.valid, "Loss").values.back(), sq_err, 1e-5 * std::max(1.0, sq_err));

    // Logged: the epoch callback and metrics/valid/mean_absolute_error.csv carry it.
    ASSERT_EQ(epochs.size(), 4u);
    bool in_record = false;
    for (const auto& m : epochs.back().valid)
        if (m.name == "Mean Absolute Error") {
            in_record = true;
            EXPECT_EQ(m.value, mae.values.back());
        }
    EXPECT_TRUE(in_record);
    const std::string csv = read(dir / "metrics" / "valid" / "mean_absolute_error.csv");
    EXPECT_EQ(csv.rfind("epoch,value\n1,", 0), 0u) << csv;
    std::istringstream lines(csv);
    std::string line, last;
    while (std::getline(lines, line))
        if (!line.empty()) last = line;
    ASSERT_EQ(last.rfind("4,", 0), 0u) << csv;
    EXPECT_NEAR(std::stod(last.substr(2)), mae.values.back(), 1e-6 * std::max(1.0, mae.values.back()));
}

TEST(TrainOutputs, MultiLabelClassificationOutputFeedsHammingScore) {
    auto dir = train_test::fresh_dir("multilabel_output");
    auto [train, valid] = loaders();
    auto training = SupervisedTraining(dir, train, valid)
                        .metric_train_numeric(HammingScore())
                        .metric_valid_numeric(HammingScore())
                        .metric_valid_numeric(LossMetric())
                        .num_epochs(5)
                        .renderer(RendererKind::none)
                        .seed(9);
    Device device = Device().autodiff();
    device.seed(5);
    auto result = training.launch(
        Learner(Tagger{nn::LinearConfig{2, 3}.init(device)}, optim::AdamConfig().init(), 0.05));
    const auto& hamming = history(result.report.valid, "Hamming Score");
    ASSERT_EQ(hamming.values.size(), 5u);
    EXPECT_EQ(history(result.report.train, "Hamming Score").values.size(), 5u);
    EXPECT_GT(hamming.values.back(), 90.0) << "three linear labels are learnable";

    // The last valid value is the share of (sample, label) pairs the trained model gets right (logit > 0
    // <=> sigmoid > 0.5), and the loss the mean binary cross-entropy, both worked out in float64.
    const auto xs = samples(128, 2).to_vec();
    const auto out = outputs(result.model.fc, xs);
    double right = 0, bce = 0;
    for (std::size_t i = 0; i < xs.size(); ++i) {
        const auto l = labels(xs[i]);
        for (std::size_t k = 0; k < 3; ++k) {
            const double z = out[i][k];
            right += (z > 0) == (l[k] == 1) ? 1 : 0;
            bce += (std::max(z, 0.0) + std::log1p(std::exp(-std::abs(z))) - z * l[k]) / (3.0 * 128);
        }
    }
    EXPECT_NEAR(hamming.values.back(), 100.0 * right / (3.0 * 128), 1e-9);
    EXPECT_NEAR(history(result.report.valid, "Loss").values.back(), bce, 1e-5);
    EXPECT_TRUE(fs::exists(dir / "metrics" / "valid" / "hamming_score.csv"));
}

}  // namespace training_outputs_test
