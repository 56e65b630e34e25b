// The loop's logs beside the display: per-iteration CSV files, TensorBoard scalars (read back through an
// independent TFRecord/protobuf walk, checksums included), the experiment.log file and the callbacks.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <map>
#include <sstream>

#include "burn/train/tensorboard.hpp"
#include "platform/files.hpp"
#include "training_test_util.hpp"

namespace training_logs_test {

using namespace burn;
using namespace burn::train;
using namespace burn::train_test;
namespace fs = std::filesystem;

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) out.push_back(l);
    return out;
}

uint64_t le(const std::string& s, std::size_t at, int bytes) {
    uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; --i)
        v = v << 8 | static_cast<unsigned char>(s[at + static_cast<std::size_t>(i)]);
    return v;
}

uint64_t varint(const std::string& s, std::size_t& at) {
    uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
        const auto b = static_cast<unsigned char>(s.at(at++));
        v |= static_cast<uint64_t>(b & 0x7f) << shift;
        if (!(b & 0x80)) return v;
    }
}

struct Scalar {
    int64_t step = 0;
    std::string tag;
    float value = 0;
};

/// The scalars of an event file: TFRecord frames (both checksums verified) around Event messages, walked
/// field by field.
std::vector<Scalar> read_scalars(const std::string& file) {
    auto unmask = [](uint32_t m) {
        const uint32_t r = m - 0xa282ead8u;
        return (r >> 17) | (r << 15);
    };
    std::vector<Scalar> out;
    std::size_t at = 0;
    while (at < file.size()) {
        const uint64_t n = le(file, at, 8);
        EXPECT_EQ(unmask(static_cast<uint32_t>(le(file, at + 8, 4))), crc32c(file.substr(at, 8)));
        const std::string e = file.substr(at + 12, n);
        EXPECT_EQ(unmask(static_cast<uint32_t>(le(file, at + 12 + n, 4))), crc32c(e));
        at += 16 + n;
        Scalar s;
        bool scalar = false;
        for (std::size_t p = 0; p < e.size();) {
            const uint64_t key = varint(e, p);
            if (key == (1 << 3 | 1)) {
                p += 8;  // wall_time
            } else if (key == (2 << 3 | 0)) {
                s.step = static_cast<int64_t>(varint(e, p));
            } else if (key == (3 << 3 | 2)) {
                p += varint(e, p);  // file_version
            } else if (key == (5 << 3 | 2)) {
                const std::size_t end = varint(e, p) + p;
                EXPECT_EQ(varint(e, p), 1u << 3 | 2);  // Summary.value
                varint(e, p);
                EXPECT_EQ(varint(e, p), 1u << 3 | 2);  // Value.tag
                const std::size_t tag_len = varint(e, p);
                s.tag = e.substr(p, tag_len);
                p += tag_len;
                EXPECT_EQ(varint(e, p), 2u << 3 | 5);  // Value.simple_value
                const auto bits = static_cast<uint32_t>(le(e, p, 4));
                std::memcpy(&s.value, &bits, 4);
                p = end;
                scalar = true;
            } else {
                ADD_FAILURE() << "unexpected field key " << key;
                break;
            }
        }
        if (scalar) out.push_back(s);
    }
    return out;
}

