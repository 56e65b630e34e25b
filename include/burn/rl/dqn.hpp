#pragma once
/// Off-policy learning with a deep Q-network (Mnih et al. 2015): burn-train's off-policy RL learner.
/// Environment runners fill a replay buffer with epsilon-greedy steps of the current Q-network; each
/// learning step fits Q(s, a) to r + gamma * max_a' Q_target(s', a') (no bootstrap from terminal
/// states) on a random batch, and the target network copies the online one every target_update_every
/// learning steps.
///
///     rl::DqnConfig cfg;  cfg.num_steps = 2000;  cfg.gamma = 0.9;
///     auto result = rl::DqnLearner(q_net, optim::AdamConfig().init(), 1e-3, cfg)
///                       .metric(train::CumulativeReward())
///                       .train(rl::CartPole());
///     // result.model: the trained Q-network (inner device); result.report.episodes: every episode
///
/// The Q-network is any module on an autodiff device with `Tensor<2> forward(const Tensor<2>&) const`
/// mapping observations [n, observation_size] to action values [n, num_actions].
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "burn/rl/env_runner.hpp"
#include "burn/train/learner.hpp"
#include "burn/train/metric.hpp"

namespace burn::rl {

struct DqnConfig {
    std::size_t num_steps = 10000;          // environment steps, all environments together
    std::size_t num_envs = 1;               // environments stepped at once (AsyncEnvRunner)
    std::size_t steps_per_update = 1;       // steps of each environment between learning steps
    std::size_t batch_size = 32;            // transitions per learning step
    std::size_t buffer_capacity = 10000;    // replay buffer size
    std::size_t learning_starts = 100;      // transitions stored before the first learning step
    std::size_t target_update_every = 100;  // learning steps between target-network copies
    double gamma = 0.99;                    // discount
    ExplorationSchedule exploration;        // epsilon by environment step
    uint64_t seed = 42;                     // the runners' and the replay sampling's generators
};

struct DqnReport {
    std::vector<EpisodeSummary> episodes;  // every finished episode, in order
    std::vector<double> losses;            // the loss of every learning step
    std::size_t env_steps = 0, updates = 0;
    std::map<std::string, double> metrics;  // each metric's value at the end
};

template <class M>
struct DqnResult {
    M model;  // the trained Q-network, on the inner device
    DqnReport report;
};

namespace detail {
/// What the loop needs from the model; dqn.cpp runs the loop, so the template below stays small.
struct DqnHooks {
    /// Q-values of the online network, rows of observation_size floats -> rows of num_actions.
    std::function<std::vector<float>(const std::vector<float>&obs, std::size_t rows)> online, target;
    /// One learning step on a batch: observations, actions, target values; returns the loss.
    std::function<double(const std::vector<float>& obs, const std::vector<int64_t>& actions,
                         const std::vector<float>& targets)>
        learn;
    std::function<void()> sync_target;
};
DqnReport run_dqn(const DqnHooks& hooks, const Environment& env, const DqnConfig& config,
                  std::vector<std::unique_ptr<train::Metric>>& metrics);
}  // namespace detail

template <class M>
class DqnLearner {
  public:
    DqnLearner(M q_network, optim::Optimizer optimizer, train::LrSource lr, DqnConfig config)
        : model_(std::move(q_network)),
          optimizer_(std::move(optimizer)),
          lr_(std::move(lr)),
          config_(config) {}

    /// A metric updated after every rollout with the episodes that finished in it and the exploration
    /// rate (the RL metrics: CumulativeReward, EpisodeLength, ExplorationRate); its value at the end goes
    /// to the report. The learning steps' losses are in report.losses.
    DqnLearner& metric(const train::Metric& metric) {
        metrics_.push_back(metric.clone());
        return *this;
    }

    DqnResult<M> train(const Environment& env) {
        M model = std::move(model_);
        auto devices = model.devices();
        const Device device = devices.empty() ? Device().autodiff() : devices.front();
        BURN_CHECK_KIND(device.is_autodiff(), device, "[DqnLearner] the Q-network is on ", device,
                        ", which records no gradients; build it on ", device, ".autodiff()");
        M online = model.valid(), target = online;
        const auto width = static_cast<int64_t>(env.observation_size());
        auto values = [width](const M& net, const std::vector<float>& obs, std::size_t rows,
                              const Device& d) {
            auto x = Tensor<2>::from_data(TensorData(obs, Dims{static_cast<int64_t>(rows), width}), d);
            return net.forward(x).template to_vec<float>();
        };
        detail::DqnHooks hooks;
        hooks.online = [&](const std::vector<float>& obs, std::size_t rows) {
            return values(online, obs, rows, device.inner());
        };
        hooks.target = [&](const std::vector<float>& obs, std::size_t rows) {
            return values(target, obs, rows, device.inner());
        };
        hooks.learn = [&](const std::vector<float>& obs, const std::vector<int64_t>& actions,
                          const std::vector<float>& targets) {
            const auto rows = static_cast<int64_t>(actions.size());
            const auto n_actions = static_cast<int64_t>(env.num_actions());
            std::vector<float> mask(actions.size() * env.num_actions(), 0.0f);
            for (std::size_t i = 0; i < actions.size(); ++i)
                mask[i * env.num_actions() + static_cast<std::size_t>(actions[i])] = 1.0f;
            auto x = Tensor<2>::from_data(TensorData(obs, Dims{rows, width}), device);
            auto m = Tensor<2>::from_data(TensorData(mask, Dims{rows, n_actions}), device);
            auto y = Tensor<2>::from_data(TensorData(targets, Dims{rows, 1}), device);
            auto diff = (model.forward(x) * m).sum_dim(1) - y;
            auto loss = (diff * diff).mean();
            auto grads = optim::GradientsParams::from_grads(loss.backward(), model);
            model = optimizer_.step(lr_.step(), std::move(model), grads);
            online = model.valid();
            return static_cast<double>(loss.template into_scalar<float>());
        };
        hooks.sync_target = [&] { target = online; };
        DqnReport report = detail::run_dqn(hooks, env, config_, metrics_);
        return DqnResult<M>{model.valid(), std::move(report)};
    }

  private:
    M model_;
    optim::Optimizer optimizer_;
    train::LrSource lr_;
    DqnConfig config_;
    std::vector<std::unique_ptr<train::Metric>> metrics_;
};

template <class M, class L>
DqnLearner(M, optim::Optimizer, L, DqnConfig) -> DqnLearner<M>;

}  // namespace burn::rl
