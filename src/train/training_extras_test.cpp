// The training options beyond the basic loop: metrics((..)), the CPU temperature metric, text metrics,
// pluggable metric loggers and checkpointing strategies, a custom training strategy, and the
// asynchronous checkpointer, logger and metric processing (each compared with the synchronous run).
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include "burn/train/async_checkpointer.hpp"
#include "burn/train/async_logger.hpp"
#include "platform/threads.hpp"
#include "train/training_test_util.hpp"

using namespace burn;

namespace training_extras_test {

void write(const std::filesystem::path& file, const std::string& text) {
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file) << text;
}

std::string read(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

/// Records every event with the thread that delivered it.
struct Recorder final : train::MetricsRenderer {
    std::vector<std::string> events;
    std::set<std::thread::id> threads;
    void note(std::string e) {
        events.push_back(std::move(e));
        threads.insert(std::this_thread::get_id());
    }
    void update(const train::TrainingProgress& p, const std::vector<train::MetricState>&) override {
        note("update " + std::to_string(p.iteration));
    }
    void epoch_end(const train::EpochRecord& r) override { note("epoch " + std::to_string(r.epoch)); }
    void message(const std::string& line) override { note(line); }
    void finish() override { note("finish"); }
    bool stop_requested() override { return !events.empty() && events.back() == "stop"; }
};

/// The loss, noting the threads it was updated on.
struct ThreadLoss final : train::MetricBase<ThreadLoss> {
    std::shared_ptr<std::set<std::thread::id>> threads = std::make_shared<std::set<std::thread::id>>();
    train::LossMetric loss;
    std::string name() const override { return "Loss"; }
    void update(const train::MetricInput& in, const train::MetricMetadata& m) override {
        threads->insert(std::this_thread::get_id());
        loss.update(in, m);
    }
    double value() const override { return loss.value(); }
    double last() const override { return loss.last(); }
    void clear() override { loss.clear(); }
};

/// Two epochs of the point problem with checkpoints, per-iteration CSV logs and the given async options.
train::TrainingReport run_points(const std::filesystem::path& dir, bool async, const ThreadLoss& loss) {
    auto [tl, vl] = train_test::loaders();
    auto t = train::SupervisedTraining(dir, tl, vl);
    t.metric_train_numeric(loss).metric_valid_numeric(train::AccuracyMetric());
    t.num_epochs(2).with_default_checkpointers().log_iterations(3);
    t.renderer(train::RendererKind::none).handle_ctrl_c(false);
    t.async_checkpointer(async).async_logger(async).async_metrics(async);
    return t.launch(train::Learner(train_test::fresh_net(), optim::AdamConfig().init(), 1e-2)).report;
}

/// Keeps the checkpoints of even epochs only, and of those only the latest.
struct EvenEpochs final : train::CheckpointingStrategy {
    std::vector<std::size_t> history_sizes;
    std::vector<train::CheckpointingAction> checkpointing(std::size_t epoch,
                                                          const std::vector<train::MetricHistory>& train,
                                                          const std::vector<train::MetricHistory>&) override {
        history_sizes.push_back(train.at(0).values.size());
        if (epoch % 2) return {};
        std::vector<train::CheckpointingAction> a{train::CheckpointingAction::save()};
        if (epoch > 2) a.push_back(train::CheckpointingAction::remove(epoch - 2));
        return a;
    }
};

/// Keeps what it is given.
struct MemoryLogger final : train::MetricLogger {
    std::size_t iterations = 0;
    std::vector<double> epoch_losses;
    void log(const train::TrainingProgress& p, const std::vector<train::MetricState>&) override {
        iterations += p.split == train::Split::train;
    }
    void end_epoch(const train::EpochRecord& r) override { epoch_losses.push_back(r.train.at(0).value); }
};

/// A text metric: the latest batch of the epoch, as "N/M".
struct BatchText final : train::MetricBase<BatchText> {
    std::string t = "-";
    std::string name() const override { return "Batch"; }
    void update(const train::MetricInput&, const train::MetricMetadata& m) override {
        t = std::to_string(m.iteration) + "/" + std::to_string(m.num_iterations);
    }
    double value() const override { return std::nan(""); }
    void clear() override { t = "-"; }
    std::string text() const override { return t; }
};

/// A fresh SupervisedTraining of the point problem without display.
auto points_training(const std::filesystem::path& dir) {
    auto [tl, vl] = train_test::loaders();
    auto t = train::SupervisedTraining(dir, tl, vl);
    t.metric_train_numeric(train::LossMetric()).renderer(train::RendererKind::none).handle_ctrl_c(false);
    return t;
}

}  // namespace training_extras_test

