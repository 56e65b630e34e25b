#include "burn/rl/env_runner.hpp"

#include <exception>

#include "platform/threads.hpp"

namespace burn::rl {

EnvRunner::EnvRunner(std::unique_ptr<Environment> env, uint64_t seed)
    : env_(std::move(env)), seed_(seed), rng_(seed) {
    BURN_CHECK(env_ != nullptr, "[EnvRunner] the environment is null");
}

Rollout EnvRunner::run(const Policy& policy, std::size_t steps) {
    BURN_CHECK(policy.num_actions() == env_->num_actions(), "[EnvRunner::run] the policy chooses among ",
               policy.num_actions(), " actions but ", env_->name(), " has ", env_->num_actions());
    Rollout out;
    out.transitions.reserve(steps);
    for (std::size_t s = 0; s < steps; ++s) {
        if (!running_) {
            obs_ = env_->reset(seed_ + episode_++);
            running_ = true;
            length_ = 0;
            reward_ = 0;
        }
        const int64_t action = policy.action(obs_, false, rng_);
        StepResult r = env_->step(action);
        ++length_;
        reward_ += r.reward;
        out.transitions.push_back({obs_, action, r.reward, r.observation, r.terminated});
        obs_ = std::move(r.observation);
        if (r.done()) {
            out.episodes.push_back({length_, reward_});
            running_ = false;
        }
    }
    return out;
}

AsyncEnvRunner::AsyncEnvRunner(const Environment& prototype, std::size_t num_envs, uint64_t seed) {
    BURN_CHECK(num_envs >= 1, "[AsyncEnvRunner] needs at least one environment, got 0");
    for (std::size_t i = 0; i < num_envs; ++i)
        runners_.push_back(std::make_unique<EnvRunner>(prototype.clone(), seed + i * 1'000'003ull));
}
AsyncEnvRunner::~AsyncEnvRunner() = default;

Rollout AsyncEnvRunner::run(const Policy& policy, std::size_t steps_per_env) {
    const std::size_t n = runners_.size();
    std::vector<Rollout> parts(n);
    std::vector<std::exception_ptr> errors(n);
    auto work = [&](std::size_t i) {
        try {
            parts[i] = runners_[i]->run(policy, steps_per_env);
        } catch (...) {
            errors[i] = std::current_exception();
        }
    };
    if (n > 1 && platform::threads_supported()) {
        platform::ThreadGroup threads;
        threads.start(static_cast<int>(n), [&](int i) { work(static_cast<std::size_t>(i)); });
        threads.join();
    } else {
        for (std::size_t i = 0; i < n; ++i) work(i);
    }
    for (auto& e : errors)
        if (e) std::rethrow_exception(e);
    Rollout out;
    for (auto& p : parts) {
        for (auto& t : p.transitions) out.transitions.push_back(std::move(t));
        out.episodes.insert(out.episodes.end(), p.episodes.begin(), p.episodes.end());
    }
    return out;
}

}  // namespace burn::rl
