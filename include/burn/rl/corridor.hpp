#pragma once
/// Corridor: the smallest environment in which an agent has to learn something. Cells 0 .. length - 1;
/// the episode starts in cell 0 and ends (terminated, reward 1) on reaching the last cell. Actions: 0
/// steps left (staying in cell 0 at the wall), 1 steps right; every other step gives reward 0.
/// Truncated after max_steps. Observation: the one-hot encoding of the cell (length floats).
/// A random policy needs about (length - 1)^2 steps to reach the end; the best needs length - 1.
#include "burn/rl/environment.hpp"

namespace burn::rl {

class Corridor final : public Environment {
  public:
    Corridor(std::size_t length, std::size_t max_steps);
    std::string name() const override { return "Corridor"; }
    std::size_t observation_size() const override { return length_; }
    std::size_t num_actions() const override { return 2; }
    std::vector<float> reset(uint64_t seed) override;
    StepResult step(int64_t action) override;
    std::unique_ptr<Environment> clone() const override { return std::make_unique<Corridor>(*this); }
    std::size_t position() const { return position_; }

  private:
    std::vector<float> observation() const;
    std::size_t length_, max_steps_, position_ = 0, steps_ = 0;
    bool done_ = true;
};

}  // namespace burn::rl
