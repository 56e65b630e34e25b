// Environments, replay memory, policies, runners and the RL metrics against hand-computed values.
#include "burn/rl/rl.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "burn/burn.hpp"

using namespace burn;

namespace rl_test {

/// Pushes the cart towards the side the pole leans to (a deterministic policy: the runners' results must
/// then not depend on threads at all).
struct SignPolicy final : rl::Policy {
    std::size_t num_actions() const override { return 2; }
    int64_t action(const std::vector<float>& obs, bool, data::Rng&) const override {
        return obs[2] < 0 ? 0 : 1;
    }
};

}  // namespace rl_test

TEST(RlEnvironment, CartPoleFollowsTheClassicEquations) {
    // Reference values: Gym's CartPole-v1 equations (Euler, tau 0.02) evaluated in float64 by hand/Python.
    rl::CartPole env;
    env.set_state({0, 0, 0, 0});
    auto r = env.step(1);
    EXPECT_NEAR(env.state()[1], 0.1951219512195122, 1e-15);
    EXPECT_NEAR(env.state()[3], -0.2926829268292683, 1e-15);
    EXPECT_EQ(r.reward, 1.0);
    EXPECT_FALSE(r.done());
    env.set_state({0.01, -0.02, 0.03, 0.04});
    for (int a : {1, 0, 0, 1, 1}) env.step(a);
    const std::array<double, 4> want{0.00791661253107495, 0.17298676004769037, 0.035838631046105324,
                                     -0.20574851582677406};
    for (int i = 0; i < 4; ++i) EXPECT_NEAR(env.state()[i], want[i], 1e-14) << i;
    // Always pushing right from rest: the pole passes 12 degrees at the 9th step.
    env.set_state({0, 0, 0, 0});
    int steps = 0;
    for (bool done = false; !done; ++steps) done = env.step(1).terminated;
    EXPECT_EQ(steps, 9);
    EXPECT_THROW(env.step(1), Error);  // after the end
    auto obs = env.reset(3);
    ASSERT_EQ(obs.size(), 4u);
    for (float v : obs) EXPECT_LT(std::abs(v), 0.05f);
    EXPECT_EQ(env.reset(3), obs);  // the seed decides the start
    EXPECT_THROW(env.step(2), IndexError);
    // Truncation at max_steps: alternate pushes keep the pole up for 3 steps.
    rl::CartPole short_env(3);
    short_env.reset(1);
    short_env.step(0);
    short_env.step(1);
    auto last = short_env.step(0);
    EXPECT_TRUE(last.truncated);
    EXPECT_FALSE(last.terminated);
}

TEST(RlEnvironment, CorridorRewardsTheGoal) {
    rl::Corridor env(3, 4);
    EXPECT_EQ(env.reset(0), (std::vector<float>{1, 0, 0}));
    EXPECT_EQ(env.step(0).observation, (std::vector<float>{1, 0, 0}));  // the wall
    EXPECT_EQ(env.step(1).reward, 0.0);
    auto r = env.step(1);
    EXPECT_TRUE(r.terminated);
    EXPECT_EQ(r.reward, 1.0);
    env.reset(0);
    for (int i = 0; i < 3; ++i) env.step(0);
    EXPECT_TRUE(env.step(0).truncated);
    EXPECT_THROW(rl::Corridor(1, 5), Error);
}

TEST(RlTransitionBuffer, OverwritesTheOldestAndSamples) {
    // burn-rl's own expectations for append on a circular buffer of 4.
    rl::TransitionBuffer<int> b(4);
    b.append({0, 1});
    EXPECT_EQ(b.items(), (std::vector<int>{0, 1}));
    b.append({2, 3, 4, 5});
    EXPECT_EQ(b.items(), (std::vector<int>{4, 5, 2, 3}));
    b.append({10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20});
    EXPECT_EQ(b.items(), (std::vector<int>{20, 17, 18, 19}));
    b.append({21, 22});
    EXPECT_EQ(b.items(), (std::vector<int>{20, 21, 22, 19}));
    EXPECT_EQ(b.size(), 4u);
    data::Rng rng(5);
    auto s = b.random_sample(4, rng);
    std::vector<int> got;
    for (const int* p : s) got.push_back(*p);
    std::sort(got.begin(), got.end());
    EXPECT_EQ(got, (std::vector<int>{19, 20, 21, 22}));  // distinct: a permutation of the contents
    EXPECT_THROW(b.random_sample(5, rng), Error);
    EXPECT_THROW(b.sample({4}), IndexError);
    b.clear();
    EXPECT_TRUE(b.empty());

    std::vector<rl::Transition> ts{{{1, 2}, 1, 0.5, {3, 4}, false}, {{5, 6}, 0, -1.0, {7, 8}, true}};
    auto batch = rl::TransitionBatch::from({&ts[1], &ts[0]}, Device());
    EXPECT_EQ(batch.states.to_vec<float>(), (std::vector<float>{5, 6, 1, 2}));
    EXPECT_EQ(batch.next_states.to_vec<float>(), (std::vector<float>{7, 8, 3, 4}));
    EXPECT_EQ(batch.actions.to_vec<int64_t>(), (std::vector<int64_t>{0, 1}));
    EXPECT_EQ(batch.rewards.to_vec<float>(), (std::vector<float>{-1.0f, 0.5f}));
    EXPECT_EQ(batch.dones.to_vec<float>(), (std::vector<float>{1, 0}));
    ts[0].next_state.push_back(9);
    EXPECT_THROW(rl::TransitionBatch::from({&ts[1], &ts[0]}, Device()), ShapeError);
}

