// The DQN learner learns: on a corridor a random walk rarely reaches the goal in time, the trained
// Q-network walks straight to it.
#include <gtest/gtest.h>

#include "burn/burn.hpp"
#include "burn/rl/rl.hpp"

using namespace burn;

namespace dqn_test {

struct QNet {
    nn::Linear fc1, fc2;
    nn::Relu relu;
    QNet() = default;
    explicit QNet(const Device& d)
        : fc1(nn::LinearConfig{6, 32}.init(d)), fc2(nn::LinearConfig{32, 2}.init(d)) {}
    Tensor<2> forward(const Tensor<2>& x) const { return fc2.forward(relu.forward(fc1.forward(x))); }
    BURN_MODULE(QNet, fc1, fc2, relu)
};

double mean_reward(const std::vector<rl::EpisodeSummary>& e, std::size_t from, std::size_t to) {
    double s = 0;
    for (std::size_t i = from; i < to; ++i) s += e[i].cumulative_reward;
    return s / static_cast<double>(to - from);
}

}  // namespace dqn_test

TEST(RlDqn, LearnsToWalkTheCorridor) {
    Device device = Device().autodiff();
    device.seed(7);
    rl::DqnConfig cfg;
    cfg.num_steps = 1200;
    cfg.num_envs = 2;
    cfg.batch_size = 32;
    cfg.learning_starts = 64;
    cfg.target_update_every = 25;
    cfg.gamma = 0.9;
    cfg.exploration = {1.0, 0.05, 600};
    cfg.seed = 3;
    const rl::Corridor env(6, 20);
    auto result = rl::DqnLearner(dqn_test::QNet(device), optim::AdamConfig().init(), 5e-3, cfg)
                      .metric(train::CumulativeReward())
                      .metric(train::EpisodeLength())
                      .metric(train::ExplorationRate())
                      .train(env);
    const auto& r = result.report;
    EXPECT_EQ(r.env_steps, 1200u);
    EXPECT_GT(r.updates, 500u);
    ASSERT_GE(r.episodes.size(), 40u);
    // The first episodes (a random walk) reach the goal about half the time; the last ones always do.
    const double first = dqn_test::mean_reward(r.episodes, 0, 20);
    const double last = dqn_test::mean_reward(r.episodes, r.episodes.size() - 10, r.episodes.size());
    EXPECT_LT(first, 0.85);
    EXPECT_EQ(last, 1.0);
    EXPECT_DOUBLE_EQ(r.metrics.at("Exploration Rate"), 0.05);
    EXPECT_GT(r.metrics.at("Cumulative Reward"), first);
    // The greedy policy of the trained network walks straight to the goal: 5 steps.
    rl::GreedyPolicy greedy(2, [&](const std::vector<float>& obs) {
        return result.model.forward(Tensor<2>::from_data(TensorData(obs, Dims{1, 6}), device.inner()))
            .to_vec<float>();
    });
    rl::Corridor walk(6, 20);
    auto obs = walk.reset(0);
    data::Rng rng(0);
    std::size_t steps = 0;
    for (bool done = false; !done; ++steps) {
        auto s = walk.step(greedy.action(obs, true, rng));
        obs = s.observation;
        done = s.done();
    }
    EXPECT_EQ(steps, 5u);
    EXPECT_EQ(walk.position(), 5u);
    // Settings that cannot work are refused before anything runs.
    cfg.batch_size = cfg.buffer_capacity + 1;
    EXPECT_THROW(rl::DqnLearner(dqn_test::QNet(device), optim::AdamConfig().init(), 1e-3, cfg).train(env),
                 Error);
}
