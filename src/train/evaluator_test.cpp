// Evaluator: the metrics of a trained model over a test loader equal those computed by hand from the
// same forward passes; the CSV it writes; errors.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "training_test_util.hpp"

namespace burn::evaluator_test {

using namespace burn::train;
using namespace burn::train_test;

TEST(Evaluator, MetricsEqualTheHandComputedOnesAndAreWritten) {
    Device device = Device().autodiff();
    device.seed(3);
    Net net(device);  // untrained: accuracy well away from 0 and 100
    auto loader = data::DataLoaderBuilder(PointBatcher()).batch_size(50).build(points(230, 9));
    const auto dir = fresh_dir("evaluator");
    auto report = Evaluator(dir)
                      .metric_numeric(LossMetric())
                      .metric_numeric(AccuracyMetric())
                      .eval("test", net, loader);
    EXPECT_EQ(report.batches, 5u);
    EXPECT_EQ(report.items, 230u);

    // By hand: the whole set in one batch on the inner device.
    const Net plain = net.valid();
    auto all = PointBatcher().batch(points(230, 9).to_vec(), device.inner());
    auto logits = plain.forward(all.inputs);
    const double loss = nn::loss::CrossEntropyLoss().forward(logits, all.targets).into_scalar<double>();
    const auto pred = logits.argmax(1).reshape<1>({230}).into_data().convert(DType::i64).to_vec<int64_t>();
    const auto target = all.targets.into_data().convert(DType::i64).to_vec<int64_t>();
    int correct = 0;
    for (std::size_t i = 0; i < pred.size(); ++i) correct += pred[i] == target[i];
    EXPECT_NEAR(report.value("Loss"), loss, 1e-5);  // batch-weighted mean of the batch means
    EXPECT_DOUBLE_EQ(report.value("Accuracy"), 100.0 * correct / 230.0);
    EXPECT_THROW(report.value("F1"), Error);

    std::ifstream f(dir / "metrics" / "test.csv");
    std::stringstream text;
    text << f.rdbuf();
    EXPECT_EQ(text.str().rfind("metric,value\nAccuracy,", 0), 0u) << text.str();
    EXPECT_NE(text.str().find("\nLoss,"), std::string::npos);
}

TEST(Evaluator, Errors) {
    Net net(Device().autodiff());
    auto loader = data::DataLoaderBuilder(PointBatcher()).batch_size(8).build(points(16, 1));
    EXPECT_THROW(Evaluator().eval("test", net, loader), Error);  // no metric
    EXPECT_THROW(Evaluator().metric_numeric(LossMetric()).metric_numeric(LossMetric()), Error);
    EXPECT_THROW(
        Evaluator().metric_numeric(LossMetric()).eval("test", net, data::DataLoaderPtr<PointBatch>()), Error);
}

}  // namespace burn::evaluator_test