TEST(RlPolicy, GreedyEpsilonGreedyAndAsync) {
    auto greedy = std::make_shared<rl::GreedyPolicy>(3, [](const std::vector<float>& o) {
        return std::vector<float>{o[0], 2.0f, o[0]};  // action 1 unless o[0] > 2; the first of ties
    });
    data::Rng rng(1);
    EXPECT_EQ(greedy->action({0.0f}, false, rng), 1);
    EXPECT_EQ(greedy->action({5.0f}, false, rng), 0);
    rl::EpsilonGreedyPolicy never(greedy, 0.0), always(greedy, 1.0);
    int ones = 0;
    for (int i = 0; i < 300; ++i) {
        EXPECT_EQ(never.action({0.0f}, false, rng), 1);
        ones += always.action({0.0f}, false, rng) == 1;
        EXPECT_EQ(always.action({0.0f}, true, rng), 1);  // deterministic: no exploration
    }
    EXPECT_GT(ones, 70);  // about 100 of 300 uniformly random actions are 1
    EXPECT_LT(ones, 130);
    EXPECT_THROW(rl::EpsilonGreedyPolicy(greedy, 1.5), Error);
    rl::AsyncPolicy shared(greedy);
    EXPECT_EQ(shared.action({0.0f}, false, rng), 1);
    shared.update(std::make_shared<rl::RandomPolicy>(3));
    EXPECT_EQ(shared.action({0.0f}, true, rng), 0);
    EXPECT_THROW(shared.update(std::make_shared<rl::RandomPolicy>(2)), Error);
    rl::ExplorationSchedule e{1.0, 0.1, 10};
    EXPECT_DOUBLE_EQ(e.at(0), 1.0);
    EXPECT_DOUBLE_EQ(e.at(5), 0.55);
    EXPECT_DOUBLE_EQ(e.at(10), 0.1);
    EXPECT_DOUBLE_EQ(e.at(99), 0.1);
}

TEST(RlEnvRunner, EpisodesAndAsyncRunnersMatchTheSerialOnes) {
    // Corridor of 3 with a right-only policy: every episode is 2 steps, reward 1.
    rl::EnvRunner runner(std::make_unique<rl::Corridor>(3, 10), 0);
    rl::RandomPolicy random(2);
    auto greedy = std::make_shared<rl::GreedyPolicy>(2, [](const std::vector<float>&) {
        return std::vector<float>{0, 1};
    });
    auto r = runner.run(*greedy, 5);
    ASSERT_EQ(r.transitions.size(), 5u);
    ASSERT_EQ(r.episodes.size(), 2u);  // the third is still running
    EXPECT_EQ(r.episodes[0].length, 2u);
    EXPECT_EQ(r.episodes[1].cumulative_reward, 1.0);
    EXPECT_TRUE(r.transitions[1].done);
    EXPECT_EQ(r.transitions[1].next_state, (std::vector<float>{0, 0, 1}));
    EXPECT_EQ(runner.run(*greedy, 1).episodes.size(), 1u);  // it goes on where it stopped
    EXPECT_THROW(runner.run(rl::RandomPolicy(3), 1), Error);

    // Four CartPoles on threads (when the build has them) give what each gives alone, in runner order.
    rl_test::SignPolicy sign;
    rl::AsyncEnvRunner many(rl::CartPole(), 4, 100);
    auto all = many.run(sign, 50);
    ASSERT_EQ(all.transitions.size(), 200u);
    std::vector<rl::Transition> serial;
    std::size_t episodes = 0;
    for (uint64_t i = 0; i < 4; ++i) {
        rl::EnvRunner one(std::make_unique<rl::CartPole>(), 100 + i * 1'000'003ull);
        auto part = one.run(sign, 50);
        episodes += part.episodes.size();
        serial.insert(serial.end(), part.transitions.begin(), part.transitions.end());
    }
    EXPECT_EQ(all.episodes.size(), episodes);
    for (std::size_t i = 0; i < serial.size(); ++i) {
        EXPECT_EQ(all.transitions[i].state, serial[i].state) << i;
        EXPECT_EQ(all.transitions[i].action, serial[i].action) << i;
    }
    // An error in a runner thread reaches the caller.
    struct Bad final : rl::Policy {
        std::size_t num_actions() const override { return 2; }
        int64_t action(const std::vector<float>&, bool, data::Rng&) const override { return 7; }
    };
    EXPECT_THROW(many.run(Bad(), 1), IndexError);
}

TEST(RlMetrics, CumulativeRewardEpisodeLengthExplorationRate) {
    train::CumulativeReward reward;
    train::EpisodeLength length;
    train::ExplorationRate rate;
    train::MetricInput in;
    in.episode_rewards = {1.0, 4.0};
    in.episode_lengths = {10, 30};
    in.exploration_rate = 0.5;
    train::MetricMetadata meta;
    for (train::Metric* m : std::initializer_list<train::Metric*>{&reward, &length, &rate}) {
        EXPECT_TRUE(std::isnan(m->value())) << m->name();
        m->update(in, meta);
    }
    in.episode_rewards = {7.0};
    in.episode_lengths = {50};
    in.exploration_rate = 0.25;
    reward.update(in, meta);
    length.update(in, meta);
    rate.update(in, meta);
    EXPECT_DOUBLE_EQ(reward.value(), 4.0);  // (1 + 4 + 7) / 3
    EXPECT_DOUBLE_EQ(reward.last(), 7.0);
    EXPECT_DOUBLE_EQ(length.value(), 30.0);
    EXPECT_DOUBLE_EQ(rate.value(), 0.25);
    EXPECT_EQ(reward.name(), "Cumulative Reward");
    reward.clear();
    EXPECT_TRUE(std::isnan(reward.value()));
}
