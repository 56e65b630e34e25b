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
    /// Optional: extra JSON fields (", \"key\": value" ...) computed from the median, appended to
    /// the result line (autodiff_overhead reports its plain-device time and the ratio this way).
    std::function<std::string(double median_ms)> extra;
    /// Optional (training steps): one step timed by phase, {("forward", ms), ("backward", ms),
    /// ("optimizer", ms)}, each phase ending in a device sync; for --breakdown.
    std::function<std::vector<std::pair<std::string, double>>()> phases;
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
/// Training steps and inference: mlp_train, cnn_train, cnn_infer_b1.
void add_train_workloads(std::vector<Workload>& table);
/// gpt_train.
void add_gpt_workloads(std::vector<Workload>& table);
/// Burn-only: autodiff_overhead (the tape's cost next to tiny ops).
void add_autodiff_workloads(std::vector<Workload>& table);
/// Burn-only: sdpa_{fwd,fwdbwd}_{bf16,f32} (fused attention; bench/attention_torch.py is PyTorch's side).
void add_attention_workloads(std::vector<Workload>& table);

/// Logs "<name>: N parameters (PyTorch: M)" on stderr and throws when they differ (the benchmark
/// would not be the same work as torch_reference.py's).
void check_param_count(const std::string& name, std::size_t burn_params, std::size_t torch_params);

/// Every implemented workload, in the order they run.
std::vector<Workload> all_workloads();

/// Names in WORKLOADS.md: ones missing from the table are "not implemented yet", not unknown.
const std::vector<std::string>& contract_names();

/// Runs warmup untimed steps, then reps timed steps (each ending in device.sync()); the median in ms.
double time_median_ms(const Case& c, const burn::Device& device, int warmup, int reps);

/// Runs warmup untimed steps, then reps steps timed by phase; prints each phase's median (ms and
/// share of the total) on stderr. Nothing when the case has no phases.
void print_breakdown(const std::string& name, const Case& c, const burn::Device& device, int warmup,
                     int reps);

/// The JSON line of one result (one line, starting with '{').
std::string json_line(const std::string& workload, const std::string& device, int threads, double median_ms,
                      double units, const std::string& unit, const std::string& extra = "");

}  // namespace bench
