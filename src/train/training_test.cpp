#include <gtest/gtest.h>

#include <cmath>
#include <csignal>
#include <fstream>
#include <sstream>

#include "training_test_util.hpp"

using namespace burn;
using namespace burn::train;
using namespace burn::train_test;
namespace fs = std::filesystem;

namespace {

/// A renderer that records what it is shown and can act at a chosen iteration.
struct Probe final : MetricsRenderer {
    std::vector<EpochRecord> epochs;
    std::vector<std::string> messages;
    std::size_t act_epoch = 0, act_iteration = 0;
    std::function<void()> action;
    void update(const TrainingProgress& p, const std::vector<MetricState>&) override {
        if (action && p.split == Split::train && p.epoch == act_epoch && p.iteration == act_iteration)
            action();
    }
    void epoch_end(const EpochRecord& r) override { epochs.push_back(r); }
    void message(const std::string& line) override { messages.push_back(line); }
};

std::string read(const fs::path& p) {
    std::ifstream f(p);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

/// A scheduler of the shape the optim schedulers have: step(), to_record(), load_record().
struct DecayLr {
    struct Record {
        std::map<std::string, double> scalars;
    };
    double lr = 0.05;
    double step() {
        double out = lr;
        lr *= 0.995;
        return out;
    }
    Record to_record() const { return {{{"lr", lr}}}; }
    void load_record(const Record& r) { lr = r.scalars.at("lr"); }
};

SupervisedTraining<PointBatch, PointBatch> make_training(const fs::path& dir, std::size_t epochs,
                                                         std::shared_ptr<MetricsRenderer> probe = nullptr) {
    auto [train, valid] = loaders();
    auto t = SupervisedTraining(dir, train, valid)
                 .metric_train_numeric(LossMetric())
                 .metric_train_numeric(LearningRateMetric())
                 .metric_valid_numeric(LossMetric())
                 .metric_valid_numeric(AccuracyMetric())
                 .num_epochs(epochs)
                 .with_default_checkpointers()
                 .renderer(RendererKind::none)
                 .seed(5);
    if (probe) t.with_renderer(probe);
    return t;
}

}  // namespace

TEST(TrainLoop, LearnsASeparableProblem) {
    auto dir = fresh_dir("learns");
    auto [train, valid] = loaders(2);
    auto probe = std::make_shared<Probe>();
    auto training = SupervisedTraining(dir, train, valid)
                        .metric_train_numeric(LossMetric())
                        .metric_train_numeric(AccuracyMetric())
                        .metric_valid_numeric(LossMetric())
                        .metric_valid_numeric(AccuracyMetric())
                        .metric_valid_numeric(AurocMetric())
                        .num_epochs(6)
                        .with_default_checkpointers()
                        .with_renderer(probe);
    auto result = training.launch(Learner(fresh_net(), optim::AdamConfig().init(), 0.02));
    const auto& r = result.report;
    EXPECT_EQ(r.epochs_completed, 6u);
    EXPECT_FALSE(r.stopped_early);
    ASSERT_EQ(r.train.size(), 2u);
    const auto& loss = r.train[0].values;
    ASSERT_EQ(loss.size(), 6u);
    EXPECT_LT(loss.back(), 0.5 * loss.front()) << "the train loss did not go down";
    EXPECT_GT(r.valid[1].values.back(), 90.0) << "valid accuracy";
    EXPECT_GT(r.valid[2].values.back(), 95.0) << "valid AUROC";
    EXPECT_EQ(probe->epochs.size(), 6u);
    EXPECT_FALSE(result.model.fc1.weight.val().device().is_autodiff());  // the result is on the inner device

    // The trained model, independently evaluated
    auto test = PointBatcher().batch(points(400, 3).to_vec(), Device());
    auto pred = result.model.forward(test.inputs).argmax(1).to_vec<int32_t>();
    auto truth = test.targets.to_vec<int32_t>();
    int correct = 0;
    for (std::size_t i = 0; i < truth.size(); ++i) correct += pred[i] == truth[i];
    EXPECT_GT(correct, 360);

    // Logs, checkpoints (the last 2), summary and curves
    std::string csv = read(dir / "metrics" / "valid" / "accuracy.csv");
    EXPECT_EQ(csv.rfind("epoch,value\n1,", 0), 0u) << csv;
    EXPECT_NE(csv.find("\n6,"), std::string::npos) << csv;
    EXPECT_TRUE(fs::exists(dir / "metrics" / "train" / "loss.csv"));
    Checkpointer ck(dir / "checkpoint", nullptr);
    auto list = ck.list();
    ASSERT_EQ(list.size(), 2u);
    EXPECT_EQ(list[0].epoch, 5u);
    EXPECT_EQ(list[1].epoch, 6u);
    EXPECT_TRUE(fs::exists(dir / "checkpoint" / "model-6.bpk"));
    EXPECT_FALSE(fs::exists(dir / "checkpoint" / "model-4.bpk"));
    EXPECT_NE(read(dir / "summary.txt").find("Valid Accuracy"), std::string::npos);
    EXPECT_NE(read(dir / "curves.svg").find("<polyline"), std::string::npos);
}

TEST(TrainLoop, ResumingFromACheckpointIsBitIdentical) {
    auto full_dir = fresh_dir("resume_full"), part_dir = fresh_dir("resume_part");
    auto full =
        make_training(full_dir, 5).launch(Learner(fresh_net(), optim::AdamConfig().init(), DecayLr{}));
    auto first =
        make_training(part_dir, 3).launch(Learner(fresh_net(), optim::AdamConfig().init(), DecayLr{}));
    EXPECT_EQ(first.report.epochs_completed, 3u);
    // A different initialisation, optimizer state and scheduler state: all come from the checkpoint.
    Device device = Device().autodiff();
    device.seed(999);
    auto resumed = make_training(part_dir, 5)
                       .checkpoint(3)
                       .launch(Learner(Net(device), optim::AdamConfig().init(), DecayLr{}));
    EXPECT_EQ(resumed.report.resumed_from, 3u);
    EXPECT_EQ(resumed.report.epochs_completed, 5u);
    EXPECT_EQ(weights(resumed.model), weights(full.model));
    // The history covers the whole run, and matches the uninterrupted one.
    ASSERT_EQ(resumed.report.valid[1].values.size(), 5u);
    EXPECT_EQ(resumed.report.valid[1].values, full.report.valid[1].values);
    EXPECT_EQ(resumed.report.train[1].values,
              full.report.train[1].values);  // the learning rate went on decaying

    // A checkpoint that does not exist says which do.
    try {
        make_training(part_dir, 5)
            .checkpoint(1)
            .launch(Learner(fresh_net(), optim::AdamConfig().init(), 0.01));
        FAIL();
    } catch (const IoError& e) {
        EXPECT_NE(std::string(e.what()).find("available: 4, 5"), std::string::npos) << e.what();
    }
}

TEST(TrainLoop, OptimSchedulersAreCheckpointed) {
    // optim's schedulers (through LrSchedulerAny) keep their iteration in the scheduler part.
    auto schedule = [] {
        return optim::LrSchedulerAny(optim::LinearLrSchedulerConfig{0.05, 0.001, 40}.init());
    };
    auto full = make_training(fresh_dir("sched_full"), 4)
                    .launch(Learner(fresh_net(), optim::AdamConfig().init(), schedule()));
    auto dir = fresh_dir("sched_part");
    make_training(dir, 2).launch(Learner(fresh_net(), optim::AdamConfig().init(), schedule()));
    auto resumed =
        make_training(dir, 4).resume().launch(Learner(fresh_net(), optim::AdamConfig().init(), schedule()));
    EXPECT_EQ(resumed.report.resumed_from, 2u);
    const auto& lr = resumed.report.train[1].values;  // the learning rate at the end of each epoch
    ASSERT_EQ(lr.size(), 4u);
    EXPECT_NEAR(lr[0], 0.05 - (0.05 - 0.001) * 15 / 40, 1e-12);  // 16 steps per epoch: the 16th step's rate
    EXPECT_NEAR(lr[3], 0.001, 1e-12);
    EXPECT_EQ(lr, full.report.train[1].values);
    EXPECT_EQ(weights(resumed.model), weights(full.model));
}

TEST(TrainLoop, CycledMomentumReachesTheOptimizerAndResumes) {
    // one-cycle with cycle_momentum: Adam's beta_1 follows the schedule each step; resuming recomputes it
    auto schedule = [](bool cycle) {
        return optim::LrSchedulerAny(
            optim::OneCycleLrSchedulerConfig{0.05, 64}.with_cycle_momentum(cycle).init());
    };
    auto plain = make_training(fresh_dir("cycle_plain"), 4)
                     .launch(Learner(fresh_net(), optim::AdamConfig().init(), schedule(false)));
    auto full = make_training(fresh_dir("cycle_full"), 4)
                    .launch(Learner(fresh_net(), optim::AdamConfig().init(), schedule(true)));
    EXPECT_NE(weights(full.model), weights(plain.model));
    auto dir = fresh_dir("cycle_part");
    make_training(dir, 2).launch(Learner(fresh_net(), optim::AdamConfig().init(), schedule(true)));
    auto resumed = make_training(dir, 4).resume().launch(
        Learner(fresh_net(), optim::AdamConfig().init(), schedule(true)));
    EXPECT_EQ(resumed.report.resumed_from, 2u);
    EXPECT_EQ(weights(resumed.model), weights(full.model));
    // a rule without momentum cannot follow the schedule: an error naming it, not a silent constant
    try {
        make_training(fresh_dir("cycle_adagrad"), 1)
            .launch(Learner(fresh_net(), optim::AdaGradConfig().init(), schedule(true)));
        ADD_FAILURE() << "no error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("AdaGrad rule has no momentum"), std::string::npos) << e.what();
    }
}

TEST(TrainLoop, InterruptMidEpochThenResumeIsBitIdentical) {
    auto full_dir = fresh_dir("interrupt_full"), dir = fresh_dir("interrupt");
    auto full = make_training(full_dir, 3).launch(Learner(fresh_net(), optim::AdamConfig().init(), 0.02));

    Interrupter interrupter;
    auto probe = std::make_shared<Probe>();
    probe->act_epoch = 2;
    probe->act_iteration = 5;
    probe->action = [&] { interrupter.stop(); };
    auto stopped = make_training(dir, 3, probe)
                       .with_interrupter(interrupter)
                       .launch(Learner(fresh_net(), optim::AdamConfig().init(), 0.02));
    EXPECT_TRUE(stopped.report.interrupted);
    EXPECT_EQ(stopped.report.epochs_completed, 1u);
    auto latest = Checkpointer(dir / "checkpoint", nullptr).latest();
    ASSERT_TRUE(latest.has_value());
    EXPECT_EQ(latest->tag, "interrupted");
    EXPECT_EQ(latest->epoch, 1u);
    EXPECT_EQ(latest->iteration, 5u);

    auto resumed =
        make_training(dir, 3).resume().launch(Learner(fresh_net(), optim::AdamConfig().init(), 0.02));
    EXPECT_FALSE(resumed.report.interrupted);
    EXPECT_EQ(weights(resumed.model), weights(full.model));
    // The mid-epoch checkpoint is superseded by the next epoch's.
    for (const auto& c : Checkpointer(dir / "checkpoint", nullptr).list()) EXPECT_NE(c.tag, "interrupted");
}

TEST(TrainLoop, CtrlCStopsCleanlyWithACheckpoint) {
    auto dir = fresh_dir("ctrl_c");
    auto probe = std::make_shared<Probe>();
    probe->act_epoch = 1;
    probe->act_iteration = 3;
    probe->action = [] { std::raise(SIGINT); };  // the handler counts it; the process lives on
    auto result = make_training(dir, 4, probe).launch(Learner(fresh_net(), optim::AdamConfig().init(), 0.02));
    EXPECT_TRUE(result.report.interrupted);
    EXPECT_EQ(result.report.epochs_completed, 0u);
    auto latest = Checkpointer(dir / "checkpoint", nullptr).latest();
    ASSERT_TRUE(latest.has_value());
    EXPECT_EQ(latest->iteration, 3u);
    bool said = false;
    for (const auto& m : probe->messages) said = said || m.find("interrupted") != std::string::npos;
    EXPECT_TRUE(said);
}

TEST(TrainLoop, EarlyStoppingWhenNothingImproves) {
    auto dir = fresh_dir("early");
    auto [train, valid] = loaders();
    // lr 0: the model never changes, the validation loss is the same every epoch, so epoch 1 stays best.
    auto result = SupervisedTraining(dir, train, valid)
                      .metric_valid_numeric(LossMetric())
                      .num_epochs(10)
                      .early_stopping(LossMetric(), StoppingCondition::no_improvement_since(2))
                      .renderer(RendererKind::none)
                      .launch(Learner(fresh_net(), optim::SgdConfig().init(), 0.0));
    EXPECT_TRUE(result.report.stopped_early);
    EXPECT_EQ(result.report.epochs_completed, 3u);
    // watching a metric that is not registered is an error
    EXPECT_THROW(SupervisedTraining(dir, train, valid)
                     .early_stopping(AccuracyMetric(), StoppingCondition::no_improvement_since(1))
                     .renderer(RendererKind::none)
                     .launch(Learner(fresh_net(), optim::SgdConfig().init(), 0.0)),
                 Error);
}

TEST(TrainLoop, GradsAccumulationSumsSteps) {
    // Two accumulated half-batches of a mean loss give twice the full batch's gradient: SGD with lr
    // matches SGD at 2 lr on the full batch.
    auto run = [](std::size_t batch, std::size_t accumulate, double lr) {
        auto train = data::DataLoaderBuilder(PointBatcher()).batch_size(batch).build(points(128, 4));
        auto valid = data::DataLoaderBuilder(PointBatcher()).batch_size(64).build(points(64, 5));
        Device device = Device().autodiff();
        device.seed(1);
        Net net(device);
        net.dropout.prob = 0.0;
        return SupervisedTraining(fresh_dir("accumulate"), train, valid)
            .num_epochs(1)
            .grads_accumulation(accumulate)
            .renderer(RendererKind::none)
            .launch(Learner(net, optim::SgdConfig().init(), lr))
            .model;
    };
    auto a = run(16, 2, 0.1), b = run(32, 1, 0.2), c = run(16, 1, 0.1);
    auto wa = a.fc1.weight.val().to_vec<float>(), wb = b.fc1.weight.val().to_vec<float>(),
         wc = c.fc1.weight.val().to_vec<float>();
    double diff_ab = 0, diff_ac = 0;
    for (std::size_t i = 0; i < wa.size(); ++i) {
        diff_ab = std::max(diff_ab, std::fabs(double(wa[i]) - wb[i]));
        diff_ac = std::max(diff_ac, std::fabs(double(wa[i]) - wc[i]));
    }
    EXPECT_LT(diff_ab, 1e-5);
    EXPECT_GT(diff_ac, 1e-4);  // without accumulation the run differs
}

TEST(TrainLoop, ModelMustBeOnAnAutodiffDevice) {
    auto [train, valid] = loaders();
    try {
        SupervisedTraining(fresh_dir("plain_device"), train, valid)
            .renderer(RendererKind::none)
            .launch(Learner(Net(Device()), optim::AdamConfig().init(), 0.01));
        FAIL();
    } catch (const DeviceError& e) {
        EXPECT_NE(std::string(e.what()).find("autodiff()"), std::string::npos) << e.what();
    }
}

TEST(TrainLoop, PlainRendererWritesOneLinePerEpoch) {
    std::ostringstream out;
    auto [train, valid] = loaders();
    SupervisedTraining(fresh_dir("plain"), train, valid)
        .metric_train_numeric(LossMetric())
        .metric_valid_numeric(AccuracyMetric())
        .num_epochs(2)
        .with_renderer(make_plain_renderer(out, 0.0))
        .launch(Learner(fresh_net(), optim::AdamConfig().init(), 0.01));
    std::string s = out.str();
    EXPECT_NE(s.find("epoch 1/2 ("), std::string::npos) << s;
    EXPECT_NE(s.find("train: Loss "), std::string::npos) << s;
    EXPECT_NE(s.find("valid: Accuracy "), std::string::npos) << s;
    EXPECT_EQ(s.find('\r'), std::string::npos);
    EXPECT_EQ(s.find('\x1b'), std::string::npos);
    EXPECT_EQ(std::count(s.begin(), s.end(), '\n'), 2);
}
