#pragma once
// Helpers shared by the workload files of burn-bench.
#include <chrono>
#include <ctime>
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
    return burn::Tensor<1, burn::Int>::from_data(burn::TensorData(v, burn::Dims{static_cast<int64_t>(n)}),
                                                 device);
}

/// Times consecutive phases of a step: mark(name) syncs the device and records the time since the
/// previous mark (or construction): wall time as "name", and the process's CPU time (all threads,
/// spinning included) as "name_cpu", which a loaded machine disturbs less than the wall clock.
struct PhaseTimer {
    using clock = std::chrono::steady_clock;
    burn::Device device;
    clock::time_point last = clock::now();
    double last_cpu = cpu_ms();
    std::vector<std::pair<std::string, double>> phases;

    explicit PhaseTimer(burn::Device d) : device(std::move(d)) {}
    static double cpu_ms() { return 1e3 * static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }
    void mark(const char* name) {
        device.sync();
        auto now = clock::now();
        const double cpu = cpu_ms();
        phases.emplace_back(name, std::chrono::duration<double, std::milli>(now - last).count());
        phases.emplace_back(std::string(name) + "_cpu", cpu - last_cpu);
        last = now;
        last_cpu = cpu;
    }
};

}  // namespace bench
