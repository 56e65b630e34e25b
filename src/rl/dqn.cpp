#include "burn/rl/dqn.hpp"

#include <algorithm>
#include <limits>

namespace burn::rl::detail {

namespace {

void check_config(const DqnConfig& c) {
    BURN_CHECK(c.num_steps >= 1, "[DqnLearner] num_steps must be at least 1, got 0");
    BURN_CHECK(c.num_envs >= 1, "[DqnLearner] num_envs must be at least 1, got 0");
    BURN_CHECK(c.steps_per_update >= 1, "[DqnLearner] steps_per_update must be at least 1, got 0");
    BURN_CHECK(c.batch_size >= 1 && c.batch_size <= c.buffer_capacity, "[DqnLearner] batch_size (",
               c.batch_size, ") must be in [1, buffer_capacity (", c.buffer_capacity, ")]");
    BURN_CHECK(c.target_update_every >= 1, "[DqnLearner] target_update_every must be at least 1, got 0");
    BURN_CHECK(c.gamma >= 0 && c.gamma <= 1, "[DqnLearner] gamma must be in [0, 1], got ", c.gamma);
    const ExplorationSchedule& e = c.exploration;
    BURN_CHECK(e.start >= 0 && e.start <= 1 && e.end >= 0 && e.end <= 1,
               "[DqnLearner] the exploration rates must be in [0, 1], got start ", e.start, " and end ",
               e.end);
}

}  // namespace

DqnReport run_dqn(const DqnHooks& hooks, const Environment& env, const DqnConfig& config,
                  std::vector<std::unique_ptr<train::Metric>>& metrics) {
    check_config(config);
    const std::size_t width = env.observation_size(), n_actions = env.num_actions();
    AsyncEnvRunner runners(env, config.num_envs, config.seed);
    TransitionBuffer<Transition> buffer(config.buffer_capacity);
    data::Rng rng(config.seed ^ 0x9E3779B97F4A7C15ull);
    auto greedy = std::make_shared<GreedyPolicy>(
        n_actions, [&hooks](const std::vector<float>& obs) { return hooks.online(obs, 1); });
    for (auto& m : metrics) m->clear();

    DqnReport report;
    const std::size_t start = std::max(config.learning_starts, config.batch_size);
    std::size_t round = 0;
    while (report.env_steps < config.num_steps) {
        const double epsilon = config.exploration.at(report.env_steps);
        const EpsilonGreedyPolicy policy(greedy, epsilon);
        const std::size_t left = config.num_steps - report.env_steps;
        const std::size_t per_env =
            std::min(config.steps_per_update, (left + config.num_envs - 1) / config.num_envs);
        Rollout rollout = runners.run(policy, per_env);
        report.env_steps += rollout.transitions.size();
        buffer.append(std::move(rollout.transitions));

        if (buffer.size() >= start) {
            const auto batch = buffer.random_sample(config.batch_size, rng);
            std::vector<float> obs, next;
            std::vector<int64_t> actions;
            obs.reserve(batch.size() * width);
            next.reserve(batch.size() * width);
            for (const Transition* t : batch) {
                BURN_CHECK_KIND(t->state.size() == width && t->next_state.size() == width, shape,
                                "[DqnLearner] ", env.name(), " gave an observation of length ",
                                t->state.size(), " where observation_size() is ", width);
                obs.insert(obs.end(), t->state.begin(), t->state.end());
                next.insert(next.end(), t->next_state.begin(), t->next_state.end());
                actions.push_back(t->action);
            }
            const std::vector<float> q_next = hooks.target(next, batch.size());
            BURN_CHECK_KIND(q_next.size() == batch.size() * n_actions, shape,
                            "[DqnLearner] the Q-network gave ", q_next.size(), " values for ", batch.size(),
                            " observations of ", env.name(), ", which has ", n_actions,
                            " actions; its output must be [n, num_actions]");
            std::vector<float> targets(batch.size());
            for (std::size_t i = 0; i < batch.size(); ++i) {
                const float* row = q_next.data() + i * n_actions;
                const double best = *std::max_element(row, row + n_actions);
                targets[i] =
                    static_cast<float>(batch[i]->reward + (batch[i]->done ? 0.0 : config.gamma * best));
            }
            report.losses.push_back(hooks.learn(obs, actions, targets));
            if (++report.updates % config.target_update_every == 0) hooks.sync_target();
        }

        train::MetricInput input;
        for (const auto& e : rollout.episodes) {
            input.episode_rewards.push_back(e.cumulative_reward);
            input.episode_lengths.push_back(e.length);
        }
        input.exploration_rate = epsilon;
        const train::MetricMetadata meta{
            1, 1, ++round, 0, std::numeric_limits<double>::quiet_NaN(), train::Split::train};
        for (auto& m : metrics) m->update(input, meta);
        report.episodes.insert(report.episodes.end(), rollout.episodes.begin(), rollout.episodes.end());
    }
    for (const auto& m : metrics) report.metrics[m->name()] = m->value();
    return report;
}

}  // namespace burn::rl::detail
