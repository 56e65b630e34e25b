#include "burn/rl/policy.hpp"

#include <mutex>

namespace burn::rl {

RandomPolicy::RandomPolicy(std::size_t num_actions) : n_(num_actions) {
    BURN_CHECK(num_actions >= 1, "[RandomPolicy] needs at least one action, got 0");
}

int64_t RandomPolicy::action(const std::vector<float>&, bool deterministic, data::Rng& rng) const {
    return deterministic ? 0 : static_cast<int64_t>(rng.below(n_));
}

GreedyPolicy::GreedyPolicy(std::size_t num_actions, ValueFn values)
    : n_(num_actions), values_(std::move(values)) {
    BURN_CHECK(num_actions >= 1, "[GreedyPolicy] needs at least one action, got 0");
    BURN_CHECK(values_ != nullptr, "[GreedyPolicy] the value function is empty");
}

int64_t GreedyPolicy::action(const std::vector<float>& observation, bool, data::Rng&) const {
    const std::vector<float> v = values_(observation);
    BURN_CHECK_KIND(v.size() == n_, shape, "[GreedyPolicy::action] the value function gave ", v.size(),
                    " values for ", n_, " actions; it must give one per action");
    std::size_t best = 0;
    for (std::size_t i = 1; i < v.size(); ++i)
        if (v[i] > v[best]) best = i;
    return static_cast<int64_t>(best);
}

EpsilonGreedyPolicy::EpsilonGreedyPolicy(std::shared_ptr<const Policy> inner, double epsilon)
    : inner_(std::move(inner)), epsilon_(epsilon) {
    BURN_CHECK(inner_ != nullptr, "[EpsilonGreedyPolicy] the inner policy is null");
    BURN_CHECK(epsilon >= 0 && epsilon <= 1, "[EpsilonGreedyPolicy] epsilon must be in [0, 1], got ",
               epsilon);
}

int64_t EpsilonGreedyPolicy::action(const std::vector<float>& observation, bool deterministic,
                                    data::Rng& rng) const {
    if (!deterministic && rng.uniform() < epsilon_)
        return static_cast<int64_t>(rng.below(inner_->num_actions()));
    return inner_->action(observation, deterministic, rng);
}

struct AsyncPolicy::Impl {
    mutable std::mutex mutex;
    std::shared_ptr<const Policy> policy;
};

AsyncPolicy::AsyncPolicy(std::shared_ptr<const Policy> policy) : impl_(std::make_unique<Impl>()) {
    update(std::move(policy));
}
AsyncPolicy::~AsyncPolicy() = default;

std::shared_ptr<const Policy> AsyncPolicy::current() const {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    return impl_->policy;
}

std::size_t AsyncPolicy::num_actions() const {
    return current()->num_actions();
}

int64_t AsyncPolicy::action(const std::vector<float>& observation, bool deterministic, data::Rng& rng) const {
    return current()->action(observation, deterministic, rng);  // outside the lock: runners in parallel
}

void AsyncPolicy::update(std::shared_ptr<const Policy> policy) {
    BURN_CHECK(policy != nullptr, "[AsyncPolicy::update] the policy is null");
    std::lock_guard<std::mutex> lock(impl_->mutex);
    BURN_CHECK(!impl_->policy || impl_->policy->num_actions() == policy->num_actions(),
               "[AsyncPolicy::update] the new policy has ", policy->num_actions(), " actions, the old one ",
               impl_->policy ? impl_->policy->num_actions() : 0, "; a policy keeps its action space");
    impl_->policy = std::move(policy);
}

double ExplorationSchedule::at(std::size_t step) const {
    if (decay_steps == 0 || step >= decay_steps) return end;
    return start + (end - start) * static_cast<double>(step) / static_cast<double>(decay_steps);
}

}  // namespace burn::rl
