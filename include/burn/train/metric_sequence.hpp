#pragma once
/// Metrics of sequence and multi-label outputs (burn's text and multi-label metrics): perplexity, the
/// character and word error rates, BLEU, ROUGE-L, and the Hamming score. The sequence metrics read a
/// SequenceOutput's rows (one per token, `sequence_length` per item); the predicted token of a row is
/// its highest score, and tokens equal to the pad token (when set) are dropped from both sequences.
///
///     training.metric_valid_numeric(train::PerplexityMetric().with_pad_token(0))
///             .metric_valid_numeric(train::CharErrorRate().with_pad_token(0))
///             .metric_valid_numeric(train::WordErrorRate(space_token).with_pad_token(0));
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "burn/train/metric.hpp"

namespace burn::train {

namespace detail {
/// The (predicted, target) token sequences of each item of a batch, pads dropped.
struct SequencePair {
    std::vector<int64_t> predicted, target;
};
std::vector<SequencePair> sequence_pairs(const MetricInput& input, bool has_pad, int64_t pad_token,
                                         const char* metric);
}  // namespace detail

/// Shared by the sequence metrics: the pad token.
template <class Derived>
class SequenceMetric : public MetricBase<Derived> {
  public:
    Derived& with_pad_token(int64_t token) {
        pad_token_ = token;
        has_pad_ = true;
        return static_cast<Derived&>(*this);
    }

  protected:
    bool is_pad(int64_t t) const { return has_pad_ && t == pad_token_; }
    std::vector<detail::SequencePair> sequences(const MetricInput& input, const char* metric) const {
        return detail::sequence_pairs(input, has_pad_, pad_token_, metric);
    }

  private:
    int64_t pad_token_ = 0;
    bool has_pad_ = false;
};

/// exp of the mean negative log-likelihood per (non-pad) token over the epoch (burn's Perplexity).
class PerplexityMetric final : public SequenceMetric<PerplexityMetric> {
  public:
    std::string name() const override { return "Perplexity"; }
    void update(const MetricInput& input, const MetricMetadata& meta) override;
    double value() const override;
    double last() const override { return last_; }
    void clear() override;

  private:
    double nll_ = 0, tokens_ = 0;
    double last_ = std::numeric_limits<double>::quiet_NaN();
};

/// Edit operations per reference unit over the epoch, in %: the Levenshtein distance of each predicted
/// sequence's units to its target's, summed, over the targets' total length. Derived::units splits a
/// token sequence into the units compared (tokens for CER, words for WER).
template <class Derived>
class EditRateMetric : public SequenceMetric<Derived> {
  public:
    std::string unit() const override { return "%"; }
    void update(const MetricInput& input, const MetricMetadata& meta) override;
    double value() const override { return rate(edits_, length_); }
    double last() const override { return last_; }
    void clear() override {
        edits_ = length_ = 0;
        last_ = std::numeric_limits<double>::quiet_NaN();
    }

  private:
    static double rate(double edits, double length) {
        return length > 0 ? 100.0 * edits / length : std::numeric_limits<double>::quiet_NaN();
    }
    double edits_ = 0, length_ = 0;
    double last_ = std::numeric_limits<double>::quiet_NaN();
};

/// burn's CharErrorRate: the tokens are characters.
class CharErrorRate final : public EditRateMetric<CharErrorRate> {
  public:
    std::string name() const override { return "CER"; }
    std::vector<std::vector<int64_t>> units(const std::vector<int64_t>& tokens) const;
};

/// burn's WordErrorRate: a word is a run of tokens between separator tokens (a space), compared whole.
class WordErrorRate final : public EditRateMetric<WordErrorRate> {
  public:
    explicit WordErrorRate(int64_t separator_token) : separator_(separator_token) {}
    std::string name() const override { return "WER"; }
    std::vector<std::vector<int64_t>> units(const std::vector<int64_t>& tokens) const;

