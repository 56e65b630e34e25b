#pragma once
/// Reinforcement-learning metrics (burn-train's metric/rl): they read the episodes that finished and the
/// exploration rate from MetricInput (rl::DqnLearner fills them after every rollout).
///
///     rl::DqnLearner(q_net, optim, 1e-3,
///     cfg).metric(train::CumulativeReward()).metric(train::EpisodeLength())
#include "burn/train/metric.hpp"

namespace burn::train {

/// The mean cumulative reward of the episodes finished since clear(); last() is the latest episode's.
class CumulativeReward final : public MeanMetric<CumulativeReward> {
  public:
    std::string name() const override { return "Cumulative Reward"; }
    Direction direction() const override { return Direction::highest; }
    void update(const MetricInput& input, const MetricMetadata& meta) override;
};

/// The mean length (steps) of the episodes finished since clear(); last() is the latest episode's.
/// Longer is better (episodes that end by failing, as CartPole's); where reaching a goal ends them, read
/// it the other way.
class EpisodeLength final : public MeanMetric<EpisodeLength> {
  public:
    std::string name() const override { return "Episode Length"; }
    Direction direction() const override { return Direction::highest; }
    void update(const MetricInput& input, const MetricMetadata& meta) override;
};

/// The latest exploration rate (epsilon) of the policy.
class ExplorationRate final : public MetricBase<ExplorationRate> {
  public:
    std::string name() const override { return "Exploration Rate"; }
    void update(const MetricInput& input, const MetricMetadata& meta) override;
    double value() const override { return value_; }
    void clear() override { value_ = std::numeric_limits<double>::quiet_NaN(); }

  private:
    double value_ = std::numeric_limits<double>::quiet_NaN();
};

}  // namespace burn::train
