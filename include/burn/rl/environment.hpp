#pragma once
/// Environments for reinforcement learning (burn-rl's Environment): an agent sees an observation (a
/// vector of floats), picks one of num_actions() discrete actions, and the environment answers with the
/// next observation and a reward until the episode ends.
///
///     rl::CartPole env;
///     std::vector<float> obs = env.reset(seed);
///     rl::StepResult r = env.step(1);   // push the cart to the right
///     if (r.done()) obs = env.reset(seed + 1);
///
/// An episode ends when it is terminated (a terminal state: no future reward is bootstrapped from
/// it) or truncated (a time limit: the state itself is not terminal).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace burn::rl {

struct StepResult {
    std::vector<float> observation;  // the next observation
    double reward = 0;
    bool terminated = false;  // a terminal state
    bool truncated = false;   // the episode hit its step limit
    bool done() const { return terminated || truncated; }
};

class Environment {
  public:
    virtual ~Environment() = default;
    virtual std::string name() const = 0;
    /// The length of every observation.
    virtual std::size_t observation_size() const = 0;
    /// Actions are 0 .. num_actions() - 1.
    virtual std::size_t num_actions() const = 0;
    /// Starts an episode (seed drives any random start) and returns its first observation.
    virtual std::vector<float> reset(uint64_t seed) = 0;
    /// Takes an action. Throws burn::Error for an action out of range or a step after the episode ended.
    virtual StepResult step(int64_t action) = 0;
    /// An independent copy (each environment runner steps its own).
    virtual std::unique_ptr<Environment> clone() const = 0;
};

}  // namespace burn::rl
