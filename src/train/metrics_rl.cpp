#include "burn/train/metric_rl.hpp"

namespace burn::train {

void CumulativeReward::update(const MetricInput& input, const MetricMetadata&) {
    for (double r : input.episode_rewards) mean_.add(r, 1.0);
}

void EpisodeLength::update(const MetricInput& input, const MetricMetadata&) {
    for (std::size_t n : input.episode_lengths) mean_.add(static_cast<double>(n), 1.0);
}

void ExplorationRate::update(const MetricInput& input, const MetricMetadata&) {
    if (input.exploration_rate) value_ = *input.exploration_rate;
}

}  // namespace burn::train
