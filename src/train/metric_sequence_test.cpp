// The sequence and multi-label metrics against hand-computed values: perplexity of uniform logits,
// CER/WER from Levenshtein distances worked out by hand, BLEU-1/BLEU-2 of Papineni et al.'s example,
// ROUGE-L of Lin's example, the Hamming score, and AUC-PR against scikit-learn's documented
// average_precision_score example.
#include "burn/train/metric_sequence.hpp"

#include <gtest/gtest.h>

#include <burn/burn.hpp>
#include <cmath>

namespace burn::train::metric_sequence_test {

const MetricMetadata kMeta{};

/// A SequenceOutput's metric input whose predictions are exactly `pred` (one-hot logits) and whose
/// targets are `target`, both [items][seq] over a vocabulary of v.
MetricInput seqs(const std::vector<std::vector<int64_t>>& pred,
                 const std::vector<std::vector<int64_t>>& target, std::size_t v) {
    MetricInput in;
    in.sequence_length = pred[0].size();
    in.batch_size = pred.size() * in.sequence_length;
    in.num_classes = v;
    for (std::size_t i = 0; i < pred.size(); ++i)
        for (std::size_t t = 0; t < in.sequence_length; ++t) {
            for (std::size_t c = 0; c < v; ++c)
                in.scores.push_back(static_cast<int64_t>(c) == pred[i][t] ? 5.f : 0.f);
            in.targets.push_back(target[i][t]);
        }
    return in;
}

TEST(SequenceMetrics, EditDistanceIsLevenshtein) {
    auto s = [](const char* t) { return std::vector<char>(t, t + std::char_traits<char>::length(t)); };
    EXPECT_EQ(edit_distance(s("kitten"), s("sitting")), 3u);
    EXPECT_EQ(edit_distance(s(""), s("abc")), 3u);
    EXPECT_EQ(edit_distance(s("flaw"), s("lawn")), 2u);
}

TEST(SequenceMetrics, CharAndWordErrorRatesDropPadsAndAccumulate) {
    // pad 0, separator 9; item 1: pred 1 2 3 / target 1 3 (one insertion: 1 edit of 2);
    // item 2: pred 4 9 5 5 / target 4 9 5 6 (a substitution: 1 edit of 4 characters, 1 of 2 words).
    auto in = seqs({{1, 2, 3, 0}, {4, 9, 5, 5}}, {{1, 3, 0, 0}, {4, 9, 5, 6}}, 10);
    CharErrorRate cer;
    cer.with_pad_token(0).update(in, kMeta);
    EXPECT_DOUBLE_EQ(cer.value(), 100.0 * 2 / 6);
    WordErrorRate wer(9);
    wer.with_pad_token(0).update(in, kMeta);
    // words: item 1 [123] vs [13] (1 of 1), item 2 [4][55] vs [4][56] (1 of 2)
    EXPECT_DOUBLE_EQ(wer.value(), 100.0 * 2 / 3);
    cer.update(seqs({{7, 7}}, {{7, 7}}, 10), kMeta);  // a perfect batch: 2 more characters, no edit
    EXPECT_DOUBLE_EQ(cer.last(), 0.0);
    EXPECT_DOUBLE_EQ(cer.value(), 100.0 * 2 / 8);
    cer.clear();
    EXPECT_TRUE(std::isnan(cer.value()));
}

TEST(SequenceMetrics, RougeLFromTheLongestCommonSubsequence) {
    auto s = [](const char* t) { return std::vector<char>(t, t + std::char_traits<char>::length(t)); };
    EXPECT_EQ(lcs_length(s("ABCBDAB"), s("BDCABA")), 4u);  // BCBA (Cormen et al.)
    EXPECT_EQ(lcs_length(s(""), s("AB")), 0u);
    EXPECT_EQ(lcs_length(s("AXBYC"), s("ABC")), 3u);
    // Lin (2004): reference "police killed the gunman" (1 2 3 4); "police kill the gunman" (1 5 3 4)
    // shares "police the gunman": P = R = 3/4; "the gunman kill police" (3 4 5 1) shares "the gunman": 1/2.
    RougeLScore rouge;
    EXPECT_EQ(rouge.name(), "ROUGE-L");
    EXPECT_EQ(rouge.direction(), Direction::highest);
    rouge.update(seqs({{1, 5, 3, 4}, {3, 4, 5, 1}}, {{1, 2, 3, 4}, {1, 2, 3, 4}}, 6), kMeta);
    EXPECT_DOUBLE_EQ(rouge.last(), (75.0 + 50.0) / 2);
    // pads (0) dropped: prediction 1 2 3 against 1 2 3 4 5: P = 1, R = 3/5, F1 = 2 * 0.6 / 1.6 = 75 %;
    // both empty: 100; an empty prediction: 0. The epoch's mean weighs each sequence once.
    rouge.with_pad_token(0).update(seqs({{1, 2, 3, 0, 0}, {0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}},
                                        {{1, 2, 3, 4, 5}, {0, 0, 0, 0, 0}, {2, 0, 0, 0, 0}}, 6),
                                   kMeta);
    EXPECT_DOUBLE_EQ(rouge.last(), (75.0 + 100.0 + 0.0) / 3);
    EXPECT_DOUBLE_EQ(rouge.value(), (75.0 + 50.0 + 75.0 + 100.0 + 0.0) / 5);
    // beta = 2 weighs recall: (1 + 4) P R / (R + 4 P) = 5 * 0.6 / 4.6
    EXPECT_DOUBLE_EQ(RougeLScore::score({1, 2, 3}, {1, 2, 3, 4, 5}, 2.0), 3.0 / 4.6);
    EXPECT_DOUBLE_EQ(RougeLScore::score({7, 8}, {1, 2}), 0.0);
    rouge.clear();
    EXPECT_TRUE(std::isnan(rouge.value()));
    MetricInput rows;  // not a sequence output
    rows.batch_size = 1;
    rows.num_classes = 2;
    rows.scores = {0, 1};
    rows.targets = {1};
    try {
        rouge.update(rows, kMeta);
        ADD_FAILURE() << "a classification output was accepted";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("[RougeLScore] needs a sequence output"), std::string::npos)
            << e.what();
    }
    EXPECT_THROW(RougeLScore(0.0), Error);
}

