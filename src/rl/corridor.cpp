#include "burn/rl/corridor.hpp"

#include "burn/core/error.hpp"

namespace burn::rl {

Corridor::Corridor(std::size_t length, std::size_t max_steps) : length_(length), max_steps_(max_steps) {
    BURN_CHECK(length >= 2, "[Corridor] length must be at least 2 (a start and a goal cell), got ", length);
    BURN_CHECK(max_steps >= 1, "[Corridor] max_steps must be at least 1, got 0");
}

std::vector<float> Corridor::observation() const {
    std::vector<float> obs(length_, 0.0f);
    obs[position_] = 1.0f;
    return obs;
}

std::vector<float> Corridor::reset(uint64_t) {
    position_ = 0;
    steps_ = 0;
    done_ = false;
    return observation();
}

StepResult Corridor::step(int64_t action) {
    BURN_CHECK_KIND(action == 0 || action == 1, index, "[Corridor::step] action ", action,
                    " is out of range: 0 steps left, 1 steps right");
    BURN_CHECK(!done_, "[Corridor::step] the episode has ended (or never started); call reset(seed) first");
    if (action == 1)
        ++position_;
    else if (position_ > 0)
        --position_;
    ++steps_;
    StepResult r;
    r.observation = observation();
    r.terminated = position_ + 1 == length_;
    r.reward = r.terminated ? 1.0 : 0.0;
    r.truncated = !r.terminated && steps_ >= max_steps_;
    done_ = r.done();
    return r;
}

}  // namespace burn::rl
