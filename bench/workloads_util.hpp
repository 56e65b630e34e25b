#pragma once
// Helpers shared by the workload files of burn-bench.
#include <chrono>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "harness.hpp"

namespace bench {

/// n class indices in [0, classes), drawn from a fixed seed (the targets of the training steps).
inline burn::Tensor<1, burn::Int> random_classes(std::size_t n, int classes, const burn::Device& device,
                                                unsigned seed = 42) {
    std::mt19937 gen(seed);
    std::uniform_int_distribution<int32_t> pick(0, classes - 1);
    std::vector<int32_t> v(n);
    for (auto& c : v) c = pick(gen);
    return burn::Tensor<1, burn::Int>::from_data(burn::TensorData(v, burn::Dims{static_cast<int64_t>(n)}), device);
}

/// Times consecutive phases of a step: mark(name) syncs the device and records the time since the
/// previous mark (or construction).
struct PhaseTimer {
    using clock = std::chrono::steady_clock;
    burn::Device device;
    clock::time_point last = clock::now();
    std::vector<std::pair<std::string, double>> phases;

    explicit PhaseTimer(burn::Device d) : device(std::move(d)) {}
    void mark(const char* name) {
        device.sync();
        auto now = clock::now();
        phases.emplace_back(name, std::chrono::duration<double, std::milli>(now - last).count());
        last = now;
    }
};

}  // namespace bench
