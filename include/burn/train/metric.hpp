#pragma once
/// Metrics (burn::train::metric). Each reads a MetricInput per batch and keeps an aggregate over the
/// epoch so far; value() is that aggregate and last() the latest batch's value. Scores follow burn's
/// conventions: accuracy, top-k accuracy, precision, recall, F-beta and AUROC are percentages.
///
///     training.metric_train_numeric(train::LossMetric())
///             .metric_valid_numeric(train::AccuracyMetric())
///             .metric_valid_numeric(train::FBetaScoreMetric(1.0, train::ClassReduction::macro));
#include <chrono>
#include <cstddef>
#include <filesystem>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "burn/train/output.hpp"

namespace burn::train {

enum class Split { train, valid };
const char* split_name(Split split);

/// Whether smaller or larger values of a metric are better.
enum class Direction { lowest, highest };

/// What the loop tells a metric besides the batch.
struct MetricMetadata {
    std::size_t epoch = 0;  // 1-based
    std::size_t num_epochs = 0;
    std::size_t iteration = 0;  // 1-based within the epoch
    std::size_t num_iterations = 0;
    double lr = std::numeric_limits<double>::quiet_NaN();
    Split split = Split::train;
};

class Metric {
  public:
    virtual ~Metric() = default;
    /// Display name ("Loss", "Accuracy", "Top-3 Accuracy"); log files are named after it.
    virtual std::string name() const = 0;
    virtual std::string unit() const { return ""; }
    virtual Direction direction() const { return Direction::lowest; }
    virtual void update(const MetricInput& input, const MetricMetadata& meta) = 0;
    /// The aggregate since clear() (NaN before any update).
    virtual double value() const = 0;
    /// The latest batch's value (the aggregate where a batch has no value of its own).
    virtual double last() const { return value(); }
    /// Forgets everything (start of an epoch).
    virtual void clear() = 0;
    /// What the display shows for a text metric (registered with metric_train / metric_valid): by
    /// default value() with its unit; a metric whose result is not a number overrides it.
    virtual std::string text() const;
    virtual std::unique_ptr<Metric> clone() const = 0;
};

/// Implements clone() for a copyable metric.
template <class Derived>
class MetricBase : public Metric {
  public:
    std::unique_ptr<Metric> clone() const override {
        return std::make_unique<Derived>(static_cast<const Derived&>(*this));
    }
};

/// A batch-size-weighted running mean (the aggregate of most metrics).
class RunningMean {
  public:
    void add(double value, double weight) {
        last_ = value;
        if (weight <= 0 || value != value) return;
        sum_ += value * weight;
        weight_ += weight;
    }
    double mean() const { return weight_ > 0 ? sum_ / weight_ : std::numeric_limits<double>::quiet_NaN(); }
    double last() const { return last_; }
    void clear() { *this = RunningMean(); }

  private:
    double sum_ = 0, weight_ = 0;
    double last_ = std::numeric_limits<double>::quiet_NaN();
};

/// A metric whose aggregate is a RunningMean: value() the mean since clear(), last() the latest batch's.
/// The derived metric adds to mean_ in update().
template <class Derived>
class MeanMetric : public MetricBase<Derived> {
  public:
    double value() const override { return mean_.mean(); }
    double last() const override { return mean_.last(); }
    void clear() override { mean_.clear(); }

  protected:
    RunningMean mean_;
};

/// The mean loss.
class LossMetric final : public MeanMetric<LossMetric> {
  public:
    std::string name() const override { return "Loss"; }
    void update(const MetricInput& input, const MetricMetadata& meta) override;
};

/// Share of rows whose highest score is the target, in %. Targets equal to pad_token are ignored.
class AccuracyMetric final : public MeanMetric<AccuracyMetric> {
  public:
    AccuracyMetric() = default;
    AccuracyMetric& with_pad_token(int64_t token) {
        pad_token_ = token;
        has_pad_ = true;
        return *this;
    }
    std::string name() const override { return "Accuracy"; }
    std::string unit() const override { return "%"; }
    Direction direction() const override { return Direction::highest; }
    void update(const MetricInput& input, const MetricMetadata& meta) override;

  private:
    int64_t pad_token_ = 0;
    bool has_pad_ = false;
};

/// Share of rows whose target is among the k highest scores, in %.
class TopKAccuracyMetric final : public MeanMetric<TopKAccuracyMetric> {
  public:
    explicit TopKAccuracyMetric(std::size_t k);
    TopKAccuracyMetric& with_pad_token(int64_t token) {
        pad_token_ = token;
        has_pad_ = true;
        return *this;
    }
    std::string name() const override { return "Top-" + std::to_string(k_) + " Accuracy"; }
    std::string unit() const override { return "%"; }
    Direction direction() const override { return Direction::highest; }
    void update(const MetricInput& input, const MetricMetadata& meta) override;

