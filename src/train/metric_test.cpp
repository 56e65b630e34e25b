#include "burn/train/metric.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "burn/backend/backend.hpp"
#include "burn/train/metric_device.hpp"
#include "burn/train/renderer.hpp"

using namespace burn;
using namespace burn::train;

namespace {

MetricInput classification(std::vector<std::vector<float>> rows, std::vector<int64_t> targets) {
    MetricInput in;
    in.batch_size = rows.size();
    in.num_classes = rows.empty() ? 0 : rows[0].size();
    for (const auto& r : rows) in.scores.insert(in.scores.end(), r.begin(), r.end());
    in.targets = std::move(targets);
    return in;
}

const MetricMetadata kMeta{};

// Independent reference: confusion matrix by brute force, then per-class precision/recall/F-beta.
struct Reference {
    std::vector<std::vector<double>> confusion;  // [actual][predicted]
    explicit Reference(std::size_t k) : confusion(k, std::vector<double>(k, 0)) {}
    void add(const MetricInput& in) {
        for (std::size_t i = 0; i < in.batch_size; ++i) {
            std::size_t best = 0;
            for (std::size_t j = 0; j < in.num_classes; ++j)
                if (in.scores[i * in.num_classes + j] > in.scores[i * in.num_classes + best]) best = j;
            confusion[static_cast<std::size_t>(in.targets[i])][best] += 1;
        }
    }
    double precision(std::size_t c) const {
        double col = 0;
        for (const auto& row : confusion) col += row[c];
        return col > 0 ? confusion[c][c] / col : 0.0;
    }
    double recall(std::size_t c) const {
        double row = 0;
        for (double v : confusion[c]) row += v;
        return row > 0 ? confusion[c][c] / row : 0.0;
    }
    bool involved(std::size_t c) const {
        double s = 0;
        for (std::size_t k = 0; k < confusion.size(); ++k) s += confusion[c][k] + confusion[k][c];
        return s > 0;
    }
    double fbeta(std::size_t c, double beta) const {
        double p = precision(c), r = recall(c), b2 = beta * beta;
        return p + r > 0 ? (1 + b2) * p * r / (b2 * p + r) : 0.0;
    }
};

}  // namespace

TEST(TrainMetric, LossIsABatchWeightedMean) {
    LossMetric m;
    EXPECT_TRUE(std::isnan(m.value()));
    MetricInput a, b;
    a.loss = 1.0;
    a.batch_size = 2;
    b.loss = 4.0;
    b.batch_size = 1;
    m.update(a, kMeta);
    m.update(b, kMeta);
    EXPECT_DOUBLE_EQ(m.value(), 2.0);  // (1 * 2 + 4 * 1) / 3
    EXPECT_DOUBLE_EQ(m.last(), 4.0);
    m.clear();
    EXPECT_TRUE(std::isnan(m.value()));
    EXPECT_EQ(m.direction(), Direction::lowest);
    MetricInput none;
    EXPECT_THROW(m.update(none, kMeta), Error);
}

TEST(TrainMetric, AccuracyAndPadding) {
    AccuracyMetric acc;
    // predictions: 1, 0, 2, 2 ; targets 1, 1, 2, 0 -> 2 of 4
    auto in = classification({{0.1f, 0.7f, 0.2f}, {0.9f, 0.05f, 0.05f}, {0, 0, 1}, {0.2f, 0.3f, 0.5f}},
                             {1, 1, 2, 0});
    acc.update(in, kMeta);
    EXPECT_DOUBLE_EQ(acc.value(), 50.0);
    auto in2 = classification({{1, 0, 0}, {0, 0, 1}}, {0, 2});  // 2 of 2
    acc.update(in2, kMeta);
    EXPECT_DOUBLE_EQ(acc.last(), 100.0);
    EXPECT_NEAR(acc.value(), 100.0 * 4 / 6, 1e-12);
    AccuracyMetric padded;
    padded.with_pad_token(0);
    padded.update(in, kMeta);  // the row with target 0 is ignored: 2 of 3
    EXPECT_NEAR(padded.value(), 100.0 * 2 / 3, 1e-12);
    EXPECT_EQ(acc.direction(), Direction::highest);
    MetricInput bad = in;
    bad.targets.pop_back();
    try {
        acc.update(bad, kMeta);
        FAIL();
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("[AccuracyMetric]"), std::string::npos);
    }
}

TEST(TrainMetric, TopKAccuracy) {
    auto in = classification({{0.5f, 0.3f, 0.2f}, {0.5f, 0.3f, 0.2f}, {0.5f, 0.3f, 0.2f}, {0.1f, 0.1f, 0.8f}},
                             {0, 1, 2, 0});
    TopKAccuracyMetric top1(1), top2(2), top3(3);
    for (auto* m : {&top1, &top2, &top3}) m->update(in, kMeta);
    EXPECT_DOUBLE_EQ(top1.value(), 25.0);  // row 0 only
    EXPECT_DOUBLE_EQ(top2.value(), 75.0);  // rows 0, 1 and 3 (0.1 ties for second: the target counts)
    EXPECT_DOUBLE_EQ(top3.value(), 100.0);
    EXPECT_EQ(top2.name(), "Top-2 Accuracy");
    EXPECT_THROW(TopKAccuracyMetric(0), Error);
}