TEST(TrainLogs, IterationCsvTensorBoardLogFileAndCallbacks) {
    const auto dir = fresh_dir("logs");
    auto [train, valid] = loaders();
    std::map<std::string, std::vector<double>> seen;  // "<split> <epoch> <iteration>" -> Loss (batch)
    std::vector<EpochRecord> epochs;
    std::size_t train_calls = 0, valid_calls = 0;
    auto result = SupervisedTraining(dir, train, valid)
                      .metric_train_numeric(LossMetric())
                      .metric_train_numeric(AccuracyMetric())
                      .metric_valid_numeric(LossMetric())
                      .num_epochs(2)
                      .renderer(RendererKind::none)
                      .log_iterations(5)
                      .tensorboard(5)
                      .on_iteration([&](const TrainingProgress& p, const std::vector<MetricState>& m) {
                          (p.split == Split::train ? train_calls : valid_calls)++;
                          EXPECT_EQ(p.num_iterations, p.split == Split::train ? 16u : 4u);
                          if (p.split == Split::train) {
                              EXPECT_DOUBLE_EQ(p.lr, 0.02);
                          }
                          seen[std::string(split_name(p.split)) + " " + std::to_string(p.epoch) + " " +
                               std::to_string(p.iteration)] = {m.at(0).last};
                      })
                      .on_epoch_end([&](const EpochRecord& r) { epochs.push_back(r); })
                      .launch(Learner(fresh_net(), optim::AdamConfig().init(), 0.02));
    EXPECT_EQ(train_calls, 32u);
    EXPECT_EQ(valid_calls, 8u);
    ASSERT_EQ(epochs.size(), 2u);
    EXPECT_EQ(epochs[1].epoch, 2u);
    EXPECT_DOUBLE_EQ(epochs[1].train.at(0).value, result.report.train.at(0).values.at(1));
    EXPECT_DOUBLE_EQ(epochs[0].valid.at(0).value, result.report.valid.at(0).values.at(0));

    // metrics/train/epoch-2.csv: iterations 5, 10, 15 and the last, 16; the values the callback saw
    const auto csv = lines(platform::read_file(dir / "metrics" / "train" / "epoch-2.csv"));
    ASSERT_EQ(csv.size(), 5u);
    EXPECT_EQ(csv[0], "iteration,lr,Loss,Accuracy");
    const std::size_t want_it[] = {5, 10, 15, 16};
    for (std::size_t i = 0; i < 4; ++i) {
        std::istringstream row(csv[i + 1]);
        std::string it, lr, loss;
        std::getline(row, it, ',');
        std::getline(row, lr, ',');
        std::getline(row, loss, ',');
        EXPECT_EQ(std::stoul(it), want_it[i]);
        EXPECT_DOUBLE_EQ(std::stod(lr), 0.02);
        EXPECT_NEAR(std::stod(loss), seen.at("train 2 " + it).at(0),
                    1e-6 * std::fabs(std::stod(loss)) + 1e-12);
    }
    EXPECT_EQ(lines(platform::read_file(dir / "metrics" / "valid" / "epoch-1.csv")).size(),
              2u);                                                    // header, iteration 4
    EXPECT_TRUE(fs::exists(dir / "metrics" / "train" / "loss.csv"));  // the per-epoch files stay

    // tensorboard/: the same values as float32, steps counted over the run
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(dir / "tensorboard")) files.push_back(e.path());
    ASSERT_EQ(files.size(), 1u);
    EXPECT_NE(files[0].filename().string().find("events.out.tfevents."), std::string::npos);
    const auto scalars = read_scalars(platform::read_file(files[0]));
    std::map<std::string, std::vector<Scalar>> by_tag;
    for (const auto& s : scalars) by_tag[s.tag].push_back(s);
    ASSERT_EQ(by_tag["train/Loss"].size(), 8u);
    EXPECT_EQ(by_tag["train/Loss"][4].step, 16 + 5);  // epoch 2, iteration 5
    EXPECT_EQ(by_tag["train/Loss"][4].value, static_cast<float>(seen.at("train 2 5").at(0)));
    EXPECT_EQ(by_tag["train/LearningRate"].size(), 8u);
    EXPECT_EQ(by_tag["valid/Loss"].size(), 2u);
    ASSERT_EQ(by_tag["epoch/train/Loss"].size(), 2u);
    EXPECT_EQ(by_tag["epoch/train/Loss"][1].step, 2);
    EXPECT_EQ(by_tag["epoch/train/Loss"][1].value, static_cast<float>(result.report.train[0].values[1]));
    EXPECT_EQ(by_tag["epoch/valid/Loss"].size(), 2u);

    // experiment.log: the plain renderer's epoch lines
    const auto log = platform::read_file(dir / "experiment.log");
    EXPECT_NE(log.find("epoch 1/2"), std::string::npos) << log;
    EXPECT_NE(log.find("epoch 2/2"), std::string::npos) << log;
}

TEST(TrainLogs, OffByDefaultButTheLogFile) {
    const auto dir = fresh_dir("logs_off");
    auto [train, valid] = loaders();
    SupervisedTraining(dir, train, valid)
        .metric_train_numeric(LossMetric())
        .num_epochs(1)
        .renderer(RendererKind::none)
        .launch(Learner(fresh_net(), optim::AdamConfig().init(), 0.02));
    EXPECT_TRUE(fs::exists(dir / "experiment.log"));
    EXPECT_FALSE(fs::exists(dir / "tensorboard"));
    EXPECT_FALSE(fs::exists(dir / "metrics" / "train" / "epoch-1.csv"));
    const auto dir2 = fresh_dir("logs_nofile");
    SupervisedTraining(dir2, train, valid)
        .num_epochs(1)
        .renderer(RendererKind::none)
        .log_file(false)
        .launch(Learner(fresh_net(), optim::AdamConfig().init(), 0.02));
    EXPECT_FALSE(fs::exists(dir2 / "experiment.log"));
    EXPECT_THROW(SupervisedTraining(dir2, train, valid).log_iterations(0), Error);
    EXPECT_THROW(SupervisedTraining(dir2, train, valid).tensorboard(0), Error);
}

}  // namespace training_logs_test