TEST(TrainExtras, CpuTemperatureReadsSysfsOrIsUnavailable) {
    namespace x = training_extras_test;
    const auto root = train_test::fresh_dir("cpu_temp");
    train::CpuTemperature none(root);  // an empty tree: no sensor
    none.update({}, {});
    EXPECT_TRUE(std::isnan(none.value()));
    // A zone that is not the CPU's comes second to one that is; readings are millidegrees.
    x::write(root / "class/thermal/thermal_zone0/type", "acpitz\n");
    x::write(root / "class/thermal/thermal_zone0/temp", "27800\n");
    train::CpuTemperature zone0(root);
    zone0.update({}, {});
    EXPECT_DOUBLE_EQ(zone0.value(), 27.8);
    x::write(root / "class/thermal/thermal_zone1/type", "x86_pkg_temp\n");
    x::write(root / "class/thermal/thermal_zone1/temp", "54000\n");
    train::CpuTemperature cpu(root);
    cpu.update({}, {});
    EXPECT_DOUBLE_EQ(cpu.value(), 54.0);
    EXPECT_EQ(cpu.name(), "CPU Temperature");
    // No thermal zones: a CPU hwmon sensor; a garbled reading is no reading.
    const auto hw = train_test::fresh_dir("cpu_temp_hwmon");
    x::write(hw / "class/hwmon/hwmon0/name", "nvme\n");
    x::write(hw / "class/hwmon/hwmon0/temp1_input", "31000\n");
    x::write(hw / "class/hwmon/hwmon1/name", "k10temp\n");
    x::write(hw / "class/hwmon/hwmon1/temp1_input", "61500\n");
    train::CpuTemperature sensor(hw);
    sensor.update({}, {});
    EXPECT_DOUBLE_EQ(sensor.value(), 61.5);
    x::write(hw / "class/hwmon/hwmon1/temp1_input", "n/a\n");
    sensor.update({}, {});
    EXPECT_TRUE(std::isnan(sensor.value()));
}

TEST(TrainExtras, MetricsTupleRegistersEachOnBothSplits) {
    auto [train_loader, valid_loader] = train_test::loaders();
    auto run = [&, tl = train_loader, vl = valid_loader](bool tuple) {
        auto t = train::SupervisedTraining(train_test::fresh_dir(tuple ? "tuple" : "separate"), tl, vl);
        if (tuple) {
            t.metrics(train::LossMetric(), train::AccuracyMetric());
        } else {
            t.metric_train_numeric(train::LossMetric()).metric_train_numeric(train::AccuracyMetric());
            t.metric_valid_numeric(train::LossMetric()).metric_valid_numeric(train::AccuracyMetric());
        }
        t.renderer(train::RendererKind::none).handle_ctrl_c(false).log_file(false);
        return t.launch(train::Learner(train_test::fresh_net(), optim::AdamConfig().init(), 1e-2)).report;
    };
    const auto a = run(true), b = run(false);
    ASSERT_EQ(a.train.size(), 2u);
    ASSERT_EQ(a.valid.size(), 2u);
    for (std::size_t i = 0; i < 2; ++i) {
        EXPECT_EQ(a.train[i].name, b.train[i].name);
        EXPECT_EQ(a.train[i].values, b.train[i].values);
        EXPECT_EQ(a.valid[i].values, b.valid[i].values);
    }
    EXPECT_EQ(a.valid[1].name, "Accuracy");
}

TEST(TrainExtras, AsyncCheckpointerLoggerAndMetricsMatchTheSynchronousRun) {
    namespace x = training_extras_test;
    const auto sync_dir = train_test::fresh_dir("sync"), async_dir = train_test::fresh_dir("async");
    x::ThreadLoss sync_loss, async_loss;
    const auto a = x::run_points(sync_dir, false, sync_loss);
    const auto b = x::run_points(async_dir, true, async_loss);
    ASSERT_EQ(a.train.size(), 1u);
    EXPECT_EQ(a.train[0].values, b.train[0].values);
    EXPECT_EQ(a.valid[0].values, b.valid[0].values);
    for (const char* f : {"checkpoint/model-1.bpk", "checkpoint/model-2.bpk", "checkpoint/optim-2.bpk",
                          "metrics/train/epoch-2.csv", "metrics/train/loss.csv"}) {
        SCOPED_TRACE(f);
        ASSERT_TRUE(std::filesystem::exists(async_dir / f));
        EXPECT_EQ(x::read(sync_dir / f), x::read(async_dir / f));
    }
    const auto main_thread = std::this_thread::get_id();
    EXPECT_EQ(*sync_loss.threads, std::set<std::thread::id>{main_thread});
    // With threads the metric ran on one other thread; without, inline on this one.
    ASSERT_EQ(async_loss.threads->size(), 1u);
    EXPECT_EQ(*async_loss.threads->begin() != main_thread, platform::threads_supported());
}

