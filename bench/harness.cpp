#include "harness.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace bench {

std::vector<Workload> all_workloads() {
    std::vector<Workload> table;
    add_op_workloads(table);
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
    std::vector<double> ms;
    ms.reserve(static_cast<std::size_t>(reps));
    for (int i = 0; i < reps; ++i) {
        auto t0 = clock::now();
        c.step();
        device.sync();
        ms.push_back(std::chrono::duration<double, std::milli>(clock::now() - t0).count());
    }
    std::sort(ms.begin(), ms.end());
    std::size_t n = ms.size();
    if (n == 0) return 0.0;
    return n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]);  // as Python's statistics.median
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
                      double units, const std::string& unit) {
    // Names are plain identifiers (no quotes or backslashes), so no escaping is needed.
    std::ostringstream os;
    os << "{\"workload\": \"" << workload << "\", \"device\": \"" << device << "\", \"threads\": " << threads
       << ", \"burn\": \"0.1.0\", \"median_ms\": " << number(median_ms, 4);
    if (!unit.empty() && median_ms > 0)
        os << ", \"" << unit << "_per_s\": " << number(units / median_ms * 1e3, 2);
    os << "}";
    return os.str();
}

}  // namespace bench
