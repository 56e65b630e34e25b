#include "harness.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#if BURN_BENCH_NVTX
#include <nvtx3/nvToolsExt.h>
#endif

namespace bench {

std::vector<Workload> all_workloads() {
    std::vector<Workload> table;
    add_op_workloads(table);
    add_train_workloads(table);
    add_gpt_workloads(table);
    add_autodiff_workloads(table);
    add_attention_workloads(table);
    return table;
}

const std::vector<std::string>& contract_names() {
    static const std::vector<std::string> names = {"matmul_f32_256",  "matmul_f32_1024", "matmul_f32_2048",
                                                   "matmul_f32_4096", "matmul_f32_8192", "elementwise",
                                                   "softmax",         "mlp_train",       "cnn_train",
                                                   "gpt_train",       "cnn_infer_b1"};
    return names;
}

double time_median_ms(const Case& c, const burn::Device& device, int warmup, int reps) {
    using clock = std::chrono::steady_clock;
    for (int i = 0; i < warmup; ++i) c.step();
    device.sync();
    std::vector<double> ms, host;
    ms.reserve(static_cast<std::size_t>(reps));
    for (int i = 0; i < reps; ++i) {
#if BURN_BENCH_NVTX
        // The first timed step in an NVTX range, for a profiler to pick out one step after the warm-up:
        // ncu --nvtx --nvtx-include "burn-bench step/" (docs/benchmarks.md)
        if (i == 0) nvtxRangePushA("burn-bench step");
#endif
        auto t0 = clock::now();
        c.step();
        host.push_back(std::chrono::duration<double, std::milli>(clock::now() - t0).count());
        device.sync();
        ms.push_back(std::chrono::duration<double, std::milli>(clock::now() - t0).count());
#if BURN_BENCH_NVTX
        if (i == 0) nvtxRangePop();
#endif
    }
    std::sort(ms.begin(), ms.end());
    if (const char* e = std::getenv("BURN_BENCH_HOST"); e && std::strcmp(e, "1") == 0 && !host.empty()) {
        // How long the host takes to issue a step, before waiting for the device: a step whose issue
        // time is its whole time is bound by the host (op overhead), not by the device.
        std::sort(host.begin(), host.end());
        std::fprintf(stderr, "burn-bench: issue time per step (median of %d): %.3f ms of %.3f ms\n", reps,
                     host[host.size() / 2], ms[ms.size() / 2]);
    }
    std::size_t n = ms.size();
    if (n == 0) return 0.0;
    return n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]);  // as Python's statistics.median
}

void check_param_count(const std::string& name, std::size_t burn_params, std::size_t torch_params) {
    std::fprintf(stderr, "burn-bench: %s: %zu parameters (PyTorch: %zu)\n", name.c_str(), burn_params,
                 torch_params);
    BURN_CHECK(burn_params == torch_params, "[burn-bench] ", name, " has ", burn_params,
               " parameters but torch_reference.py's model has ", torch_params, ": not the same work");
}

void print_breakdown(const std::string& name, const Case& c, const burn::Device& device, int warmup,
                     int reps) {
    if (!c.phases) return;
    for (int i = 0; i < warmup; ++i) c.phases();
    device.sync();
    std::vector<std::string> names;
    std::vector<std::vector<double>> ms;
    for (int i = 0; i < reps; ++i) {
        auto p = c.phases();
        if (names.empty())
            for (auto& [n, v] : p) names.push_back(n), ms.emplace_back();
        for (std::size_t k = 0; k < p.size() && k < ms.size(); ++k) ms[k].push_back(p[k].second);
    }
    // Wall-time phases, then the CPU-time ones (named "<phase>_cpu"), each line with its own total.
    for (bool cpu : {false, true}) {
        std::vector<std::size_t> keys;
        for (std::size_t k = 0; k < names.size(); ++k) {
            const bool is_cpu = names[k].size() > 4 && names[k].compare(names[k].size() - 4, 4, "_cpu") == 0;
            if (is_cpu == cpu) keys.push_back(k);
        }
        if (keys.empty()) continue;
        std::vector<double> med;
        double total = 0;
        for (std::size_t k : keys) {
            auto& v = ms[k];
            std::sort(v.begin(), v.end());
            const std::size_t n = v.size();
            med.push_back(n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]));
            total += med.back();
        }
        std::fprintf(stderr, "burn-bench: %s breakdown, %s (medians of %d):", name.c_str(),
                     cpu ? "process CPU time" : "wall time", reps);
        for (std::size_t i = 0; i < keys.size(); ++i)
            std::fprintf(stderr, " %s %.3f ms (%.0f%%)", names[keys[i]].c_str(), med[i],
                         total > 0 ? 100 * med[i] / total : 0);
        std::fprintf(stderr, "; sum %.3f ms\n", total);
    }
    // The whole step once more, after the breakdown: a check that the phases add up to the step.
    std::fprintf(stderr, "burn-bench: %s step timed again after the breakdown: %.3f ms\n", name.c_str(),
                 time_median_ms(c, device, 0, reps));
}

namespace {
std::string number(double v, int digits) {
    if (!std::isfinite(v)) return "null";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
}
}  // namespace

std::string json_line(const std::string& workload, const std::string& device, int threads, double median_ms,
                      double units, const std::string& unit, const std::string& extra) {
    // Names are plain identifiers (no quotes or backslashes), so no escaping is needed.
    std::ostringstream os;
    os << "{\"workload\": \"" << workload << "\", \"device\": \"" << device << "\", \"threads\": " << threads
       << ", \"burn\": \"0.1.0\", \"median_ms\": " << number(median_ms, 4);
    if (!unit.empty() && median_ms > 0)
        os << ", \"" << unit << "_per_s\": " << number(units / median_ms * 1e3, 2);
    os << extra << "}";
    return os.str();
}

}  // namespace bench
