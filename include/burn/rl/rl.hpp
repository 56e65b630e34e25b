#pragma once
/// burn::rl: environments, policies, replay memory, environment runners and the DQN learner
/// (docs/rl.md). The RL metrics are in burn/train/metric_rl.hpp.
#include "burn/rl/cart_pole.hpp"
#include "burn/rl/corridor.hpp"
#include "burn/rl/dqn.hpp"
#include "burn/rl/env_runner.hpp"
#include "burn/rl/environment.hpp"
#include "burn/rl/policy.hpp"
#include "burn/rl/transition_buffer.hpp"
#include "burn/train/metric_rl.hpp"
