#include <algorithm>
#include <cmath>
#include <numeric>

#include "burn/core/error.hpp"
#include "burn/train/metric.hpp"
#include "burn/train/renderer.hpp"
#include "platform/process.hpp"
#include "platform/thermal.hpp"

namespace burn::train {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

void check_classification(const MetricInput& in, const char* metric) {
    BURN_CHECK_KIND(in.num_classes > 0 && in.scores.size() == in.batch_size * in.num_classes &&
                        in.targets.size() == in.batch_size,
                    shape, "[", metric,
                    "] needs classification scores [batch, classes] and targets [batch]: got ",
                    in.scores.size(), " scores, ", in.num_classes, " classes, ", in.targets.size(),
                    " targets for a batch of ", in.batch_size,
                    " (does the output type fill scores and targets in metric_input()?)");
}

std::size_t argmax_row(const float* row, std::size_t n) {
    std::size_t best = 0;
    for (std::size_t j = 1; j < n; ++j)
        if (row[j] > row[best]) best = j;
    return best;
}

}  // namespace

const char* split_name(Split split) {
    return split == Split::train ? "train" : "valid";
}

void LossMetric::update(const MetricInput& in, const MetricMetadata&) {
    BURN_CHECK(in.loss.has_value(), "[LossMetric] the output has no loss");
    mean_.add(*in.loss, static_cast<double>(std::max<std::size_t>(in.batch_size, 1)));
}

void AccuracyMetric::update(const MetricInput& in, const MetricMetadata&) {
    check_classification(in, "AccuracyMetric");
    double correct = 0, counted = 0;
    for (std::size_t i = 0; i < in.batch_size; ++i) {
        if (has_pad_ && in.targets[i] == pad_token_) continue;
        const float* row = in.scores.data() + i * in.num_classes;
        std::size_t pred = in.num_classes == 1 ? (row[0] > 0.0f ? 1 : 0) : argmax_row(row, in.num_classes);
        correct += static_cast<int64_t>(pred) == in.targets[i] ? 1 : 0;
        counted += 1;
    }
    mean_.add(counted > 0 ? 100.0 * correct / counted : kNaN, counted);
}

TopKAccuracyMetric::TopKAccuracyMetric(std::size_t k) : k_(k) {
    BURN_CHECK(k >= 1, "[TopKAccuracyMetric] k must be at least 1");
}

void TopKAccuracyMetric::update(const MetricInput& in, const MetricMetadata&) {
    check_classification(in, "TopKAccuracyMetric");
    double correct = 0, counted = 0;
    for (std::size_t i = 0; i < in.batch_size; ++i) {
        if (has_pad_ && in.targets[i] == pad_token_) continue;
        counted += 1;
        const int64_t t = in.targets[i];
        if (t < 0 || static_cast<std::size_t>(t) >= in.num_classes) continue;
        const float* row = in.scores.data() + i * in.num_classes;
        // The target is in the top k when fewer than k classes score strictly higher (ties favour it,
        // like a stable sort that keeps the target first among equals).
        std::size_t higher = 0;
        for (std::size_t j = 0; j < in.num_classes; ++j) higher += row[j] > row[t] ? 1 : 0;
        correct += higher < k_ ? 1 : 0;
    }
    mean_.add(counted > 0 ? 100.0 * correct / counted : kNaN, counted);
}

// ---------------------------------------------------------------------------------------- confusion

void ConfusionMetric::update(const MetricInput& in, const MetricMetadata&) {
    check_classification(in, name().c_str());
    const bool binary = in.num_classes == 1;
    const std::size_t classes = binary ? 1 : in.num_classes;
    if (tp_.size() < classes) {
        tp_.resize(classes, 0);
        fp_.resize(classes, 0);
        fn_.resize(classes, 0);
    }
    std::vector<double> tp(classes, 0), fp(classes, 0), fn(classes, 0);
    for (std::size_t i = 0; i < in.batch_size; ++i) {
        const float* row = in.scores.data() + i * in.num_classes;
        const int64_t t = in.targets[i];
        if (binary) {
            const bool pred = row[0] > threshold_, actual = t != 0;
            if (pred && actual)
                tp[0] += 1;
            else if (pred)
                fp[0] += 1;
            else if (actual)
                fn[0] += 1;
            continue;
        }
        const std::size_t p = argmax_row(row, in.num_classes);
        if (t >= 0 && static_cast<std::size_t>(t) == p) {
            tp[p] += 1;
        } else {
            fp[p] += 1;
            if (t >= 0 && static_cast<std::size_t>(t) < classes) fn[static_cast<std::size_t>(t)] += 1;
        }
    }
    for (std::size_t c = 0; c < classes; ++c) tp_[c] += tp[c], fp_[c] += fp[c], fn_[c] += fn[c];
    last_ = score(tp, fp, fn);
}

