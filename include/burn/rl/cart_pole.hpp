#pragma once
/// CartPole (Barto, Sutton and Anderson 1983; Gym's CartPole-v1): a pole hinged on a cart that moves
/// along a track. Observation: cart position x, cart velocity, pole angle theta (radians, 0 upright),
/// pole angular velocity. Actions: 0 pushes the cart left, 1 right (10 N). Reward 1 per step, the last
/// included. Terminated when |x| > 2.4 or |theta| > 12 degrees; truncated after max_steps (500).
/// The equations are integrated with explicit Euler steps of 0.02 s in double precision, as Gym does.
#include <array>

#include "burn/rl/environment.hpp"

namespace burn::rl {

class CartPole final : public Environment {
  public:
    explicit CartPole(std::size_t max_steps = 500);
    std::string name() const override { return "CartPole"; }
    std::size_t observation_size() const override { return 4; }
    std::size_t num_actions() const override { return 2; }
    /// Each state variable uniform in [-0.05, 0.05).
    std::vector<float> reset(uint64_t seed) override;
    StepResult step(int64_t action) override;
    std::unique_ptr<Environment> clone() const override { return std::make_unique<CartPole>(*this); }

    /// The exact state {x, x_dot, theta, theta_dot}; set_state starts an episode from it.
    const std::array<double, 4>& state() const { return state_; }
    void set_state(const std::array<double, 4>& state);

  private:
    std::vector<float> observation() const;
    std::array<double, 4> state_{};
    std::size_t max_steps_, steps_ = 0;
    bool done_ = true;
};

}  // namespace burn::rl
