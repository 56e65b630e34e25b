#include "burn/nn/initializer.hpp"

#include <cmath>
#include <vector>

#include "burn/tensor/data.hpp"

namespace burn::nn {

namespace {

/// gain * Q of a standard normal [rows, cols] matrix (torch.nn.init.orthogonal_), computed in double:
/// Q of the taller orientation by modified Gram-Schmidt run twice (orthogonal to rounding, R's
/// diagonal positive, which is torch's sign correction), transposed back for wide matrices.
TensorAny orthogonal(const Dims& shape, double gain, const Device& device, DType dtype) {
    // A layer passes its initializer to its bias too: biases (rank < 2) start at zero, the usual companion
    // of orthogonal weights (torch.nn.init.orthogonal_ itself refuses them).
    if (shape.rank() < 2) return ops::full(shape, 0.0, dtype, device);
    const int64_t rows = shape[0];
    const int64_t cols = rows == 0 ? 0 : shape.numel() / rows;
    if (shape.numel() == 0) return ops::full(shape, 0.0, dtype, device);
    std::vector<double> g =
        ops::into_data(ops::random(Dims{rows, cols}, Distribution::Normal(0, 1), DType::f64, device))
            .to_vec<double>();
    const bool wide = rows < cols;
    const int64_t m = wide ? cols : rows;  // the long side: vectors have m entries
    const int64_t n = wide ? rows : cols;  // the number of vectors to orthonormalise
    // q[j] is column j of the tall matrix (row j of the wide one).
    std::vector<std::vector<double>> q(static_cast<std::size_t>(n),
                                       std::vector<double>(static_cast<std::size_t>(m)));
    for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j)
            (wide ? q[i][j] : q[j][i]) = g[static_cast<std::size_t>(i * cols + j)];
    for (int64_t j = 0; j < n; ++j) {
        auto& v = q[j];
        for (int pass = 0; pass < 2; ++pass)
            for (int64_t k = 0; k < j; ++k) {
                double dot = 0;
                for (int64_t e = 0; e < m; ++e) dot += q[k][e] * v[e];
                for (int64_t e = 0; e < m; ++e) v[e] -= dot * q[k][e];
            }
        double norm = 0;
        for (double x : v) norm += x * x;
        norm = std::sqrt(norm);
        BURN_CHECK(norm > 0,
                   "[Initializer] orthogonal: the random matrix is rank-deficient; try another seed");
        for (double& x : v) x /= norm;
    }
    std::vector<double> out(static_cast<std::size_t>(rows * cols));
    for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j)
            out[static_cast<std::size_t>(i * cols + j)] = gain * (wide ? q[i][j] : q[j][i]);
    return ops::cast(ops::from_data(TensorData(out, shape), device), dtype);
}

}  // namespace

TensorAny Initializer::init_any(const Dims& shape, std::optional<int64_t> fan_in,
                                std::optional<int64_t> fan_out, const Device& device, DType dtype) const {
    auto need = [&](const std::optional<int64_t>& f, const char* what) {
        BURN_CHECK(f.has_value() && *f > 0, "[Initializer] ", what, " is needed for this initializer (shape ",
                   shape, ")");
        return static_cast<double>(*f);
    };
    switch (kind) {
        case InitializerKind::constant:
            return ops::full(shape, a, dtype, device);
        case InitializerKind::ones:
            return ops::full(shape, 1.0, dtype, device);
        case InitializerKind::zeros:
            return ops::full(shape, 0.0, dtype, device);
        case InitializerKind::uniform:
            return ops::random(shape, Distribution::Uniform(a, b), dtype, device);
        case InitializerKind::normal:
            return ops::random(shape, Distribution::Normal(a, b), dtype, device);
        case InitializerKind::kaiming_uniform: {
            double fan = fan_out_only ? need(fan_out, "fan_out") : need(fan_in, "fan_in");
            double bound = gain * std::sqrt(3.0 / fan);
            return ops::random(shape, Distribution::Uniform(-bound, bound), dtype, device);
        }
        case InitializerKind::kaiming_normal: {
            double fan = fan_out_only ? need(fan_out, "fan_out") : need(fan_in, "fan_in");
            return ops::random(shape, Distribution::Normal(0, gain / std::sqrt(fan)), dtype, device);
        }
        case InitializerKind::xavier_uniform: {
            double bound = gain * std::sqrt(6.0 / (need(fan_in, "fan_in") + need(fan_out, "fan_out")));
            return ops::random(shape, Distribution::Uniform(-bound, bound), dtype, device);
        }
        case InitializerKind::xavier_normal: {
            double std = gain * std::sqrt(2.0 / (need(fan_in, "fan_in") + need(fan_out, "fan_out")));
            return ops::random(shape, Distribution::Normal(0, std), dtype, device);
        }
        case InitializerKind::orthogonal:
            return orthogonal(shape, gain, device, dtype);
    }
    BURN_THROW("[Initializer] unknown kind");
}

}  // namespace burn::nn