  private:
    int64_t separator_;
};

/// Corpus BLEU over the epoch, in % (Papineni et al.): the geometric mean of the clipped 1- to
/// max_n-gram precisions times the brevity penalty exp(1 - r / c) when the predictions are shorter.
class BleuMetric final : public SequenceMetric<BleuMetric> {
  public:
    explicit BleuMetric(std::size_t max_n = 4) : max_n_(max_n), matches_(max_n, 0), totals_(max_n, 0) {}
    std::string name() const override { return "BLEU"; }
    std::string unit() const override { return "%"; }
    Direction direction() const override { return Direction::highest; }
    void update(const MetricInput& input, const MetricMetadata& meta) override;
    double value() const override;
    double last() const override { return last_; }
    void clear() override;
    /// BLEU (in [0, 1]) from the n-gram match counts, totals and the two corpus lengths.
    static double score(const std::vector<double>& matches, const std::vector<double>& totals,
                        double pred_len, double ref_len);

  private:
    std::size_t max_n_;
    std::vector<double> matches_, totals_;
    double pred_len_ = 0, ref_len_ = 0;
    double last_ = std::numeric_limits<double>::quiet_NaN();
};

/// ROUGE-L (Lin 2004) per item, in %: with L the length of the longest common subsequence of the
/// predicted and target tokens, precision P = L / |predicted|, recall R = L / |target| and the
/// F-measure (1 + beta^2) P R / (R + beta^2 P) (beta = 1, burn's RougeLScore: 2 P R / (P + R)). Both
/// sequences empty score 100, one empty 0. value() is the mean over the epoch's items.
class RougeLScore final : public SequenceMetric<RougeLScore> {
  public:
    explicit RougeLScore(double beta = 1.0);
    std::string name() const override { return "ROUGE-L"; }
    std::string unit() const override { return "%"; }
    Direction direction() const override { return Direction::highest; }
    void update(const MetricInput& input, const MetricMetadata& meta) override;
    double value() const override { return mean_.mean(); }
    double last() const override { return mean_.last(); }
    void clear() override { mean_.clear(); }
    /// The ROUGE-L F-measure (in [0, 1]) of one predicted sequence against its target.
    static double score(const std::vector<int64_t>& predicted, const std::vector<int64_t>& target,
                        double beta = 1.0);

  private:
    double beta_;
    RunningMean mean_;
};

/// Share of (row, label) pairs whose prediction (sigmoid(logit) > threshold) equals the 0/1 target, in %
/// (burn's HammingScore, from a MultiLabelClassificationOutput).
class HammingScore final : public MeanMetric<HammingScore> {
  public:
    explicit HammingScore(double threshold = 0.5) : threshold_(threshold) {}
    std::string name() const override { return "Hamming Score"; }
    std::string unit() const override { return "%"; }
    Direction direction() const override { return Direction::highest; }
    void update(const MetricInput& input, const MetricMetadata& meta) override;

  private:
    double threshold_;
};

/// The Levenshtein distance between two sequences (insertions, deletions, substitutions).
template <class T>
std::size_t edit_distance(const std::vector<T>& a, const std::vector<T>& b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diag = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diag = up;
        }
    }
    return row[b.size()];
}

/// The length of the longest common subsequence of two sequences (not necessarily contiguous).
template <class T>
std::size_t lcs_length(const std::vector<T>& a, const std::vector<T>& b) {
    std::vector<std::size_t> row(b.size() + 1, 0);  // row[j]: LCS of a[0, i) and b[0, j)
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diag = 0;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t up = row[j];
            row[j] = a[i - 1] == b[j - 1] ? diag + 1 : std::max(row[j], row[j - 1]);
            diag = up;
        }
    }
    return row[b.size()];
}

template <class Derived>
void EditRateMetric<Derived>::update(const MetricInput& input, const MetricMetadata&) {
    const auto& self = static_cast<const Derived&>(*this);
    double edits = 0, length = 0;
    for (const auto& p : this->sequences(input, self.name().c_str())) {
        const auto ref = self.units(p.target);
        edits += static_cast<double>(edit_distance(self.units(p.predicted), ref));
        length += static_cast<double>(ref.size());
    }
    edits_ += edits;
    length_ += length;
    last_ = rate(edits, length);
}

}  // namespace burn::train

namespace burn::train::metric {
using train::BleuMetric;
using train::CharErrorRate;
using train::HammingScore;
using train::PerplexityMetric;
using train::RougeLScore;
using train::WordErrorRate;
}  // namespace burn::train::metric
