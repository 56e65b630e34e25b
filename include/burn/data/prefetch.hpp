#pragma once
/// The scheduling core of the data loader, independent of item and batch types: runs job(0) ..
/// job(n - 1) on worker threads, at most `depth` jobs ahead of the consumer, and hands results out
/// strictly in index order. Which worker runs which job never changes the results, so a loader's
/// batches are the same for any number of workers.
#include <cstddef>
#include <functional>
#include <memory>

namespace burn::data {

class Prefetcher {
  public:
    /// workers == 0 (or a build without threads): jobs run on the consumer's thread, inside wait().
    /// Job t writes its result into slot t % depth, which stays reserved until release(t).
    Prefetcher(std::size_t n, int workers, std::size_t depth, std::function<void(std::size_t)> job);
    /// Stops the workers (jobs already running finish first) and joins them.
    ~Prefetcher();
    Prefetcher(const Prefetcher&) = delete;
    Prefetcher& operator=(const Prefetcher&) = delete;

    std::size_t size() const;
    std::size_t depth() const;
    /// Waits until job i has finished; rethrows the exception it threw. i must be the next index not
    /// yet released.
    void wait(std::size_t i);
    /// The consumer is done with slot i % depth: job i + depth may start.
    void release(std::size_t i);

  private:
    struct State;
    std::shared_ptr<State> state_;
};

}  // namespace burn::data
