#pragma once
/// Policies (burn-rl's Policy): what chooses an action from an observation. action() is const and takes
/// the caller's random generator, so one policy can serve several environment runners at once.
///
///     rl::EpsilonGreedyPolicy explore(greedy, 0.1);   // a random action 10 % of the time
///     int64_t a = explore.action(obs, false, rng);
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "burn/core/error.hpp"
#include "burn/data/rng.hpp"

namespace burn::rl {

class Policy {
  public:
    virtual ~Policy() = default;
    virtual std::size_t num_actions() const = 0;
    /// The action for an observation; deterministic turns exploration off (the greedy action).
    virtual int64_t action(const std::vector<float>& observation, bool deterministic,
                           data::Rng& rng) const = 0;
};

/// Uniformly random actions (deterministic: always action 0).
class RandomPolicy final : public Policy {
  public:
    explicit RandomPolicy(std::size_t num_actions);
    std::size_t num_actions() const override { return n_; }
    int64_t action(const std::vector<float>& observation, bool deterministic, data::Rng& rng) const override;

  private:
    std::size_t n_;
};

/// The action with the highest value of a function of the observation (the first on ties): a
/// Q-network's greedy policy.
class GreedyPolicy final : public Policy {
  public:
    using ValueFn = std::function<std::vector<float>(const std::vector<float>& observation)>;
    GreedyPolicy(std::size_t num_actions, ValueFn values);
    std::size_t num_actions() const override { return n_; }
    int64_t action(const std::vector<float>& observation, bool deterministic, data::Rng& rng) const override;

  private:
    std::size_t n_;
    ValueFn values_;
};

/// A uniformly random action with probability epsilon, the inner policy's otherwise (always the inner
/// policy's when deterministic).
class EpsilonGreedyPolicy final : public Policy {
  public:
    EpsilonGreedyPolicy(std::shared_ptr<const Policy> inner, double epsilon);
    std::size_t num_actions() const override { return inner_->num_actions(); }
    int64_t action(const std::vector<float>& observation, bool deterministic, data::Rng& rng) const override;
    double epsilon() const { return epsilon_; }

  private:
    std::shared_ptr<const Policy> inner_;
    double epsilon_;
};

/// A policy that a learner replaces while runners on other threads use it (burn-rl's AsyncPolicy):
/// action() asks the current policy, update() swaps in a new one; a call in flight finishes with the
/// policy it started with.
class AsyncPolicy final : public Policy {
  public:
    explicit AsyncPolicy(std::shared_ptr<const Policy> policy);
    ~AsyncPolicy() override;
    std::size_t num_actions() const override;
    int64_t action(const std::vector<float>& observation, bool deterministic, data::Rng& rng) const override;
    void update(std::shared_ptr<const Policy> policy);
    std::shared_ptr<const Policy> current() const;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

/// Linear decay of the exploration rate from start to end over decay_steps environment steps.
struct ExplorationSchedule {
    double start = 1.0, end = 0.05;
    std::size_t decay_steps = 1000;
    double at(std::size_t step) const;
};

}  // namespace burn::rl