  private:
    std::size_t k_;
    int64_t pad_token_ = 0;
    bool has_pad_ = false;
};

/// How per-class scores become one number: macro averages the classes' scores (classes never
/// predicted nor present are left out), micro pools the counts of every class first.
enum class ClassReduction { macro, micro };

/// Precision, recall and F-beta from a confusion count over the epoch. The predicted class of a row is
/// its highest score; with a single score column (binary), the row is positive when the score is above
/// `threshold` (a logit: 0 means probability 0.5). Values in %.
class ConfusionMetric : public Metric {
  public:
    Direction direction() const override { return Direction::highest; }
    std::string unit() const override { return "%"; }
    void update(const MetricInput& input, const MetricMetadata& meta) override;
    double value() const override { return score(tp_, fp_, fn_); }
    double last() const override { return last_; }
    void clear() override;

  protected:
    ConfusionMetric(ClassReduction reduction, double threshold)
        : reduction_(reduction), threshold_(threshold) {}
    /// The metric from per-class true positives, false positives and false negatives.
    double score(const std::vector<double>& tp, const std::vector<double>& fp,
                 const std::vector<double>& fn) const;
    virtual double per_class(double tp, double fp, double fn) const = 0;

    ClassReduction reduction_;
    double threshold_;
    std::vector<double> tp_, fp_, fn_;
    double last_ = std::numeric_limits<double>::quiet_NaN();
};

class PrecisionMetric final : public ConfusionMetric {
  public:
    explicit PrecisionMetric(ClassReduction reduction = ClassReduction::macro, double threshold = 0.0)
        : ConfusionMetric(reduction, threshold) {}
    std::string name() const override { return "Precision"; }
    std::unique_ptr<Metric> clone() const override { return std::make_unique<PrecisionMetric>(*this); }

  protected:
    double per_class(double tp, double fp, double fn) const override;
};

class RecallMetric final : public ConfusionMetric {
  public:
    explicit RecallMetric(ClassReduction reduction = ClassReduction::macro, double threshold = 0.0)
        : ConfusionMetric(reduction, threshold) {}
    std::string name() const override { return "Recall"; }
    std::unique_ptr<Metric> clone() const override { return std::make_unique<RecallMetric>(*this); }

  protected:
    double per_class(double tp, double fp, double fn) const override;
};

/// (1 + beta^2) * precision * recall / (beta^2 * precision + recall).
class FBetaScoreMetric final : public ConfusionMetric {
  public:
    explicit FBetaScoreMetric(double beta = 1.0, ClassReduction reduction = ClassReduction::macro,
                              double threshold = 0.0);
    std::string name() const override;
    std::unique_ptr<Metric> clone() const override { return std::make_unique<FBetaScoreMetric>(*this); }

  protected:
    double per_class(double tp, double fp, double fn) const override;

  private:
    double beta_;
};

/// A metric that ranks the rows of the whole epoch by score (AUROC, AUC-PR), in %. Binary problems (one
/// score column, or two: the second class is positive) rank rows by the positive score; more classes
/// average the one-vs-rest values of the softmax probabilities over the classes present (macro).
class RankingMetric : public Metric {
  public:
    std::string unit() const override { return "%"; }
    Direction direction() const override { return Direction::highest; }
    void update(const MetricInput& input, const MetricMetadata& meta) override;
    double value() const override;
    double last() const override { return last_; }
    void clear() override;

  protected:
    /// The value (in [0, 1]) of positive-class scores; NaN when it is undefined (a class absent).
    virtual double binary(const std::vector<double>& scores, const std::vector<bool>& positive) const = 0;

  private:
    double compute(const std::vector<float>& scores, const std::vector<int64_t>& targets,
                   std::size_t classes) const;
    std::vector<float> scores_;
    std::vector<int64_t> targets_;
    std::size_t classes_ = 0;
    double last_ = std::numeric_limits<double>::quiet_NaN();
};

/// Area under the ROC curve over the epoch, in %. Ties count one half.
class AurocMetric final : public RankingMetric {
  public:
    std::string name() const override { return "AUROC"; }
    std::unique_ptr<Metric> clone() const override { return std::make_unique<AurocMetric>(*this); }
    /// AUROC (in [0, 1]) of positive-class scores; NaN when a class is absent.
    static double binary_auroc(const std::vector<double>& scores, const std::vector<bool>& positive);

