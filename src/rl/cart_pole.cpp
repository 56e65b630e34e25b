#include "burn/rl/cart_pole.hpp"

#include <cmath>

#include "burn/core/error.hpp"
#include "burn/data/rng.hpp"

namespace burn::rl {

namespace {
constexpr double kGravity = 9.8, kCartMass = 1.0, kPoleMass = 0.1, kTotalMass = kCartMass + kPoleMass;
constexpr double kHalfLength = 0.5, kPoleMassLength = kPoleMass * kHalfLength, kForce = 10.0, kTau = 0.02;
constexpr double kXLimit = 2.4, kThetaLimit = 12 * 2 * 3.14159265358979323846 / 360;
}  // namespace

CartPole::CartPole(std::size_t max_steps) : max_steps_(max_steps) {
    BURN_CHECK(max_steps >= 1, "[CartPole] max_steps must be at least 1, got 0");
}

std::vector<float> CartPole::observation() const {
    return {static_cast<float>(state_[0]), static_cast<float>(state_[1]), static_cast<float>(state_[2]),
            static_cast<float>(state_[3])};
}

std::vector<float> CartPole::reset(uint64_t seed) {
    data::Rng rng(seed);
    for (double& s : state_) s = rng.uniform() * 0.1 - 0.05;
    steps_ = 0;
    done_ = false;
    return observation();
}

void CartPole::set_state(const std::array<double, 4>& state) {
    state_ = state;
    steps_ = 0;
    done_ = false;
}

StepResult CartPole::step(int64_t action) {
    BURN_CHECK_KIND(action == 0 || action == 1, index, "[CartPole::step] action ", action,
                    " is out of range: 0 pushes left, 1 pushes right");
    BURN_CHECK(!done_, "[CartPole::step] the episode has ended (or never started); call reset(seed) first");
    auto& [x, x_dot, theta, theta_dot] = state_;
    const double force = action == 1 ? kForce : -kForce;
    const double cos_t = std::cos(theta), sin_t = std::sin(theta);
    const double temp = (force + kPoleMassLength * theta_dot * theta_dot * sin_t) / kTotalMass;
    const double theta_acc = (kGravity * sin_t - cos_t * temp) /
                             (kHalfLength * (4.0 / 3.0 - kPoleMass * cos_t * cos_t / kTotalMass));
    const double x_acc = temp - kPoleMassLength * theta_acc * cos_t / kTotalMass;
    x += kTau * x_dot;
    x_dot += kTau * x_acc;
    theta += kTau * theta_dot;
    theta_dot += kTau * theta_acc;
    ++steps_;
    StepResult r;
    r.observation = observation();
    r.reward = 1.0;
    r.terminated = x < -kXLimit || x > kXLimit || theta < -kThetaLimit || theta > kThetaLimit;
    r.truncated = !r.terminated && steps_ >= max_steps_;
    done_ = r.done();
    return r;
}

}  // namespace burn::rl
