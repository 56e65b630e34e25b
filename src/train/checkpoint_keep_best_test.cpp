// checkpoint_keep_best (burn's MetricCheckpointingStrategy) alone and composed with checkpoint_keep_last
// (burn's ComposedCheckpointingStrategy): which epochs' checkpoints survive, for a metric that wants the
// lowest and one that wants the highest value, and that the kept best checkpoint is that epoch's model
// (it equals a run stopped there, and training resumes from it).
#include <gtest/gtest.h>

#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "training_test_util.hpp"

using namespace burn;
using namespace burn::train;
using namespace burn::train_test;
namespace fs = std::filesystem;

// File-local names in a namespace named after the file (a unity batch shares one translation unit).
namespace checkpoint_keep_best_test {

/// A metric whose value at epoch e is script[e - 1], whatever the batches: the best epoch is known.
class ScriptedMetric final : public MetricBase<ScriptedMetric> {
  public:
    ScriptedMetric(std::vector<double> script, Direction direction)
        : script_(std::move(script)), direction_(direction) {}
    std::string name() const override { return "Scripted"; }
    Direction direction() const override { return direction_; }
    void update(const MetricInput&, const MetricMetadata& meta) override {
        value_ = script_.at(meta.epoch - 1);
    }
    double value() const override { return value_; }
    void clear() override { value_ = std::numeric_limits<double>::quiet_NaN(); }

