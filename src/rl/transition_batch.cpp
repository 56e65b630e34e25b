#include "burn/rl/transition_buffer.hpp"

namespace burn::rl {

TransitionBatch TransitionBatch::from(const std::vector<const Transition*>& transitions,
                                      const Device& device) {
    BURN_CHECK(!transitions.empty(), "[TransitionBatch::from] no transitions; sample at least one");
    const std::size_t n = transitions.size(), width = transitions.front()->state.size();
    std::vector<float> states, next_states, rewards, dones;
    std::vector<int64_t> actions;
    states.reserve(n * width);
    next_states.reserve(n * width);
    for (std::size_t i = 0; i < n; ++i) {
        const Transition& t = *transitions[i];
        BURN_CHECK_KIND(t.state.size() == width && t.next_state.size() == width, shape,
                        "[TransitionBatch::from] transition ", i, " has states of length ", t.state.size(),
                        " and ", t.next_state.size(), " where the first has ", width,
                        "; every observation of an environment must have the same length");
        states.insert(states.end(), t.state.begin(), t.state.end());
        next_states.insert(next_states.end(), t.next_state.begin(), t.next_state.end());
        actions.push_back(t.action);
        rewards.push_back(static_cast<float>(t.reward));
        dones.push_back(t.done ? 1.0f : 0.0f);
    }
    const Dims shape{static_cast<int64_t>(n), static_cast<int64_t>(width)};
    return {Tensor<2>::from_data(TensorData(states, shape), device),
            Tensor<2>::from_data(TensorData(next_states, shape), device),
            Tensor<1, Int>::from_data(TensorData(actions), device),
            Tensor<1>::from_data(TensorData(rewards), device),
            Tensor<1>::from_data(TensorData(dones), device)};
}

}  // namespace burn::rl
