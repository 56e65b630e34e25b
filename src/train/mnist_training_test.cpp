// A short end-to-end run on the real MNIST digits: a few hundred steps of the managed loop must drop
// the loss and pass 85 % on the held-out digits. Skipped (with the command to run) when the digits
// are not in the cache: CI must not depend on the network.
#include <gtest/gtest.h>

#include "training_test_util.hpp"

using namespace burn;
using namespace burn::train;

namespace {

struct SmallMlp {
    nn::Linear fc1, fc2;
    nn::Relu relu;
    BURN_MODULE(SmallMlp, fc1, fc2, relu)

    Tensor<2> forward(const Tensor<3>& images) const {
        return fc2.forward(relu.forward(fc1.forward(images.flatten<2>(1, 2))));
    }
    ClassificationOutput forward_classification(const data::MnistBatch& b) const {
        auto logits = forward(b.images);
        return {nn::loss::CrossEntropyLoss().forward(logits, b.targets), logits, b.targets};
    }
    TrainOutput<ClassificationOutput> train_step(const data::MnistBatch& b) const {
        auto item = forward_classification(b);
        return TrainOutput(*this, item.loss.backward(), item);
    }
    ClassificationOutput infer_step(const data::MnistBatch& b) const { return forward_classification(b); }
};

}  // namespace

TEST(MnistTraining, AFewHundredStepsLearnTheDigits) {
    if (!data::MnistDataset::available()) {
        GTEST_SKIP() << "MNIST is not in " << data::MnistDataset::default_dir()
                     << " (run scripts/fetch_mnist.sh to run this test)";
    }
    Device device = Device().autodiff();
    device.seed(3);
    SmallMlp model{nn::LinearConfig{784, 128}.init(device), nn::LinearConfig{128, 10}.init(device), {}};
    // 4,800 training digits in batches of 32: 150 steps per epoch, 300 in all.
    auto train_set = data::PartialDataset(data::MnistDataset::train(), 0, 4800);
    auto train = data::DataLoaderBuilder(data::MnistBatcher())
                     .batch_size(32)
                     .shuffle(1)
                     .num_workers(2)
                     .build(train_set);
    auto valid =
        data::DataLoaderBuilder(data::MnistBatcher()).batch_size(500).build(data::MnistDataset::test());
    auto result = SupervisedTraining(train_test::fresh_dir("mnist_e2e"), train, valid)
                      .metric_train_numeric(LossMetric())
                      .metric_valid_numeric(LossMetric())
                      .metric_valid_numeric(AccuracyMetric())
                      .num_epochs(2)
                      .renderer(RendererKind::none)
                      .launch(Learner(model, optim::AdamConfig().init(), 1e-3));
    const auto& train_loss = result.report.train[0].values;
    const auto& valid_acc = result.report.valid[1].values;
    ASSERT_EQ(train_loss.size(), 2u);
    EXPECT_LT(train_loss[1], train_loss[0]);
    EXPECT_LT(train_loss[1], 0.5);
    EXPECT_GT(valid_acc[1], 85.0);
    // The returned model, evaluated independently of the metrics
    auto test = data::MnistDataset::test();
    std::vector<data::MnistItem> items;
    for (std::size_t i = 0; i < 500; ++i) items.push_back(*test.get(i));
    auto batch = data::MnistBatcher().batch(items, Device());
    auto pred = result.model.forward(batch.images).argmax(1).to_vec<int32_t>();
    int correct = 0;
    for (std::size_t i = 0; i < items.size(); ++i) correct += pred[i] == items[i].label;
    EXPECT_GT(correct, 425);  // 85 %
}