TEST(TrainExtras, AsyncCheckpointerWritesInOrderAndReportsErrors) {
    struct Store final : train::RecordStore {
        std::shared_ptr<train::RecordStore> inner = train::default_record_store();
        std::set<std::thread::id> threads;
        bool fail = false;
        std::string extension() const override { return inner->extension(); }
        void save(const std::filesystem::path& p, const train::CheckpointRecord& r) override {
            threads.insert(std::this_thread::get_id());
            if (fail) BURN_THROW_KIND(io, "disk full");
            inner->save(p, r);
        }
        train::CheckpointRecord load(const std::filesystem::path& p, const Device& d) override {
            return inner->load(p, d);
        }
    };
    auto store = std::make_shared<Store>();
    const auto dir = train_test::fresh_dir("async_ckpt");
    train::AsyncCheckpointer async(train::Checkpointer(dir, store));
    auto t = Tensor<1>::from_data(TensorData(std::vector<float>{1, 2, 3}), Device());
    train::CheckpointRecord rec;
    rec.tensors["w"] = t.handle();
    for (std::size_t e = 1; e <= 3; ++e)
        async.save({std::to_string(e), e, 0}, {{"model", rec}}, config::Value::object());
    std::vector<std::size_t> seen;
    async.then([&](train::Checkpointer& c) {
        for (const auto& info : c.list()) seen.push_back(info.epoch);
        c.remove("1");
    });
    async.flush();
    EXPECT_EQ(seen, (std::vector<std::size_t>{1, 2, 3}));  // the writes came before the pruning
    EXPECT_EQ(async.checkpointer().list().size(), 2u);
    auto back = async.checkpointer().load_part("3", "model", Device());
    EXPECT_EQ(Tensor<1>(back.tensors.at("w")).to_vec<float>(), (std::vector<float>{1, 2, 3}));
    EXPECT_EQ(store->threads.size(), 1u);
    EXPECT_EQ(*store->threads.begin() != std::this_thread::get_id(), platform::threads_supported());
    store->fail = true;
    if (platform::threads_supported()) {
        async.save({"4", 4, 0}, {{"model", rec}}, config::Value::object());
        EXPECT_THROW(async.flush(), IoError);
        async.flush();  // reported once
    } else {
        EXPECT_THROW(async.save({"4", 4, 0}, {{"model", rec}}, config::Value::object()), IoError);
    }
}

TEST(TrainExtras, AsyncLoggerDeliversInOrderOnItsThread) {
    auto rec = std::make_shared<training_extras_test::Recorder>();
    train::AsyncLogger logger(rec);
    train::TrainingProgress p;
    for (std::size_t i = 1; i <= 50; ++i) {
        p.iteration = i;
        logger.update(p, {});
    }
    logger.epoch_end({1, 1, 0.0, {}, {}});
    logger.message("stop");
    logger.flush();
    EXPECT_TRUE(logger.stop_requested());
    logger.finish();
    ASSERT_EQ(rec->events.size(), 53u);
    for (std::size_t i = 0; i < 50; ++i) EXPECT_EQ(rec->events[i], "update " + std::to_string(i + 1));
    EXPECT_EQ(rec->events[50], "epoch 1");
    EXPECT_EQ(rec->events[52], "finish");
    // Events ran on the logger's thread; finish on the caller's, after them.
    EXPECT_EQ(rec->threads.size(), platform::threads_supported() ? 2u : 1u);
}

