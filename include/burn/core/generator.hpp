#pragma once
/// Generator: one stream of random numbers (a Philox key and a counter), like torch.Generator.
///
/// Random ops (Tensor::random, dropout, initialisers) draw from the generator of the innermost
/// GeneratorScope alive on the calling thread, and from their device's generator (Device::seed) when
/// no scope is alive. A scope gives the code running on one thread a stream of its own, so that work
/// on several threads at once is reproducible: what a thread draws does not depend on what the others
/// do. SupervisedTraining runs each launch() under a scope of its own generator, reseeded before every
/// step from (seed, epoch, iteration), so trainings with dropout on several threads at once give,
/// bit for bit, the weights each gives alone.
///
///     Generator gen(7);
///     {
///         GeneratorScope scope(gen);  // this thread's random ops draw from gen until the scope ends
///         nn::Linear fc = nn::LinearConfig{2, 16}.init(device);  // initialised from gen
///         auto x = Tensor<2>::random({2, 3}, Distribution::Default, device);
///     }
///
/// A Generator is a handle: copies share one stream (thread-safe), as torch.Generator objects do.
#include <cstdint>
#include <memory>

namespace burn {

class Generator {
  public:
    /// The seed of a generator nobody seeded (the devices' generators start from it too).
    static constexpr uint64_t kDefaultSeed = 0x2545F4914F6CDD1Dull;

    explicit Generator(uint64_t seed = kDefaultSeed);
    /// Restarts the stream: the draws that follow are those of a new Generator(seed).
    void seed(uint64_t seed);
    /// The seed the stream last (re)started from.
    uint64_t initial_seed() const;

    /// The next count values of the stream: its key and the counter of the first (backends turn them
    /// into values; users rarely need it).
    struct Draw {
        uint64_t key = 0;
        uint64_t offset = 0;
    };
    Draw reserve(uint64_t count);

  private:
    struct State;
    std::shared_ptr<State> state_;
};

/// While alive, random ops on the thread that made it draw from generator (scopes nest; the innermost
/// wins). Make and destroy it on the same thread.
class GeneratorScope {
  public:
    explicit GeneratorScope(Generator generator);
    ~GeneratorScope();
    GeneratorScope(const GeneratorScope&) = delete;
    GeneratorScope& operator=(const GeneratorScope&) = delete;

  private:
    Generator generator_;
    Generator* previous_;
};

namespace detail {
/// The generator of the calling thread's innermost GeneratorScope; nullptr when there is none.
Generator* current_generator();
}  // namespace detail

}  // namespace burn
