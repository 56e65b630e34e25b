// Crash safety of the training loop: a training process killed with SIGKILL at 20 random points
// (during a step, during a checkpoint write, at an epoch boundary) leaves only whole files behind,
// and resuming from what it left gives weights bit-identical to a run never interrupted.
//
// Each trial runs the training in a child process (this test binary, re-executed with a filter that
// selects TrainCrashChild.RunUntilKilled), which kills itself with SIGKILL at the trial's point: right
// there, or from a thread after a random delay of up to a few milliseconds, so that the kill lands
// wherever the loop happens to be (inside a Burnpack write, a rename, the state file, a prune, a step).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <thread>

#include "training_test_util.hpp"

#if defined(__linux__)  // /proc/self/exe
#define BURN_CRASH_TEST 1
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
extern char** environ;
#endif

using namespace burn;
using namespace burn::train;
using namespace burn::train_test;
namespace fs = std::filesystem;

namespace {

/// Where a child kills itself. kind: "step" (after train step n of this process, the kill delayed by
/// delay_us so that it lands in a later step), "write" (the n-th record file this process saves:
/// before it, during it (delayed) or just after it), "epoch" (at the end of epoch n, before its
/// checkpoint, delayed).
struct KillPlan {
    std::string kind;
    int n = 0;
    std::string when;  // write: "before", "during", "after"
    int delay_us = 0;

    std::string str() const {
        return kind + " " + std::to_string(n) + " " + when + " " + std::to_string(delay_us);
    }
    static KillPlan parse(const std::string& s) {
        KillPlan p;
        std::istringstream in(s);
        in >> p.kind >> p.n >> p.when >> p.delay_us;
        return p;
    }
};

[[noreturn]] void die_now() {
#ifdef BURN_CRASH_TEST
    ::kill(::getpid(), SIGKILL);
#endif
    std::abort();
}

void die_after(int delay_us) {
    if (delay_us <= 0) die_now();
    std::thread([delay_us] {
        std::this_thread::sleep_for(std::chrono::microseconds(delay_us));
        die_now();
    }).detach();
}

struct KillingRenderer final : MetricsRenderer {
    KillPlan plan;
    int steps = 0;
    explicit KillingRenderer(KillPlan p) : plan(std::move(p)) {}
    void update(const TrainingProgress& p, const std::vector<MetricState>&) override {
        if (p.split == Split::train && plan.kind == "step" && ++steps == plan.n) die_after(plan.delay_us);
    }
    void epoch_end(const EpochRecord& r) override {
        if (plan.kind == "epoch" && static_cast<int>(r.epoch) == plan.n) die_after(plan.delay_us);
    }
    void message(const std::string&) override {}
};

struct KillingStore final : RecordStore {
    KillPlan plan;
    std::shared_ptr<RecordStore> inner = default_record_store();
    int saves = 0;
    explicit KillingStore(KillPlan p) : plan(std::move(p)) {}
    std::string extension() const override { return inner->extension(); }
    void save(const fs::path& path, const CheckpointRecord& record) override {
        const bool hit = plan.kind == "write" && ++saves == plan.n;
        if (hit && plan.when == "before") die_now();
        if (hit && plan.when == "during") die_after(plan.delay_us);
        inner->save(path, record);
        if (hit && plan.when == "after") die_now();
    }
    CheckpointRecord load(const fs::path& path, const Device& device) override {
        return inner->load(path, device);
    }
};

constexpr std::size_t kEpochs = 4;  // 8 steps an epoch; 3 record files a checkpoint

SupervisedTraining<PointBatch, PointBatch> crash_training(const fs::path& dir, const KillPlan* plan) {
    auto train = data::DataLoaderBuilder(PointBatcher())
                     .batch_size(32)
                     .shuffle(21)
                     .num_workers(2)
                     .build(points(256, 22));
    auto valid = data::DataLoaderBuilder(PointBatcher()).batch_size(64).build(points(128, 23));
    auto t = SupervisedTraining(dir, train, valid)
                 .metric_train_numeric(LossMetric())
                 .metric_valid_numeric(LossMetric())
                 .num_epochs(kEpochs)
                 .checkpoint_keep_last(1)  // prunes after every checkpoint: kills land in deletions too
                 .renderer(RendererKind::none)
                 .handle_ctrl_c(false)
                 .seed(99);
    if (plan) t.with_renderer(std::make_shared<KillingRenderer>(*plan));
    if (plan) t.with_record_store(std::make_shared<KillingStore>(*plan));
    return t;
}

Learner<Net> crash_learner() {
    Device device = Device().autodiff();
    Generator init(61);
    GeneratorScope scope(init);
    return Learner(Net(device), optim::AdamConfig().init(), 0.01);
}

/// Every file a checkpoint folder holds (temporaries aside) is whole: each state file parses, each
/// record loads, and list() accepts the folder. Returns how many temporaries the kill left.
[[maybe_unused]] int expect_whole_files(const fs::path& dir, const std::string& trial) {  // unused in wasm
    int temporaries = 0;
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) return 0;
    for (const auto& e : fs::directory_iterator(dir)) {
        const std::string name = e.path().filename().string();
        if (name.front() == '.') {  // an atomic write's temporary, never read
            ++temporaries;
            continue;
        }
        if (e.path().extension() == ".json") {
            EXPECT_NO_THROW(Checkpointer(dir, nullptr).load_state(name.substr(9, name.size() - 14)))
                << trial << ": " << name;
        } else {
            EXPECT_NO_THROW(default_record_store()->load(e.path(), Device())) << trial << ": " << name;
        }
    }
    EXPECT_NO_THROW(Checkpointer(dir, nullptr).list()) << trial;
    return temporaries;
}

}  // namespace

