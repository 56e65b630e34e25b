// Hostile training-state files (checkpoint/training-TAG.json): part names reaching outside the
// checkpoint folder, epochs and iterations out of range, fields of the wrong kind. Each is refused
// with a burn::IoError naming the file, the field and the value; nothing is deleted or loaded.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <functional>
#include <string>

#include "training_test_util.hpp"

using namespace burn;
using namespace burn::train;
using namespace burn::train_test;
namespace fs = std::filesystem;

namespace {

SupervisedTraining<PointBatch, PointBatch> small_training(const fs::path& dir, std::size_t epochs) {
    auto train = data::DataLoaderBuilder(PointBatcher()).batch_size(32).shuffle(3).build(points(256, 4));
    auto valid = data::DataLoaderBuilder(PointBatcher()).batch_size(64).build(points(64, 5));
    return SupervisedTraining(dir, train, valid)
        .metric_train_numeric(LossMetric())
        .metric_valid_numeric(LossMetric())
        .num_epochs(epochs)
        .with_default_checkpointers()
        .renderer(RendererKind::none)
        .seed(9);
}

Learner<Net> learner() {
    Device device = Device().autodiff();
    device.seed(17);
    return Learner(Net(device), optim::AdamConfig().init(), 0.01);
}

void write(const fs::path& p, const std::string& text) {
    std::ofstream(p, std::ios::binary | std::ios::trunc) << text;
}

config::Value read_json(const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    return config::parse(std::string(std::istreambuf_iterator<char>(f), {}));
}

/// Runs f, which must throw burn::IoError whose message holds every one of parts.
void expect_refused(const std::function<void()>& f, const std::vector<std::string>& parts) {
    try {
        f();
        ADD_FAILURE() << "accepted; expected an error naming " << parts.front();
    } catch (const IoError& e) {
        for (const auto& p : parts)
            EXPECT_NE(std::string(e.what()).find(p), std::string::npos)
                << "'" << p << "' not in: " << e.what();
    } catch (const std::exception& e) {
        ADD_FAILURE() << "threw something other than burn::IoError: " << e.what();
    }
}

}  // namespace

TEST(TrainCheckpointState, PlantedPartsOutsideTheFolderAreNeverDeleted) {
    auto root = fresh_dir("state_escape");
    fs::create_directories(root / "outside");
    write(root / "outside" / "precious-1.bpk", "precious");
    auto abs = fresh_dir("state_escape_abs") / "victim";
    write(abs.string() + "-1.bpk", "victim");
    auto run = root / "run";
    fs::create_directories(run / "checkpoint");
    config::Value s = config::Value::object();
    s["tag"] = "1";
    s["epoch"] = 1;
    s["iteration"] = 0;
    s["parts"].push_back("../../outside/precious");
    s["parts"].push_back(abs.string());
    const auto state = run / "checkpoint" / "training-1.json";
    write(state, config::dump(s));

    // A fresh run would discard the "earlier run's" checkpoint: it refuses instead, deleting nothing.
    expect_refused([&] { small_training(run, 1).launch(learner()); },
                   {"training-1.json", "parts[0]", "../../outside/precious"});
    EXPECT_TRUE(fs::exists(root / "outside" / "precious-1.bpk"));
    EXPECT_TRUE(fs::exists(abs.string() + "-1.bpk"));
    EXPECT_TRUE(fs::exists(state));

    Checkpointer ck(run / "checkpoint", nullptr);
    expect_refused([&] { ck.remove("1"); }, {"training-1.json", "parts[0]"});
    expect_refused([&] { ck.list(); }, {"training-1.json", "parts[0]"});
    expect_refused([&] { small_training(run, 1).resume().launch(learner()); }, {"training-1.json"});
    EXPECT_TRUE(fs::exists(root / "outside" / "precious-1.bpk"));
    EXPECT_TRUE(fs::exists(abs.string() + "-1.bpk"));

    // Every other name that is not one plain file name, one at a time.
    const std::vector<config::Value> bad = {config::Value(abs.string()), config::Value(".."),
                                            config::Value("a/b"),        config::Value(""),
                                            config::Value(".hidden"),    config::Value("training"),
                                            config::Value("x..y"),       config::Value(7),
                                            config::Value("a\\b"),       config::Value(std::string(65, 'a'))};
    for (const auto& name : bad) {
        config::Value t = s;
        t["parts"] = config::Value::array();
        t["parts"].push_back(name);
        write(state, config::dump(t));
        expect_refused([&] { ck.remove("1"); }, {"training-1.json", "parts[0]", config::dump(name, -1)});
    }
    config::Value twice = s;
    twice["parts"] = config::Value::array();
    twice["parts"].push_back("model");
    twice["parts"].push_back("model");
    write(state, config::dump(twice));
    expect_refused([&] { ck.list(); }, {"parts[1]", "listed twice"});
    EXPECT_TRUE(fs::exists(root / "outside" / "precious-1.bpk"));
    EXPECT_TRUE(fs::exists(abs.string() + "-1.bpk"));

    // Names the program passes are checked too.
    EXPECT_THROW(ck.load_state("../x"), Error);
    EXPECT_THROW(ck.load_part("1", "../../outside/precious", Device()), Error);
    EXPECT_THROW(ck.save({"../1", 1, 0}, {{"model", CheckpointRecord{}}}, config::Value::object()), Error);
    EXPECT_THROW(ck.save({"2", 2, 0}, {{"/tmp/x", CheckpointRecord{}}}, config::Value::object()), Error);
}

