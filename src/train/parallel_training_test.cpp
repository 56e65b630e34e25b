// Two trainings with dropout on two threads at once: each gives, bit for bit, the weights it gives
// alone. Each launch() draws from a generator of its own (a GeneratorScope on its thread), not from
// the device's shared stream, which the two would otherwise interleave their draws from.
#include <gtest/gtest.h>

#include <thread>

#include "training_test_util.hpp"

using namespace burn;
using namespace burn::train;
using namespace burn::train_test;
namespace fs = std::filesystem;

namespace {

/// Three dropouts a step, with work between them: a step of the other thread that draws in between
/// would change the masks.
struct DropNet {
    nn::Linear fc1, fc2, fc3;
    nn::Dropout dropout{0.3};
    nn::Relu relu;

    DropNet() = default;
    explicit DropNet(const Device& device)
        : fc1(nn::LinearConfig{2, 64}.init(device)),
          fc2(nn::LinearConfig{64, 64}.init(device)),
          fc3(nn::LinearConfig{64, 2}.init(device)) {}

    train::ClassificationOutput forward_classification(const PointBatch& b) const {
        auto h = dropout.forward(relu.forward(fc1.forward(dropout.forward(b.inputs))));
        auto logits = fc3.forward(dropout.forward(relu.forward(fc2.forward(h))));
        auto loss = nn::loss::CrossEntropyLoss().forward(logits, b.targets);
        return {loss, logits, b.targets};
    }
    train::TrainOutput<train::ClassificationOutput> train_step(const PointBatch& b) const {
        auto item = forward_classification(b);
        return train::TrainOutput(*this, item.loss.backward(), item);
    }
    train::ClassificationOutput infer_step(const PointBatch& b) const { return forward_classification(b); }

    BURN_MODULE(DropNet, fc1, fc2, fc3, dropout, relu)
};

std::map<std::string, std::vector<uint8_t>> train_one(const fs::path& dir, uint64_t seed) {
    auto train = data::DataLoaderBuilder(PointBatcher()).batch_size(8).shuffle(seed).build(points(256, seed));
    DropNet net;
    {
        GeneratorScope init(Generator(seed + 100));  // the initial weights, from this thread's stream
        net = DropNet(Device().autodiff());
    }
    auto result = SupervisedTraining<PointBatch, PointBatch>(dir, train, nullptr)
                      .metric_train_numeric(LossMetric())
                      .num_epochs(4)
                      .renderer(RendererKind::none)
                      .handle_ctrl_c(false)
                      .seed(seed)
                      .launch(Learner(std::move(net), optim::AdamConfig().init(), 0.01));
    return weights(result.model);
}

}  // namespace

TEST(TrainParallel, TwoTrainingsWithDropoutOnTwoThreadsMatchEachAlone) {
    const auto alone1 = train_one(fresh_dir("parallel_alone1"), 1);
    const auto alone2 = train_one(fresh_dir("parallel_alone2"), 2);
    ASSERT_NE(alone1, alone2);
    for (int round = 0; round < 6; ++round) {
        std::map<std::string, std::vector<uint8_t>> together1, together2;
        const auto dir1 = fresh_dir("parallel_a" + std::to_string(round));
        const auto dir2 = fresh_dir("parallel_b" + std::to_string(round));
        std::thread t1([&] { together1 = train_one(dir1, 1); });
        std::thread t2([&] { together2 = train_one(dir2, 2); });
        t1.join();
        t2.join();
        EXPECT_EQ(together1, alone1) << "round " << round;
        EXPECT_EQ(together2, alone2) << "round " << round;
    }
}