void ConfusionMetric::clear() {
    tp_.clear();
    fp_.clear();
    fn_.clear();
    last_ = kNaN;
}

double ConfusionMetric::score(const std::vector<double>& tp, const std::vector<double>& fp,
                              const std::vector<double>& fn) const {
    if (tp.empty()) return kNaN;
    if (reduction_ == ClassReduction::micro) {
        double a = std::accumulate(tp.begin(), tp.end(), 0.0), b = std::accumulate(fp.begin(), fp.end(), 0.0),
               c = std::accumulate(fn.begin(), fn.end(), 0.0);
        return a + b + c > 0 ? 100.0 * per_class(a, b, c) : kNaN;
    }
    double sum = 0;
    std::size_t n = 0;
    for (std::size_t k = 0; k < tp.size(); ++k) {
        if (tp[k] + fp[k] + fn[k] == 0) continue;  // a class neither present nor predicted
        sum += per_class(tp[k], fp[k], fn[k]);
        ++n;
    }
    return n > 0 ? 100.0 * sum / static_cast<double>(n) : kNaN;
}

double PrecisionMetric::per_class(double tp, double fp, double) const {
    return tp + fp > 0 ? tp / (tp + fp) : 0.0;
}
double RecallMetric::per_class(double tp, double, double fn) const {
    return tp + fn > 0 ? tp / (tp + fn) : 0.0;
}

FBetaScoreMetric::FBetaScoreMetric(double beta, ClassReduction reduction, double threshold)
    : ConfusionMetric(reduction, threshold), beta_(beta) {
    BURN_CHECK(beta > 0, "[FBetaScoreMetric] beta must be positive, got ", beta);
}

std::string FBetaScoreMetric::name() const {
    std::ostringstream os;
    os << "F" << beta_ << " Score";
    return os.str();
}

double FBetaScoreMetric::per_class(double tp, double fp, double fn) const {
    const double b2 = beta_ * beta_;
    const double denom = (1 + b2) * tp + b2 * fn + fp;  // same as the precision/recall form, without 0/0
    return denom > 0 ? (1 + b2) * tp / denom : 0.0;
}

// ---------------------------------------------------------------------------------------- AUROC

double AurocMetric::binary_auroc(const std::vector<double>& scores, const std::vector<bool>& positive) {
    const std::size_t n = scores.size();
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return scores[a] < scores[b]; });
    double rank_sum = 0, pos = 0;
    for (std::size_t i = 0; i < n;) {
        std::size_t j = i;
        while (j < n && scores[order[j]] == scores[order[i]]) ++j;
        const double avg_rank = 0.5 * static_cast<double>(i + 1 + j);  // ranks i+1 .. j, averaged
        for (std::size_t k = i; k < j; ++k)
            if (positive[order[k]]) rank_sum += avg_rank, pos += 1;
        i = j;
    }
    const double neg = static_cast<double>(n) - pos;
    if (pos == 0 || neg == 0) return kNaN;
    return (rank_sum - pos * (pos + 1) / 2) / (pos * neg);
}

double AucPrMetric::average_precision(const std::vector<double>& scores, const std::vector<bool>& positive) {
    const std::size_t n = scores.size();
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return scores[a] > scores[b]; });
    const double total = static_cast<double>(std::count(positive.begin(), positive.end(), true));
    if (total == 0) return kNaN;
    double tp = 0, ap = 0, recall = 0;
    for (std::size_t i = 0; i < n;) {  // one threshold per distinct score, highest first
        std::size_t j = i;
        while (j < n && scores[order[j]] == scores[order[i]]) tp += positive[order[j++]] ? 1 : 0;
        const double r = tp / total, p = tp / static_cast<double>(j);
        ap += (r - recall) * p;
        recall = r;
        i = j;
    }
    return ap;
}