TEST(TrainCheckpointState, TamperedFieldsAreRefusedNamingFileFieldAndValue) {
    auto dir = fresh_dir("state_tamper");
    small_training(dir, 2).launch(learner());
    const auto state = dir / "checkpoint" / "training-2.json";
    const config::Value good = read_json(state);
    ASSERT_EQ(good.at("epoch").as_uint64(), 2u);

    struct Case {
        std::function<void(config::Value&)> edit;
        std::string field, value;
    };
    const std::vector<Case> cases = {
        {[](config::Value& s) { s["epoch"] = UINT64_MAX; }, "epoch", "18446744073709551615"},
        {[](config::Value& s) { s["epoch"] = -1; }, "epoch", "-1"},
        {[](config::Value& s) { s["epoch"] = 2.5; }, "epoch", "2.5"},
        {[](config::Value& s) { s["epoch"] = 3; }, "epoch", "3"},  // the tag says 2
        {[](config::Value& s) { s["iteration"] = 4; }, "iteration", "4"},
        {[](config::Value& s) { s["iteration"] = "0"; }, "iteration", "\"0\""},
        {[](config::Value& s) { s["tag"] = "3"; }, "tag", "\"3\""},
        {[](config::Value& s) { s["format"] = 2; }, "format", "2"},
        {[](config::Value& s) { s["seed"] = "nine"; }, "seed", "\"nine\""},
        {[](config::Value& s) { s["num_epochs"] = 0; }, "num_epochs", "0"},
        {[](config::Value& s) { s["num_epochs"] = 1; }, "epoch", "2"},  // past the run's own num_epochs
        {[](config::Value& s) { s["train"] = 5; }, "train", "5"},
        {[](config::Value& s) { s["train"]["Loss"].push_back(1.0); }, "train.Loss", "["},
        {[](config::Value& s) { s["valid"]["Loss"][0] = "low"; }, "valid.Loss[0]", "\"low\""},
        {[](config::Value& s) { s["parts"] = "model"; }, "parts", "\"model\""},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.field + " = " + c.value);
        config::Value s = good;
        c.edit(s);
        write(state, config::dump(s));
        expect_refused([&] { small_training(dir, 3).resume().launch(learner()); },
                       {"training-2.json", "\"" + c.field + "\"", c.value});
    }
    config::Value s = good;
    s.as_object().erase(s.as_object().begin());  // the first field ("format")
    write(state, config::dump(s));
    expect_refused([&] { small_training(dir, 3).resume().launch(learner()); },
                   {"training-2.json", "missing"});

    write(state, config::dump(good));  // untouched, it resumes
    auto resumed = small_training(dir, 3).resume().launch(learner());
    EXPECT_EQ(resumed.report.resumed_from, 2u);
    EXPECT_EQ(resumed.report.epochs_completed, 3u);
}

TEST(TrainCheckpointState, IterationPastTheEpochsEndIsRefused) {
    auto dir = fresh_dir("state_iteration");
    Interrupter interrupter;
    struct StopAt final : MetricsRenderer {
        Interrupter i;
        explicit StopAt(Interrupter x) : i(std::move(x)) {}
        void update(const TrainingProgress& p, const std::vector<MetricState>&) override {
            if (p.split == Split::train && p.epoch == 2 && p.iteration == 3) i.stop();
        }
        void epoch_end(const EpochRecord&) override {}
        void message(const std::string&) override {}
    };
    auto stopped = small_training(dir, 3)
                       .with_renderer(std::make_shared<StopAt>(interrupter))
                       .with_interrupter(interrupter)
                       .launch(learner());
    ASSERT_TRUE(stopped.report.interrupted);
    const auto state = dir / "checkpoint" / "training-interrupted.json";
    const config::Value good = read_json(state);
    ASSERT_EQ(good.at("iteration").as_uint64(), 3u);
    for (uint64_t iteration : {9ull, 999ull, 4294967296ull}) {  // 8 batches an epoch
        config::Value s = good;
        s["iteration"] = iteration;
        write(state, config::dump(s));
        expect_refused([&] { small_training(dir, 3).resume().launch(learner()); },
                       {"training-interrupted.json", "\"iteration\"", std::to_string(iteration)});
    }
    config::Value s = good;
    s["iteration"] = 8;  // the epoch's end exactly: accepted (a stop at its last step writes that)
    write(state, config::dump(s));
    auto resumed = small_training(dir, 3).resume().launch(learner());
    EXPECT_EQ(resumed.report.epochs_completed, 3u);
    EXPECT_EQ(resumed.report.resumed_from, 1u);
}
