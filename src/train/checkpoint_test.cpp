#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "training_test_util.hpp"

#if defined(__linux__)  // /proc/self/exe
#define BURN_TEST_FORK 1
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#endif

using namespace burn;
using namespace burn::train;
using namespace burn::train_test;
namespace fs = std::filesystem;

TEST(TrainCheckpoint, RecordRoundTripIsExact) {
    auto dir = fresh_dir("record");
    CheckpointRecord r;
    r.tensors["a.weight"] = Tensor<2>::from_floats({{1.5, -2.25}, {3.0, 1e-30}}).handle();
    r.tensors["b"] = Tensor<1, Int>::from_ints({7, -8, 9}).cast(DType::i64).handle();
    r.tensors["flag"] = Tensor<1, Bool>::from_bool({true, false}).handle();
    r.tensors["h"] = Tensor<1>::from_floats({0.1, 0.2}).cast(DType::f16).handle();
    r.tensors["empty"] = Tensor<2>::zeros({0, 3}).handle();
    r.scalars["step"] = 12345;
    r.scalars["third"] = 1.0 / 3.0;
    r.scalars["nan"] = NAN;
    r.scalars["inf"] = -INFINITY;
    r.metadata["optimizer"] = "Adam";
    auto store = default_record_store();
    store->save(dir / "r.bpk", r);
    auto back = store->load(dir / "r.bpk", Device());
    ASSERT_EQ(back.tensors.size(), r.tensors.size());
    for (const auto& [name, t] : r.tensors) {
        ASSERT_TRUE(back.tensors.count(name)) << name;
        EXPECT_EQ(ops::into_data(back.tensors[name]), ops::into_data(t)) << name;
    }
    EXPECT_EQ(back.scalars["step"], 12345);
    EXPECT_EQ(back.scalars["third"], 1.0 / 3.0);
    EXPECT_TRUE(std::isnan(back.scalars["nan"]));
    EXPECT_EQ(back.scalars["inf"], -INFINITY);
    EXPECT_EQ(back.metadata["optimizer"], "Adam");

    // damage: truncated data, bad magic
    std::string bytes;
    {
        std::ifstream f(dir / "r.bpk", std::ios::binary);
        bytes.assign(std::istreambuf_iterator<char>(f), {});
    }
    std::ofstream(dir / "cut.bpk", std::ios::binary) << bytes.substr(0, bytes.size() - 3);
    std::ofstream(dir / "bad.bpk", std::ios::binary) << "hello world, not a record";
    for (const char* name : {"cut.bpk", "bad.bpk", "missing.bpk"}) {
        try {
            store->load(dir / name, Device());
            FAIL() << name;
        } catch (const IoError& e) {
            EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
        }
    }
}

TEST(TrainCheckpoint, ModuleAndOptimizerStateSurviveNewParameterIds) {
    Device device = Device().autodiff();
    Net a(device);
    auto opt = optim::AdamConfig().init();
    auto batch = PointBatcher().batch(points(16, 1).to_vec(), device);
    a = opt.step(0.01, a, a.train_step(batch).grads);
    auto model_rec = module_to_record(a);
    EXPECT_EQ(model_rec.tensors.size(), 4u);
    auto opt_rec = optimizer_to_record(opt, optimizer_paths(a));
    EXPECT_TRUE(opt_rec.tensors.count("fc1.weight/exp_avg"));
    EXPECT_EQ(opt_rec.scalars.at("fc2.bias/step"), 1.0);

    Net b(device);  // new parameter ids
    auto opt_b = optim::AdamConfig().init();
    module_from_record(b, model_rec);
    optimizer_from_record(opt_b, optimizer_paths(b), opt_rec);
    EXPECT_EQ(weights(a), weights(b));
    device.seed(5);  // the same dropout masks for both steps
    a = opt.step(0.01, a, a.train_step(batch).grads);
    device.seed(5);
    b = opt_b.step(0.01, b, b.train_step(batch).grads);
    EXPECT_EQ(weights(a), weights(b));        // the second Adam step matches: the moments came along
    auto fresh = optim::AdamConfig().init();  // without the moments it would not
    Net c(device);
    module_from_record(c, model_rec);
    device.seed(5);
    c = fresh.step(0.01, c, c.train_step(batch).grads);
    EXPECT_NE(weights(c), weights(b));

    CheckpointRecord wrong = model_rec;
    wrong.tensors["fc1.weight"] = Tensor<2>::zeros({3, 3}).handle();
    EXPECT_THROW(module_from_record(b, wrong), Error);
    CheckpointRecord stray = opt_rec;
    stray.scalars["fc9.weight/step"] = 1;
    EXPECT_THROW(optimizer_from_record(opt_b, optimizer_paths(b), stray), Error);
    auto sgd = optim::SgdConfig().init();
    EXPECT_THROW(optimizer_from_record(sgd, optimizer_paths(b), opt_rec), Error);  // Adam state into SGD
}

TEST(TrainCheckpoint, ModelPartIsAPlainBurnpackModelFile) {
    auto dir = fresh_dir("model_part");
    Net a(Device().autodiff());
    default_record_store()->save(dir / "model-1.bpk", module_to_record(a));
    Net b{Device()};
    store::BurnpackStore in(dir / "model-1.bpk");
    auto result = b.load_from(in);
    EXPECT_EQ(result.applied.size(), 4u);
    EXPECT_EQ(weights(a), weights(b));
}