TEST(SequenceMetrics, PerplexityOfUniformLogitsIsTheVocabularySize) {
    MetricInput in;
    in.sequence_length = 3;
    in.batch_size = 6;
    in.num_classes = 7;
    in.scores.assign(6 * 7, 0.25f);
    in.targets = {1, 2, 3, 0, 0, 6};
    PerplexityMetric p;
    p.with_pad_token(0).update(in, kMeta);
    EXPECT_NEAR(p.value(), 7.0, 1e-9);
    // a confident correct prediction of every token: perplexity near 1
    PerplexityMetric q;
    q.update(seqs({{1, 2}}, {{1, 2}}, 3), kMeta);
    const double nll = std::log(1 + 2 * std::exp(-5.0));
    EXPECT_NEAR(q.value(), std::exp(nll), 1e-9);
}

TEST(SequenceMetrics, BleuFollowsPapineni) {
    // candidate "the the the the" (0 0 0 0), reference "the cat is on the mat" (0 1 2 3 0 4):
    // clipped unigram precision 2/4, brevity penalty exp(1 - 6/4).
    auto in = seqs({{0, 0, 0, 0, 5, 5}}, {{0, 1, 2, 3, 0, 4}}, 6);
    BleuMetric b1(1);
    b1.with_pad_token(5).update(in, kMeta);
    EXPECT_NEAR(b1.value(), 100.0 * std::exp(1 - 6.0 / 4) * 0.5, 1e-9);
    // "the cat the mat" (0 1 0 4) against the same: unigrams 4/4, bigrams (the cat, the mat) 2/3
    BleuMetric b2(2);
    b2.with_pad_token(5).update(seqs({{0, 1, 0, 4, 5, 5}}, {{0, 1, 2, 3, 0, 4}}, 6), kMeta);
    EXPECT_NEAR(b2.value(), 100.0 * std::exp(1 - 6.0 / 4) * std::sqrt(1.0 * (2.0 / 3)), 1e-9);
    BleuMetric same;
    same.update(seqs({{1, 2, 3, 4, 5}}, {{1, 2, 3, 4, 5}}, 6), kMeta);
    EXPECT_NEAR(same.value(), 100.0, 1e-9);
}

TEST(SequenceMetrics, HammingScoreCountsLabelPositions) {
    MetricInput in;
    in.batch_size = 2;
    in.num_classes = 3;
    in.scores = {2.f, -1.f, 0.5f, -3.f, -0.2f, 4.f};  // predicted 1 0 1 / 0 0 1
    in.target_values = {1, 1, 1, 0, 0, 0};            // right 1 0 1 / 1 1 0
    HammingScore h;
    h.update(in, kMeta);
    EXPECT_DOUBLE_EQ(h.value(), 100.0 * 4 / 6);
    HammingScore strict(0.9);  // only sigmoid(4) = 0.98 stays positive: right 0 0 0 / 1 1 0
    strict.update(in, kMeta);
    EXPECT_DOUBLE_EQ(strict.value(), 100.0 * 2 / 6);
    MetricInput bad = in;
    bad.target_values.pop_back();
    EXPECT_THROW(h.update(bad, kMeta), burn::Error);
}

TEST(SequenceMetrics, AucPrIsScikitLearnsAveragePrecision) {
    // sklearn's docs: y = [0, 0, 1, 1], scores [0.1, 0.4, 0.35, 0.8] -> 0.8333...
    EXPECT_NEAR(AucPrMetric::average_precision({0.1, 0.4, 0.35, 0.8}, {false, false, true, true}), 5.0 / 6,
                1e-12);
    MetricInput in;
    in.batch_size = 4;
    in.num_classes = 1;
    in.scores = {0.1f, 0.4f, 0.35f, 0.8f};
    in.targets = {0, 0, 1, 1};
    AucPrMetric m;
    m.update(in, kMeta);
    EXPECT_NEAR(m.value(), 100.0 * 5 / 6, 1e-4);
    EXPECT_EQ(m.name(), "AUC-PR");
    EXPECT_TRUE(std::isnan(AucPrMetric::average_precision({0.3, 0.2}, {false, false})));
}

TEST(SequenceMetrics, SequenceOutputFeedsTokenRows) {
    auto logits = Tensor<3>::zeros({2, 3, 4});
    auto targets = Tensor<2, Int>::from_data(TensorData(std::vector<int64_t>{1, 2, 3, 0, 1, 2}, {2, 3}));
    SequenceOutput out{Tensor<1>::from_data(TensorData(std::vector<float>{1.5f}, {1})), logits, targets};
    MetricInput in = out.metric_input();
    EXPECT_EQ(in.batch_size, 6u);
    EXPECT_EQ(in.sequence_length, 3u);
    EXPECT_EQ(in.num_classes, 4u);
    PerplexityMetric p;
    p.update(in, kMeta);
    EXPECT_NEAR(p.value(), 4.0, 1e-6);
    SequenceOutput bad{Tensor<1>(), logits, Tensor<2, Int>::zeros({2, 2})};
    EXPECT_THROW(bad.metric_input(), burn::Error);
}

}  // namespace burn::train::metric_sequence_test