  private:
    std::vector<double> script_;
    Direction direction_;
    double value_ = std::numeric_limits<double>::quiet_NaN();
};

// Lowest at epoch 2, highest at epoch 4.
const std::vector<double> kScript = {3, 1, 4, 6, 2, 5};

/// A short run: 2 train batches of 32 and one valid batch per epoch (the metric's script decides what is
/// best).
SupervisedTraining<PointBatch, PointBatch> make_training(const fs::path& dir, std::size_t epochs) {
    auto train = data::DataLoaderBuilder(PointBatcher()).batch_size(32).shuffle(7).build(points(64, 1));
    auto valid = data::DataLoaderBuilder(PointBatcher()).batch_size(64).build(points(64, 2));
    return SupervisedTraining(dir, train, valid)
        .metric_valid_numeric(LossMetric())
        .num_epochs(epochs)
        .renderer(RendererKind::none)
        .seed(5);
}

std::vector<std::size_t> kept(const fs::path& dir) {
    std::vector<std::size_t> out;
    for (const auto& c : Checkpointer(dir / "checkpoint", nullptr).list()) out.push_back(c.epoch);
    return out;
}

TEST(TrainCheckpointKeepBest, KeepsTheBestEpochBesideTheLastOnes) {
    {  // lowest is best (epoch 2) + the default last 2
        auto dir = fresh_dir("keep_best_lowest");
        const ScriptedMetric m(kScript, Direction::lowest);
        auto r = make_training(dir, 6).metric_valid_numeric(m).checkpoint_keep_best(m).launch(
            Learner(fresh_net(), optim::AdamConfig().init(), 0.02));
        EXPECT_EQ(r.report.epochs_completed, 6u);
        EXPECT_EQ(kept(dir), (std::vector<std::size_t>{2, 5, 6}));
        ASSERT_EQ(r.report.valid.size(), 2u);
        EXPECT_EQ(r.report.valid[1].name, "Scripted");
        EXPECT_EQ(r.report.valid[1].values, kScript);
    }
    {  // highest is best (epoch 4)
        auto dir = fresh_dir("keep_best_highest");
        const ScriptedMetric m(kScript, Direction::highest);
        make_training(dir, 6).metric_valid_numeric(m).checkpoint_keep_best(m).launch(
            Learner(fresh_net(), optim::AdamConfig().init(), 0.02));
        EXPECT_EQ(kept(dir), (std::vector<std::size_t>{4, 5, 6}));
    }
    {  // composed with keep_last(1), in either call order
        auto dir = fresh_dir("keep_best_last1");
        const ScriptedMetric m(kScript, Direction::lowest);
        make_training(dir, 6).metric_valid_numeric(m).checkpoint_keep_best(m).checkpoint_keep_last(1).launch(
            Learner(fresh_net(), optim::AdamConfig().init(), 0.02));
        EXPECT_EQ(kept(dir), (std::vector<std::size_t>{2, 6}));
        auto dir2 = fresh_dir("keep_last1_best");
        make_training(dir2, 6).checkpoint_keep_last(1).metric_valid_numeric(m).checkpoint_keep_best(m).launch(
            Learner(fresh_net(), optim::AdamConfig().init(), 0.02));
        EXPECT_EQ(kept(dir2), (std::vector<std::size_t>{2, 6}));
    }
    {  // keep_last alone: no best is kept
        auto dir = fresh_dir("keep_last_only");
        const ScriptedMetric m(kScript, Direction::lowest);
        make_training(dir, 6).metric_valid_numeric(m).checkpoint_keep_last(1).launch(
            Learner(fresh_net(), optim::AdamConfig().init(), 0.02));
        EXPECT_EQ(kept(dir), (std::vector<std::size_t>{6}));
    }
    {  // the best moves as the run goes: epoch 1 (value 3) is kept as the best until epoch 3 (value 4) beats
       // it
        auto dir = fresh_dir("keep_best_short");
        const ScriptedMetric m(kScript, Direction::highest);
        make_training(dir, 3).metric_valid_numeric(m).checkpoint_keep_best(m).checkpoint_keep_last(1).launch(
            Learner(fresh_net(), optim::AdamConfig().init(), 0.02));
        EXPECT_EQ(kept(dir), (std::vector<std::size_t>{3})) << "epoch 3 is both the best and the last";
    }
}

TEST(TrainCheckpointKeepBest, TheBestCheckpointIsThatEpochsModelAndResumes) {
    auto dir = fresh_dir("keep_best_model");
    const ScriptedMetric m(kScript, Direction::lowest);
    make_training(dir, 6).metric_valid_numeric(m).checkpoint_keep_best(m).checkpoint_keep_last(1).launch(
        Learner(fresh_net(), optim::AdamConfig().init(), 0.02));
    ASSERT_EQ(kept(dir), (std::vector<std::size_t>{2, 6}));
    // The same run stopped after 2 epochs (the loop is deterministic) has the weights of model-2.bpk.
    auto two = make_training(fresh_dir("keep_best_two"), 2)
                   .launch(Learner(fresh_net(), optim::AdamConfig().init(), 0.02));
    Net best{Device()};
    store::BurnpackStore in(dir / "checkpoint" / "model-2.bpk");
    EXPECT_EQ(best.load_from(in).applied.size(), 4u);
    EXPECT_EQ(weights(best), weights(two.model));
    // A pruned epoch is gone; training resumes from the kept best one.
    try {
        make_training(dir, 6).checkpoint(3).launch(Learner(fresh_net(), optim::AdamConfig().init(), 0.02));
        FAIL() << "epoch 3's checkpoint was pruned";
    } catch (const IoError& e) {
        EXPECT_NE(std::string(e.what()).find("available: 2, 6"), std::string::npos) << e.what();
    }
    auto resumed = make_training(dir, 3).metric_valid_numeric(m).checkpoint(2).launch(
        Learner(fresh_net(), optim::AdamConfig().init(), 0.02));
    EXPECT_EQ(resumed.report.resumed_from, 2u);
    EXPECT_EQ(resumed.report.epochs_completed, 3u);
}

TEST(TrainCheckpointKeepBest, AMetricThatIsNotRegisteredIsRefused) {
    auto dir = fresh_dir("keep_best_unregistered");
    const ScriptedMetric m(kScript, Direction::lowest);
    try {
        make_training(dir, 2).checkpoint_keep_best(m).launch(
            Learner(fresh_net(), optim::AdamConfig().init(), 0.02));
        FAIL() << "keep-best on a metric that is not logged was accepted";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("checkpoint_keep_best"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("Scripted"), std::string::npos) << e.what();
    }
}

}  // namespace checkpoint_keep_best_test
