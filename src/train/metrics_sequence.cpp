// The sequence and multi-label metrics (burn/train/metric_sequence.hpp).
#include <algorithm>
#include <cmath>
#include <map>

#include "burn/core/error.hpp"
#include "burn/train/metric_sequence.hpp"

namespace burn::train {

namespace metrics_sequence_impl {  // named, not anonymous: unity builds merge anonymous namespaces

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

void check_sequences(const MetricInput& in, const char* metric) {
    BURN_CHECK_KIND(
        in.sequence_length > 0 && in.num_classes > 0 && in.batch_size % in.sequence_length == 0 &&
            in.scores.size() == in.batch_size * in.num_classes && in.targets.size() == in.batch_size,
        shape, "[", metric, "] needs a sequence output (SequenceOutput: scores [batch, seq, vocab], ",
        "targets [batch, seq]); got ", in.batch_size, " rows, sequence length ", in.sequence_length, ", ",
        in.scores.size(), " scores, ", in.targets.size(), " targets");
}

/// The words of a token sequence: runs between separators, empty runs dropped.
std::vector<std::vector<int64_t>> words(const std::vector<int64_t>& tokens, int64_t separator) {
    std::vector<std::vector<int64_t>> out(1);
    for (int64_t t : tokens) {
        if (t != separator) {
            out.back().push_back(t);
        } else if (!out.back().empty()) {
            out.emplace_back();
        }
    }
    if (out.back().empty()) out.pop_back();
    return out;
}

}  // namespace metrics_sequence_impl

namespace msi = metrics_sequence_impl;

std::vector<detail::SequencePair> detail::sequence_pairs(const MetricInput& in, bool has_pad, int64_t pad,
                                                         const char* metric) {
    msi::check_sequences(in, metric);
    const std::size_t items = in.batch_size / in.sequence_length, v = in.num_classes;
    std::vector<SequencePair> out(items);
    for (std::size_t i = 0; i < items; ++i)
        for (std::size_t t = 0; t < in.sequence_length; ++t) {
            const std::size_t row = i * in.sequence_length + t;
            const float* s = in.scores.data() + row * v;
            const auto pred = static_cast<int64_t>(std::max_element(s, s + v) - s);
            if (!(has_pad && pred == pad)) out[i].predicted.push_back(pred);
            if (!(has_pad && in.targets[row] == pad)) out[i].target.push_back(in.targets[row]);
        }
    return out;
}

void PerplexityMetric::update(const MetricInput& in, const MetricMetadata&) {
    msi::check_sequences(in, "PerplexityMetric");
    const std::size_t v = in.num_classes;
    double nll = 0, tokens = 0;
    for (std::size_t row = 0; row < in.batch_size; ++row) {
        const int64_t target = in.targets[row];
        if (is_pad(target)) continue;
        BURN_CHECK_KIND(target >= 0 && static_cast<std::size_t>(target) < v, index,
                        "[PerplexityMetric] target ", target, " is outside the vocabulary [0, ", v, ")");
        const float* s = in.scores.data() + row * v;
        const double mx = *std::max_element(s, s + v);
        double z = 0;
        for (std::size_t c = 0; c < v; ++c) z += std::exp(static_cast<double>(s[c]) - mx);
        nll += mx + std::log(z) - s[target];
        tokens += 1;
    }
    nll_ += nll;
    tokens_ += tokens;
    last_ = tokens > 0 ? std::exp(nll / tokens) : msi::kNaN;
}

double PerplexityMetric::value() const {
    return tokens_ > 0 ? std::exp(nll_ / tokens_) : msi::kNaN;
}

void PerplexityMetric::clear() {
    nll_ = tokens_ = 0;
    last_ = msi::kNaN;
}

std::vector<std::vector<int64_t>> CharErrorRate::units(const std::vector<int64_t>& tokens) const {
    std::vector<std::vector<int64_t>> out;
    for (int64_t t : tokens) out.push_back({t});
    return out;
}

std::vector<std::vector<int64_t>> WordErrorRate::units(const std::vector<int64_t>& tokens) const {
    return msi::words(tokens, separator_);
}

double BleuMetric::score(const std::vector<double>& matches, const std::vector<double>& totals,
                         double pred_len, double ref_len) {
    if (pred_len == 0) return 0;
    double log_sum = 0;
    for (std::size_t n = 0; n < matches.size(); ++n) {
        if (totals[n] == 0 || matches[n] == 0) return 0;
        log_sum += std::log(matches[n] / totals[n]);
    }
    const double bp = pred_len < ref_len ? std::exp(1 - ref_len / pred_len) : 1.0;
    return bp * std::exp(log_sum / static_cast<double>(matches.size()));
}

void BleuMetric::update(const MetricInput& in, const MetricMetadata&) {
    BURN_CHECK(max_n_ >= 1, "[BleuMetric] max_n must be at least 1");
    std::vector<double> matches(max_n_, 0), totals(max_n_, 0);
    double pred_len = 0, ref_len = 0;
    for (const auto& p : sequences(in, "BleuMetric")) {
        pred_len += static_cast<double>(p.predicted.size());
        ref_len += static_cast<double>(p.target.size());
        for (std::size_t n = 1; n <= max_n_; ++n) {
            std::map<std::vector<int64_t>, double> ref;  // the reference's n-gram counts (clipping)
            for (std::size_t i = 0; i + n <= p.target.size(); ++i)
                ref[std::vector<int64_t>(p.target.begin() + i, p.target.begin() + i + n)] += 1;
            for (std::size_t i = 0; i + n <= p.predicted.size(); ++i) {
                auto it =
                    ref.find(std::vector<int64_t>(p.predicted.begin() + i, p.predicted.begin() + i + n));
                if (it != ref.end() && it->second > 0) {
                    it->second -= 1;
                    matches[n - 1] += 1;
                }
                totals[n - 1] += 1;
            }
        }
    }
    for (std::size_t n = 0; n < max_n_; ++n) {
        matches_[n] += matches[n];
        totals_[n] += totals[n];
    }
    pred_len_ += pred_len;
    ref_len_ += ref_len;
    last_ = 100.0 * score(matches, totals, pred_len, ref_len);
}

double BleuMetric::value() const {
    return pred_len_ + ref_len_ > 0 ? 100.0 * score(matches_, totals_, pred_len_, ref_len_) : msi::kNaN;
}

void BleuMetric::clear() {
    std::fill(matches_.begin(), matches_.end(), 0.0);
    std::fill(totals_.begin(), totals_.end(), 0.0);
    pred_len_ = ref_len_ = 0;
    last_ = msi::kNaN;
}

RougeLScore::RougeLScore(double beta) : beta_(beta) {
    BURN_CHECK(beta > 0, "[RougeLScore] beta must be positive (1 weighs precision and recall equally); got ",
               beta);
}

double RougeLScore::score(const std::vector<int64_t>& predicted, const std::vector<int64_t>& target,
                          double beta) {
    if (predicted.empty() && target.empty()) return 1.0;
    if (predicted.empty() || target.empty()) return 0.0;
    const auto lcs = static_cast<double>(lcs_length(predicted, target));
    if (lcs == 0) return 0.0;
    const double p = lcs / static_cast<double>(predicted.size()),
                 r = lcs / static_cast<double>(target.size());
    const double b2 = beta * beta;
    return (1 + b2) * p * r / (r + b2 * p);
}

void RougeLScore::update(const MetricInput& in, const MetricMetadata&) {
    const auto pairs = sequences(in, "RougeLScore");
    if (pairs.empty()) return;
    double sum = 0;
    for (const auto& p : pairs) sum += score(p.predicted, p.target, beta_);
    mean_.add(100.0 * sum / static_cast<double>(pairs.size()), static_cast<double>(pairs.size()));
}

void HammingScore::update(const MetricInput& in, const MetricMetadata&) {
    const std::size_t n = in.batch_size * in.num_classes;
    BURN_CHECK_KIND(in.num_classes > 0 && in.scores.size() == n && in.target_values.size() == n, shape,
                    "[HammingScore] needs multi-label scores and 0/1 targets [batch, labels] ",
                    "(MultiLabelClassificationOutput); got ", in.scores.size(), " scores and ",
                    in.target_values.size(), " targets for ", in.batch_size, " x ", in.num_classes);
    // sigmoid(s) > threshold  <=>  s > logit(threshold)
    const double cut = std::log(threshold_ / (1 - threshold_));
    double correct = 0;
    for (std::size_t i = 0; i < n; ++i)
        correct += ((in.scores[i] > cut) == (in.target_values[i] > 0.5f)) ? 1 : 0;
    if (n > 0) mean_.add(100.0 * correct / static_cast<double>(n), static_cast<double>(in.batch_size));
}

}  // namespace burn::train