TEST(TrainMetric, PrecisionRecallFBetaAgainstAConfusionMatrix) {
    std::vector<MetricInput> batches = {
        classification({{3, 1, 0, 0}, {0, 2, 1, 0}, {0, 2, 1, 0}, {1, 0, 0, 5}, {0, 0, 4, 1}},
                       {0, 1, 2, 3, 2}),
        classification({{2, 1, 0, 0}, {0, 0, 0, 9}, {1, 5, 0, 0}}, {1, 3, 1}),
    };
    Reference ref(4);
    PrecisionMetric p_macro, p_micro(ClassReduction::micro);
    RecallMetric r_macro, r_micro(ClassReduction::micro);
    FBetaScoreMetric f1(1.0), f2(2.0), f2_micro(2.0, ClassReduction::micro);
    std::vector<Metric*> all = {&p_macro, &p_micro, &r_macro, &r_micro, &f1, &f2, &f2_micro};
    for (const auto& b : batches) {
        ref.add(b);
        for (auto* m : all) m->update(b, kMeta);
    }
    double p = 0, r = 0, f1v = 0, f2v = 0, n = 0;
    double tp = 0, total = 0;
    for (std::size_t c = 0; c < 4; ++c) {
        tp += ref.confusion[c][c];
        for (double v : ref.confusion[c]) total += v;
        if (!ref.involved(c)) continue;
        p += ref.precision(c), r += ref.recall(c), f1v += ref.fbeta(c, 1), f2v += ref.fbeta(c, 2), n += 1;
    }
    EXPECT_NEAR(p_macro.value(), 100 * p / n, 1e-9);
    EXPECT_NEAR(r_macro.value(), 100 * r / n, 1e-9);
    EXPECT_NEAR(f1.value(), 100 * f1v / n, 1e-9);
    EXPECT_NEAR(f2.value(), 100 * f2v / n, 1e-9);
    // single-label micro averages all equal the accuracy
    for (auto* m :
         {static_cast<Metric*>(&p_micro), static_cast<Metric*>(&r_micro), static_cast<Metric*>(&f2_micro)})
        EXPECT_NEAR(m->value(), 100 * tp / total, 1e-9) << m->name();
    EXPECT_EQ(f1.name(), "F1 Score");
    f1.clear();
    EXPECT_TRUE(std::isnan(f1.value()));
}

TEST(TrainMetric, BinaryPrecisionRecallWithOneLogit) {
    // logits > 0 are positive: predictions 1, 0, 1, 1 ; targets 1, 1, 0, 1 -> tp 2, fp 1, fn 1
    auto in = classification({{2.0f}, {-1.0f}, {0.5f}, {3.0f}}, {1, 1, 0, 1});
    PrecisionMetric p;
    RecallMetric r;
    FBetaScoreMetric f(0.5);
    for (Metric* m : std::initializer_list<Metric*>{&p, &r, &f}) m->update(in, kMeta);
    EXPECT_NEAR(p.value(), 100.0 * 2 / 3, 1e-9);
    EXPECT_NEAR(r.value(), 100.0 * 2 / 3, 1e-9);
    EXPECT_NEAR(f.value(), 100.0 * 2 / 3, 1e-9);
    PrecisionMetric strict(ClassReduction::macro, 1.0);  // threshold 1: predictions 1, 0, 0, 1 -> 2 / 2
    strict.update(in, kMeta);
    EXPECT_NEAR(strict.value(), 100.0, 1e-9);
}