TEST(TrainExtras, CheckpointingStrategyAndMetricLoggerOfYourOwn) {
    namespace x = training_extras_test;
    const auto dir = train_test::fresh_dir("strategy");
    auto strategy = std::make_shared<x::EvenEpochs>();
    auto logger = std::make_shared<x::MemoryLogger>();
    auto t = x::points_training(dir);
    t.num_epochs(5).with_checkpointing_strategy(strategy).with_metric_logger(logger);
    const auto report =
        t.launch(train::Learner(train_test::fresh_net(), optim::AdamConfig().init(), 1e-2)).report;
    // Saved at 2 and 4; 4 deleted 2; epoch 5 saved nothing.
    std::vector<std::size_t> epochs;
    for (const auto& c : train::Checkpointer(dir / "checkpoint", train::default_record_store()).list())
        epochs.push_back(c.epoch);
    EXPECT_EQ(epochs, (std::vector<std::size_t>{4}));
    EXPECT_EQ(strategy->history_sizes, (std::vector<std::size_t>{1, 2, 3, 4, 5}));
    // The logger saw every train iteration (16 per epoch) and each epoch's loss; no CSV was written.
    EXPECT_EQ(logger->iterations, 5u * 16u);
    EXPECT_EQ(logger->epoch_losses, report.train.at(0).values);
    EXPECT_FALSE(std::filesystem::exists(dir / "metrics/train/loss.csv"));
}

TEST(TrainExtras, CustomTrainingStrategyReplacesTheOptimizerStep) {
    namespace x = training_extras_test;
    using Net = train_test::Net;
    auto plain = x::points_training(train_test::fresh_dir("plain"));
    const auto want = train_test::weights(
        plain.launch(train::Learner(train_test::fresh_net(), optim::AdamConfig().init(), 1e-2)).model);
    // The built-in step, counted: the same weights.
    std::vector<double> lrs;
    auto counted = x::points_training(train_test::fresh_dir("counted"));
    counted.with_training_strategy(
        train::TrainingStrategy<Net>([&](Net m, optim::Optimizer& o, double lr, optim::GradientsParams& g) {
            lrs.push_back(lr);
            return o.step(lr, std::move(m), g);
        }));
    auto got = counted.launch(train::Learner(train_test::fresh_net(), optim::AdamConfig().init(), 1e-2));
    EXPECT_EQ(train_test::weights(got.model), want);
    EXPECT_EQ(lrs, std::vector<double>(16, 1e-2));
    // A strategy that never steps leaves the initial weights.
    auto frozen = x::points_training(train_test::fresh_dir("frozen"));
    frozen.with_training_strategy(train::TrainingStrategy<Net>(
        [](Net m, optim::Optimizer&, double, optim::GradientsParams&) { return m; }));
    auto same = frozen.launch(train::Learner(train_test::fresh_net(), optim::AdamConfig().init(), 1e-2));
    EXPECT_EQ(train_test::weights(same.model), train_test::weights(train_test::fresh_net().valid()));
    // A strategy for another model type is refused at launch.
    auto wrong = x::points_training(train_test::fresh_dir("wrong"));
    wrong.with_training_strategy(train::TrainingStrategy<int>(
        [](int m, optim::Optimizer&, double, optim::GradientsParams&) { return m; }));
    EXPECT_THROW(wrong.launch(train::Learner(train_test::fresh_net(), optim::AdamConfig().init(), 1e-2)),
                 Error);
}

TEST(TrainExtras, TextMetricsAreShownButNotRecorded) {
    namespace x = training_extras_test;
    const auto dir = train_test::fresh_dir("text");
    std::ostringstream out;
    std::vector<train::EpochRecord> epochs;
    auto t = x::points_training(dir);
    t.metric_train(x::BatchText()).metric_valid(train::AccuracyMetric()).log_iterations(1);
    t.with_renderer(std::shared_ptr<train::MetricsRenderer>(train::make_plain_renderer(out)));
    t.on_epoch_end([&](const train::EpochRecord& r) { epochs.push_back(r); });
    const auto report =
        t.launch(train::Learner(train_test::fresh_net(), optim::AdamConfig().init(), 1e-2)).report;
    ASSERT_EQ(report.train.size(), 1u);  // the numeric Loss only
    EXPECT_TRUE(report.valid.empty());
    ASSERT_EQ(epochs.size(), 1u);
    ASSERT_EQ(epochs[0].train.size(), 2u);
    EXPECT_EQ(epochs[0].train[1].text, "16/16");
    ASSERT_EQ(epochs[0].valid.size(), 1u);
    const std::string accuracy = epochs[0].valid[0].text;  // "97.27 %": the numeric metric as text
    EXPECT_NE(accuracy.find(" %"), std::string::npos);
    EXPECT_NE(out.str().find("Batch 16/16"), std::string::npos) << out.str();
    EXPECT_NE(out.str().find("Accuracy " + accuracy), std::string::npos) << out.str();
    EXPECT_EQ(x::read(dir / "metrics/train/epoch-1.csv").substr(0, 18), "iteration,lr,Loss\n");
    EXPECT_FALSE(std::filesystem::exists(dir / "metrics/valid/accuracy.csv"));
}
