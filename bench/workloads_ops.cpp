// Single-op workloads of WORKLOADS.md: matmul_f32_N, elementwise, softmax; and rfft_long.
#include <memory>

#include "harness.hpp"

namespace bench {

using namespace burn;

namespace {

Distribution normal() {
    return Distribution::Normal(0.0, 1.0);
}

Workload matmul(int64_t cpu_n, int64_t gpu_n) {
    // The CPU and CUDA sizes differ (256/1024/2048 vs 1024/4096/8192); 1024 is in both lists.
    int64_t n = cpu_n ? cpu_n : gpu_n;
    Workload w;
    w.name = "matmul_f32_" + std::to_string(n);
    w.make = [n, cpu_n, gpu_n](const Context& ctx) -> std::optional<Case> {
        if ((ctx.gpu ? gpu_n : cpu_n) == 0) return std::nullopt;
        auto x = Tensor<2>::random({std::size_t(n), std::size_t(n)}, normal(), ctx.device);
        auto y = Tensor<2>::random({std::size_t(n), std::size_t(n)}, normal(), ctx.device);
        Case c;
        c.step = [x, y] { auto r = x.matmul(y); };
        c.units = 2.0 * double(n) * double(n) * double(n) / 1e9;
        c.unit = "gflop";
        return c;
    };
    return w;
}

Workload elementwise() {
    Workload w;
    w.name = "elementwise";
    w.make = [](const Context& ctx) -> std::optional<Case> {
        const std::size_t n = ctx.gpu ? (std::size_t(1) << 28) : (std::size_t(1) << 24);
        auto x = Tensor<1>::random({n}, normal(), ctx.device);
        auto y = Tensor<1>::random({n}, normal(), ctx.device);
        auto z = Tensor<1>::random({n}, normal(), ctx.device);
        Case c;
        // The result is kept until the next step: a lazy device computes it at the harness's sync (a
        // result nobody holds would never be computed there), and the eager device pays the same.
        auto r = std::make_shared<Tensor<1>>();
        c.step = [x, y, z, r] { *r = activation::relu(x * y + z); };
        c.units = 16.0 * double(n) / 1e9;  // 3 reads and 1 write of 4 bytes: the least traffic
        c.unit = "gbyte";
        return c;
    };
    return w;
}

Workload softmax() {
    Workload w;
    w.name = "softmax";
    w.make = [](const Context& ctx) -> std::optional<Case> {
        const std::size_t m = ctx.gpu ? 16384 : 4096;
        auto x = Tensor<2>::random({m, m}, normal(), ctx.device);
        Case c;
        c.step = [x] { auto r = activation::softmax(x, 1); };
        c.units = 8.0 * double(m) * double(m) / 1e9;
        c.unit = "gbyte";
        return c;
    };
    return w;
}

/// rfft of long signals (burn only; docs/tensors.md): 4 rows of 2^18 points, past the direct matmul's
/// reach, through the factored DFT (src/ops/fft_factored.cpp).
Workload rfft_long() {
    Workload w;
    w.name = "rfft_long";
    w.make = [](const Context& ctx) -> std::optional<Case> {
        const std::size_t n = std::size_t(1) << 18;
        auto x = Tensor<2>::random({4, n}, normal(), ctx.device);
        Case c;
        c.step = [x] { auto r = rfft(x); };
        c.units = 4.0 * double(n) / 1e6;
        c.unit = "msample";
        return c;
    };
    return w;
}

}  // namespace

void add_op_workloads(std::vector<Workload>& table) {
    table.push_back(matmul(256, 0));
    table.push_back(matmul(1024, 1024));
    table.push_back(matmul(2048, 0));
    table.push_back(matmul(0, 4096));
    table.push_back(matmul(0, 8192));
    table.push_back(elementwise());
    table.push_back(softmax());
    table.push_back(rfft_long());
}

}  // namespace bench
