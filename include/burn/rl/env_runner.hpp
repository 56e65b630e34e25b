#pragma once
/// Environment runners (burn-train's env_runner): they step environments with a policy and hand back
/// the transitions and the episodes that finished. An episode that is still running when run() returns
/// goes on at the next call.
///
///     rl::AsyncEnvRunner runners(rl::CartPole(), 4, seed);   // four environments, a thread each
///     rl::Rollout r = runners.run(policy, 64);                // 64 steps of each, 256 transitions
#include <cstdint>
#include <memory>
#include <vector>

#include "burn/rl/environment.hpp"
#include "burn/rl/policy.hpp"
#include "burn/rl/transition_buffer.hpp"

namespace burn::rl {

/// A finished episode.
struct EpisodeSummary {
    std::size_t length = 0;
    double cumulative_reward = 0;
};

struct Rollout {
    std::vector<Transition> transitions;
    std::vector<EpisodeSummary> episodes;  // in the order they finished (by runner, then time)
};

/// One environment. Episode k starts with reset(seed + k).
class EnvRunner {
  public:
    EnvRunner(std::unique_ptr<Environment> env, uint64_t seed);
    /// steps steps of the environment with policy (exploring; its random draws come from this runner's
    /// generator, seeded from seed).
    Rollout run(const Policy& policy, std::size_t steps);
    Environment& environment() { return *env_; }

  private:
    std::unique_ptr<Environment> env_;
    uint64_t seed_;
    uint64_t episode_ = 0;
    data::Rng rng_;
    std::vector<float> obs_;
    bool running_ = false;
    std::size_t length_ = 0;
    double reward_ = 0;
};

/// Several copies of an environment, each stepped on a thread of its own (in turn where the build has
/// no threads). Runner i is EnvRunner(prototype.clone(), seed + i * 1'000'003); the rollouts are joined
/// in runner order, so the result is the same with or without threads. The policy must be safe to call
/// from several threads at once (every policy in policy.hpp is, given a thread-safe value function).
class AsyncEnvRunner {
  public:
    AsyncEnvRunner(const Environment& prototype, std::size_t num_envs, uint64_t seed);
    ~AsyncEnvRunner();
    std::size_t num_envs() const { return runners_.size(); }
    /// steps_per_env steps of every environment. An error in any runner is rethrown here (the first, by
    /// runner order) after every thread has finished.
    Rollout run(const Policy& policy, std::size_t steps_per_env);

  private:
    std::vector<std::unique_ptr<EnvRunner>> runners_;
};

}  // namespace burn::rl