// Runs only as the child of TrainCrash.SigkillAtTwentyRandomPointsThenResumeIsBitIdentical.
TEST(TrainCrashChild, RunUntilKilled) {
    const char* dir = std::getenv("BURN_CRASH_DIR");
    const char* plan = std::getenv("BURN_CRASH_PLAN");
    if (!dir || !plan)
        GTEST_SKIP() << "the child half of TrainCrash.SigkillAtTwentyRandomPointsThenResume...";
    const KillPlan p = KillPlan::parse(plan);
    crash_training(dir, &p).resume().launch(crash_learner());
    // Reached when the point lies past the end of the run: the parent sees exit status 0.
}

TEST(TrainCrash, SigkillAtTwentyRandomPointsThenResumeIsBitIdentical) {
#ifndef BURN_CRASH_TEST
    GTEST_SKIP() << "needs fork/exec and /proc/self/exe";
#else
    const auto full = crash_training(fresh_dir("crash_full"), nullptr).launch(crash_learner());
    ASSERT_EQ(full.report.epochs_completed, kEpochs);
    const auto expected = weights(full.model);

    std::mt19937 rng(20240613);  // fixed: a failing trial is reproducible from its printed plan
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    int identical = 0, killed = 0, temporaries = 0;
    for (int trial = 0; trial < 20; ++trial) {
        const auto dir = fresh_dir("crash_" + std::to_string(trial));
        // Two kills a trial: the second child resumes from what the first left, and is killed too.
        std::vector<KillPlan> plans;
        for (int k = 0; k < 2; ++k) {
            KillPlan p;
            switch ((trial + k) % 3) {
                case 0:
                    p = {"step", pick(1, 14), "-", pick(0, 3000)};
                    break;
                case 1: {
                    static const char* whens[] = {"before", "during", "after"};
                    p = {"write", pick(1, 6), whens[pick(0, 2)], pick(0, 1500)};
                    break;
                }
                default:
                    p = {"epoch", pick(1, 3), "-", pick(0, 4000)};
                    break;
            }
            plans.push_back(p);
        }
        std::string where;
        for (const auto& p : plans) {
            where += (where.empty() ? "" : ", then ") + p.str();
            const std::string env_dir = "BURN_CRASH_DIR=" + dir.string();
            const std::string env_plan = "BURN_CRASH_PLAN=" + p.str();
            std::vector<char*> envp;
            // The child runs one test: a shard or output setting of this run (GTEST_SHARD_INDEX, ...) would
            // make it run none and exit 0.
            for (char** e = environ; *e; ++e)
                if (std::strncmp(*e, "GTEST_", 6) != 0) envp.push_back(*e);
            envp.push_back(const_cast<char*>(env_dir.c_str()));
            envp.push_back(const_cast<char*>(env_plan.c_str()));
            envp.push_back(nullptr);
            const char* argv[] = {"burn_tests", "--gtest_filter=TrainCrashChild.RunUntilKilled", nullptr};
            pid_t pid = ::fork();
            ASSERT_GE(pid, 0);
            if (pid == 0) {  // only async-signal-safe calls until execve
                int null = ::open("/dev/null", O_WRONLY);
                if (null >= 0) ::dup2(null, STDOUT_FILENO);
                ::execve("/proc/self/exe", const_cast<char* const*>(argv), envp.data());
                ::_exit(127);
            }
            int status = 0;
            ASSERT_EQ(::waitpid(pid, &status, 0), pid);
            if (WIFSIGNALED(status)) {
                EXPECT_EQ(WTERMSIG(status), SIGKILL) << where;
                ++killed;
            } else {
                ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
                    << where << ": the child failed (status " << status << ")";
            }
            temporaries += expect_whole_files(dir / "checkpoint", where);
        }
        auto resumed = crash_training(dir, nullptr).resume().launch(crash_learner());
        EXPECT_EQ(resumed.report.epochs_completed, kEpochs) << where;
        const bool same = weights(resumed.model) == expected;
        EXPECT_TRUE(same) << "trial " << trial << " (" << where << "): the resumed weights differ";
        identical += same ? 1 : 0;
    }
    std::printf(
        "[crash] 20 trials: %d of 40 children killed, %d temporaries left behind, %d of 20 resumed "
        "runs bit-identical\n",
        killed, temporaries, identical);
    EXPECT_EQ(identical, 20);
    EXPECT_GE(killed, 20) << "too few children were killed: the kill points lie past the end of the runs";
#endif
}