double RankingMetric::compute(const std::vector<float>& scores, const std::vector<int64_t>& targets,
                              std::size_t classes) const {
    const std::size_t n = targets.size();
    if (n == 0) return kNaN;
    std::vector<double> s(n);
    std::vector<bool> pos(n);
    if (classes <= 2) {
        for (std::size_t i = 0; i < n; ++i) {
            s[i] = classes == 1 ? scores[i] : static_cast<double>(scores[2 * i + 1]) - scores[2 * i];
            pos[i] = targets[i] == 1;
        }
        return 100.0 * binary(s, pos);
    }
    std::vector<double> prob(n * classes);
    for (std::size_t i = 0; i < n; ++i) {
        const float* row = scores.data() + i * classes;
        const double mx = *std::max_element(row, row + classes);
        double z = 0;
        for (std::size_t c = 0; c < classes; ++c) z += prob[i * classes + c] = std::exp(row[c] - mx);
        for (std::size_t c = 0; c < classes; ++c) prob[i * classes + c] /= z;
    }
    double sum = 0;
    std::size_t counted = 0;
    for (std::size_t c = 0; c < classes; ++c) {
        for (std::size_t i = 0; i < n; ++i) {
            s[i] = prob[i * classes + c];
            pos[i] = targets[i] == static_cast<int64_t>(c);
        }
        double v = binary(s, pos);
        if (v == v) sum += v, ++counted;
    }
    return counted > 0 ? 100.0 * sum / static_cast<double>(counted) : kNaN;
}

void RankingMetric::update(const MetricInput& in, const MetricMetadata&) {
    const std::string label = name();
    check_classification(in, label.c_str());
    BURN_CHECK_KIND(classes_ == 0 || classes_ == in.num_classes, shape, "[", label, "] batches with ",
                    classes_, " and ", in.num_classes, " classes in one epoch");
    classes_ = in.num_classes;
    scores_.insert(scores_.end(), in.scores.begin(), in.scores.end());
    targets_.insert(targets_.end(), in.targets.begin(), in.targets.end());
    last_ = compute(in.scores, in.targets, in.num_classes);
}

double RankingMetric::value() const {
    return compute(scores_, targets_, classes_);
}

void RankingMetric::clear() {
    scores_.clear();
    targets_.clear();
    classes_ = 0;
    last_ = kNaN;
}

// ---------------------------------------------------------------------------------------- system

void IterationSpeedMetric::update(const MetricInput&, const MetricMetadata&) {
    if (!started_) clear();
    ++iterations_;
}

double IterationSpeedMetric::value() const {
    if (!started_ || iterations_ == 0) return kNaN;
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    return secs > 0 ? static_cast<double>(iterations_) / secs : kNaN;
}

void IterationSpeedMetric::clear() {
    start_ = std::chrono::steady_clock::now();
    iterations_ = 0;
    started_ = true;
}

void CpuUse::update(const MetricInput&, const MetricMetadata&) {
    if (!started_) clear();
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_).count();
    const double cpu = platform::process_cpu_seconds() - cpu_;
    if (wall > 0.05) value_ = 100.0 * cpu / wall;
}

void CpuUse::clear() {
    wall_ = std::chrono::steady_clock::now();
    cpu_ = platform::process_cpu_seconds();
    value_ = kNaN;
    started_ = true;
}

void CpuMemory::update(const MetricInput&, const MetricMetadata&) {
    const uint64_t bytes = platform::resident_memory_bytes();
    value_ = bytes > 0 ? static_cast<double>(bytes) / 1e9 : kNaN;
}

std::string Metric::text() const {
    return format_metric(value(), unit());
}

void CpuTemperature::update(const MetricInput&, const MetricMetadata&) {
    value_ = platform::cpu_temperature_celsius(root_).value_or(kNaN);
}

}  // namespace burn::train
