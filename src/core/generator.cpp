#include "burn/core/generator.hpp"

#include "platform/sync.hpp"

namespace burn {

struct Generator::State {
    platform::Mutex mutex;
    uint64_t seed = kDefaultSeed;
    uint64_t offset = 0;
};

Generator::Generator(uint64_t seed) : state_(std::make_shared<State>()) {
    state_->seed = seed;
}

void Generator::seed(uint64_t seed) {
    platform::Lock lock(state_->mutex);
    state_->seed = seed;
    state_->offset = 0;
}

uint64_t Generator::initial_seed() const {
    platform::Lock lock(state_->mutex);
    return state_->seed;
}

Generator::Draw Generator::reserve(uint64_t count) {
    platform::Lock lock(state_->mutex);
    Draw out{state_->seed, state_->offset};
    state_->offset += count;
    return out;
}

namespace {
BURN_THREAD_LOCAL Generator* t_current = nullptr;
}  // namespace

GeneratorScope::GeneratorScope(Generator generator) : generator_(std::move(generator)), previous_(t_current) {
    t_current = &generator_;
}

GeneratorScope::~GeneratorScope() {
    t_current = previous_;
}

namespace detail {
Generator* current_generator() {
    return t_current;
}
}  // namespace detail

}  // namespace burn
