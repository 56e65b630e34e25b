#pragma once
// The benchmark harness of burn-bench: a workload table, timing (warm-up, then the median of timed
// runs, each ending in a device sync) and the JSON line of each result. No dependency beyond burn.
#include <burn/burn.hpp>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace bench {

/// What a workload gets to build its inputs and model.
struct Context {
    burn::Device device;
    bool gpu = false;  // true for --device cuda: workloads use their CUDA shapes
};

/// A prepared workload: step() runs one timed unit of work (inputs already built); units is the
/// work of one step in the unit named by unit ("gflop", "gbyte", "sample", "token"), for the
/// throughput figure "<unit>_per_s".
struct Case {
    std::function<void()> step;
    double units = 0;
    std::string unit;
};

/// One row of the table. make() builds the inputs and returns the step, or nullopt when the
/// workload has no variant for this device. warmup/reps follow WORKLOADS.md.
struct Workload {
    std::string name;
    std::function<std::optional<Case>(const Context&)> make;
    int warmup = 3;
    int reps = 10;
};

/// The workloads of one family file append their rows here.
void add_op_workloads(std::vector<Workload>& table);
// Later: void add_train_workloads(std::vector<Workload>& table);  (mlp_train, cnn_train, gpt_train,
// cnn_infer_b1), declared here and called from all_workloads().

/// Every implemented workload, in the order they run.
std::vector<Workload> all_workloads();

/// Names in WORKLOADS.md: ones missing from the table are "not implemented yet", not unknown.
const std::vector<std::string>& contract_names();

/// Runs warmup untimed steps, then reps timed steps (each ending in device.sync()); the median in ms.
double time_median_ms(const Case& c, const burn::Device& device, int warmup, int reps);

/// The JSON line of one result (one line, starting with '{').
std::string json_line(const std::string& workload, const std::string& device, int threads, double median_ms,
                      double units, const std::string& unit);

}  // namespace bench
