#include "burn/nn/initializer.hpp"

#include <cmath>

namespace burn::nn {

TensorAny Initializer::init_any(const Dims& shape, std::optional<int64_t> fan_in, std::optional<int64_t> fan_out,
                                const Device& device, DType dtype) const {
    auto need = [&](const std::optional<int64_t>& f, const char* what) {
        BURN_CHECK(f.has_value() && *f > 0, "[Initializer] ", what, " is needed for this initializer (shape ",
                   shape, ")");
        return static_cast<double>(*f);
    };
    switch (kind) {
        case InitializerKind::constant: return ops::full(shape, a, dtype, device);
        case InitializerKind::ones: return ops::full(shape, 1.0, dtype, device);
        case InitializerKind::zeros: return ops::full(shape, 0.0, dtype, device);
        case InitializerKind::uniform: return ops::random(shape, Distribution::Uniform(a, b), dtype, device);
        case InitializerKind::normal: return ops::random(shape, Distribution::Normal(a, b), dtype, device);
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
    }
    BURN_THROW("[Initializer] unknown kind");
}

}  // namespace burn::nn