TEST(TrainCheckpoint, OnlyCompleteCheckpointsAreListed) {
    auto dir = fresh_dir("complete");
    Checkpointer ck(dir, nullptr);
    CheckpointRecord r;
    r.scalars["x"] = 1;
    config::Value state = config::Value::object();
    ck.save({"1", 1, 0}, {{"model", r}, {"optim", r}}, state);
    ck.save({"2", 2, 0}, {{"model", r}, {"optim", r}}, state);
    ASSERT_EQ(ck.list().size(), 2u);
    fs::remove(dir / "optim-2.bpk");  // a part missing: not a checkpoint
    ASSERT_EQ(ck.list().size(), 1u);
    std::ofstream(dir / "training-3.json") << "{\"tag\": \"3\", \"ep";  // a torn state file
    EXPECT_EQ(ck.latest()->tag, "1");
    ck.remove("1");
    EXPECT_TRUE(ck.list().empty());
    EXPECT_FALSE(fs::exists(dir / "model-1.bpk"));
}

// ------------------------------------------------------------------------------- kill -9 and resume

namespace {

SupervisedTraining<PointBatch, PointBatch> kill_training(const fs::path& dir,
                                                         std::shared_ptr<MetricsRenderer> r) {
    auto train = data::DataLoaderBuilder(PointBatcher())
                     .batch_size(32)
                     .shuffle(11)
                     .num_workers(2)
                     .build(points(256, 8));
    auto valid = data::DataLoaderBuilder(PointBatcher()).batch_size(64).build(points(128, 9));
    auto t = SupervisedTraining(dir, train, valid)
                 .metric_valid_numeric(LossMetric())
                 .num_epochs(4)
                 .with_default_checkpointers()
                 .renderer(RendererKind::none)
                 .seed(77);
    if (r) t.with_renderer(r);
    return t;
}

Net kill_net() {
    Device device = Device().autodiff();
    device.seed(31);
    return Net(device);
}

/// Kills its own process (SIGKILL: no cleanup, no handlers) at epoch 3, iteration 4.
struct KillAt final : MetricsRenderer {
    void update(const TrainingProgress& p, const std::vector<MetricState>&) override {
#ifdef BURN_TEST_FORK
        if (p.split == Split::train && p.epoch == 3 && p.iteration == 4) ::kill(::getpid(), SIGKILL);
#else
        (void)p;
#endif
    }
    void epoch_end(const EpochRecord&) override {}
    void message(const std::string&) override {}
};

}  // namespace

// Runs only as the child of KillNineThenResumeIsBitIdentical.
TEST(TrainCheckpointChild, TrainUntilKilled) {
    const char* dir = std::getenv("BURN_TRAIN_KILL_DIR");
    if (!dir) GTEST_SKIP() << "the child half of TrainCheckpoint.KillNineThenResumeIsBitIdentical";
    kill_training(dir, std::make_shared<KillAt>())
        .launch(Learner(kill_net(), optim::AdamConfig().init(), 0.01));
    FAIL() << "the child was not killed";
}

TEST(TrainCheckpoint, KillNineThenResumeIsBitIdentical) {
#ifndef BURN_TEST_FORK
    GTEST_SKIP() << "needs fork/exec";
#else
    auto full = kill_training(fresh_dir("kill_full"), nullptr)
                    .launch(Learner(kill_net(), optim::AdamConfig().init(), 0.01));
    auto dir = fresh_dir("kill");
    // A fresh process (the test binary itself), killed with SIGKILL in the middle of epoch 3.
    pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        ::setenv("BURN_TRAIN_KILL_DIR", dir.c_str(), 1);
        // The child runs one test: a shard setting of this run would make it run none and exit 0.
        ::unsetenv("GTEST_SHARD_INDEX");
        ::unsetenv("GTEST_TOTAL_SHARDS");
        ::unsetenv("GTEST_OUTPUT");
        if (std::FILE* null = std::fopen("/dev/null", "w")) ::dup2(::fileno(null), STDOUT_FILENO);
        const char* argv[] = {"burn_tests", "--gtest_filter=TrainCheckpointChild.TrainUntilKilled", nullptr};
        ::execv("/proc/self/exe", const_cast<char* const*>(argv));
        ::_exit(127);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFSIGNALED(status)) << "the child exited with " << WEXITSTATUS(status)
                                     << " instead of being killed";
    EXPECT_EQ(WTERMSIG(status), SIGKILL);
    auto latest = Checkpointer(dir / "checkpoint", nullptr).latest();
    ASSERT_TRUE(latest.has_value());
    EXPECT_EQ(latest->epoch, 2u);

    Device other = Device().autodiff();
    other.seed(4242);
    auto resumed =
        kill_training(dir, nullptr).resume().launch(Learner(Net(other), optim::AdamConfig().init(), 0.01));
    EXPECT_EQ(resumed.report.resumed_from, 2u);
    EXPECT_EQ(weights(resumed.model), weights(full.model));
#endif
}