TEST(TrainMetric, AurocBinaryTiesAndMulticlass) {
    EXPECT_DOUBLE_EQ(AurocMetric::binary_auroc({0.1, 0.4, 0.35, 0.8}, {false, false, true, true}), 0.75);
    EXPECT_DOUBLE_EQ(AurocMetric::binary_auroc({0.5, 0.5}, {false, true}), 0.5);
    EXPECT_TRUE(std::isnan(AurocMetric::binary_auroc({0.1, 0.2}, {true, true})));

    AurocMetric bin;
    bin.update(classification({{0.1f}, {0.4f}}, {0, 0}), kMeta);
    bin.update(classification({{0.35f}, {0.8f}}, {1, 1}), kMeta);
    EXPECT_DOUBLE_EQ(bin.value(), 75.0);  // over the epoch, not per batch
    EXPECT_TRUE(std::isnan(bin.last()));  // one class per batch

    // three classes: macro one-vs-rest on softmax probabilities, against an O(n^2) pair count
    std::vector<std::vector<float>> rows = {{2, 1, 0},          {0, 2, 1},    {1, 0, 3},
                                            {0.5f, 0.4f, 0.1f}, {0, 1, 1.5f}, {3, 0, 0}};
    std::vector<int64_t> t = {0, 1, 2, 1, 1, 2};
    AurocMetric multi;
    multi.update(classification(rows, t), kMeta);
    double sum = 0;
    for (int c = 0; c < 3; ++c) {
        std::vector<double> prob;
        for (const auto& r : rows) {
            double z = std::exp(r[0]) + std::exp(r[1]) + std::exp(r[2]);
            prob.push_back(std::exp(r[c]) / z);
        }
        double wins = 0, pairs = 0;
        for (std::size_t i = 0; i < rows.size(); ++i)
            for (std::size_t j = 0; j < rows.size(); ++j)
                if (t[i] == c && t[j] != c) {
                    pairs += 1;
                    wins += prob[i] > prob[j] ? 1 : prob[i] == prob[j] ? 0.5 : 0;
                }
        sum += wins / pairs;
    }
    EXPECT_NEAR(multi.value(), 100 * sum / 3, 1e-9);
    // two columns: the second is the positive class
    AurocMetric two;
    two.update(classification({{1, 0}, {0, 1}, {0.2f, 0.1f}, {0, 3}}, {0, 1, 1, 1}), kMeta);
    EXPECT_NEAR(two.value(), 100.0, 1e-9);
}

TEST(TrainMetric, LearningRateSpeedAndSystem) {
    LearningRateMetric lr;
    MetricMetadata meta;
    meta.lr = 0.125;
    lr.update(MetricInput{}, meta);
    EXPECT_DOUBLE_EQ(lr.value(), 0.125);
    IterationSpeedMetric speed;
    speed.clear();
    for (int i = 0; i < 5; ++i) speed.update(MetricInput{}, kMeta);
    EXPECT_GT(speed.value(), 0.0);
    CpuMemory mem;
    mem.update(MetricInput{}, kMeta);
#ifdef __linux__
    EXPECT_GT(mem.value(), 0.0);
    EXPECT_LT(mem.value(), 1e4);
#endif
    // DeviceMemory of the CPU: its caching allocator's live bytes, which a new tensor raises
    DeviceMemory dev_mem(Device::cpu().autodiff());
    EXPECT_EQ(dev_mem.name(), "Memory cpu");
    dev_mem.update(MetricInput{}, kMeta);
    const double before = dev_mem.value();
    {
        const auto big = Tensor<1>::zeros({std::size_t(1) << 22}, Device::cpu());  // 16 MB
        dev_mem.update(MetricInput{}, kMeta);
        EXPECT_GE(dev_mem.value() - before, 0.016) << before;
    }
    dev_mem.update(MetricInput{}, kMeta);
    EXPECT_NEAR(dev_mem.value(), before, 1e-9);
    DeviceUtilization util(Device::cpu());
    util.update(MetricInput{}, kMeta);
    EXPECT_TRUE(std::isnan(util.value())) << "the CPU backend reports no utilisation";
    if (!Device::available().empty())
        for (const Device& d : Device::available())
            if (d.backend_name() == "cuda") {
                DeviceMemory m(d);
                m.update(MetricInput{}, kMeta);
                EXPECT_GE(m.value(), 0.0) << d;
                const DeviceStats s = device_stats(d);
                ASSERT_TRUE(s.total_bytes.has_value()) << d;
                EXPECT_GT(*s.total_bytes, int64_t(1) << 30) << d;
            }
    CpuUse cpu;
    cpu.clear();
    volatile double x = 0;
    auto start = std::chrono::steady_clock::now();
    while (std::chrono::steady_clock::now() - start < std::chrono::milliseconds(80)) x = x + 1;
    cpu.update(MetricInput{}, kMeta);
#ifdef __linux__
    EXPECT_GT(cpu.value(), 10.0);  // a busy loop uses the CPU
#endif
    auto clone = lr.clone();
    EXPECT_EQ(clone->name(), "Learning Rate");
    EXPECT_DOUBLE_EQ(clone->value(), 0.125);
}

TEST(TrainMetric, BurnsMetricPathNamesTheSameClasses) {
    static_assert(std::is_same_v<train::metric::LossMetric, train::LossMetric>);
    train::metric::AccuracyMetric acc;
    EXPECT_EQ(acc.name(), "Accuracy");
}

TEST(TrainMetric, Formatting) {
    EXPECT_EQ(format_metric(97.254, "%"), "97.25 %");
    EXPECT_EQ(format_metric(0.12345, ""), "0.1235");
    EXPECT_EQ(format_metric(1.5e-5, ""), "1.500e-05");
    EXPECT_EQ(format_metric(NAN, ""), "nan");
    EXPECT_EQ(format_duration(62), "1:02");
    EXPECT_EQ(format_duration(3723), "1:02:03");
}