  protected:
    double binary(const std::vector<double>& s, const std::vector<bool>& p) const override {
        return binary_auroc(s, p);
    }
};

/// Area under the precision-recall curve over the epoch, in % (burn's AUC-PR): the average precision
/// sum_k (R_k - R_k-1) P_k over the distinct score thresholds, as scikit-learn's
/// average_precision_score. NaN when no row is positive.
class AucPrMetric final : public RankingMetric {
  public:
    std::string name() const override { return "AUC-PR"; }
    std::unique_ptr<Metric> clone() const override { return std::make_unique<AucPrMetric>(*this); }
    /// Average precision (in [0, 1]) of positive-class scores.
    static double average_precision(const std::vector<double>& scores, const std::vector<bool>& positive);

  protected:
    double binary(const std::vector<double>& s, const std::vector<bool>& p) const override {
        return average_precision(s, p);
    }
};

/// The learning rate of the latest step.
class LearningRateMetric final : public MetricBase<LearningRateMetric> {
  public:
    std::string name() const override { return "Learning Rate"; }
    void update(const MetricInput&, const MetricMetadata& meta) override { lr_ = meta.lr; }
    double value() const override { return lr_; }
    void clear() override { lr_ = std::numeric_limits<double>::quiet_NaN(); }

  private:
    double lr_ = std::numeric_limits<double>::quiet_NaN();
};

/// Iterations per second since the start of the epoch.
class IterationSpeedMetric final : public MetricBase<IterationSpeedMetric> {
  public:
    std::string name() const override { return "Iteration Speed"; }
    std::string unit() const override { return "iter/s"; }
    Direction direction() const override { return Direction::highest; }
    void update(const MetricInput& input, const MetricMetadata& meta) override;
    double value() const override;
    void clear() override;

  private:
    std::chrono::steady_clock::time_point start_{};
    std::size_t iterations_ = 0;
    bool started_ = false;
};

/// CPU time of this process over wall time since the start of the epoch, in % of one core (above 100
/// when several threads work).
class CpuUse final : public MetricBase<CpuUse> {
  public:
    std::string name() const override { return "CPU Usage"; }
    std::string unit() const override { return "%"; }
    void update(const MetricInput& input, const MetricMetadata& meta) override;
    double value() const override { return value_; }
    void clear() override;

  private:
    std::chrono::steady_clock::time_point wall_{};
    double cpu_ = 0, value_ = std::numeric_limits<double>::quiet_NaN();
    bool started_ = false;
};

/// Resident memory of this process, in GB (NaN where the OS does not say).
class CpuMemory final : public MetricBase<CpuMemory> {
  public:
    std::string name() const override { return "CPU Memory"; }
    std::string unit() const override { return "GB"; }
    void update(const MetricInput& input, const MetricMetadata& meta) override;
    double value() const override { return value_; }
    void clear() override { value_ = std::numeric_limits<double>::quiet_NaN(); }

  private:
    double value_ = std::numeric_limits<double>::quiet_NaN();
};

/// The CPU temperature in degrees Celsius (Linux: sysfs thermal zones or hwmon sensors); NaN where the
/// OS does not tell it (other systems, containers without /sys). sysfs_root is for tests.
class CpuTemperature final : public MetricBase<CpuTemperature> {
  public:
    explicit CpuTemperature(std::filesystem::path sysfs_root = "/sys") : root_(std::move(sysfs_root)) {}
    std::string name() const override { return "CPU Temperature"; }
    std::string unit() const override { return "°C"; }
    void update(const MetricInput& input, const MetricMetadata& meta) override;
    double value() const override { return value_; }
    void clear() override { value_ = std::numeric_limits<double>::quiet_NaN(); }

  private:
    std::filesystem::path root_;
    double value_ = std::numeric_limits<double>::quiet_NaN();
};

}  // namespace burn::train

/// burn's path for the metrics (`use burn::train::metric::LossMetric;`): the same classes.
namespace burn::train::metric {
using train::AccuracyMetric;
using train::AucPrMetric;
using train::AurocMetric;
using train::ClassReduction;
using train::CpuMemory;
using train::CpuTemperature;
using train::CpuUse;
using train::FBetaScoreMetric;
using train::IterationSpeedMetric;
using train::LearningRateMetric;
using train::LossMetric;
using train::Metric;
using train::PrecisionMetric;
using train::RecallMetric;
using train::TopKAccuracyMetric;
}  // namespace burn::train::metric
