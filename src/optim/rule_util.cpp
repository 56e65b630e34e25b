// Helpers shared by the optimizer rules and their configs.
#include "rule_util.hpp"

#include <cmath>

namespace burn::optim::detail {

GradientClipping clipping_of(const char* config, const std::optional<double>& norm,
                             const std::optional<double>& value, const std::optional<double>& global_norm) {
    BURN_CHECK(int(norm.has_value()) + int(value.has_value()) + int(global_norm.has_value()) <= 1, "[",
               config,
               "] choose one of grad_clipping_norm, grad_clipping_value and grad_clipping_global_norm");
    if (norm) return GradientClipping::Norm(*norm);
    if (value) return GradientClipping::Value(*value);
    if (global_norm) return GradientClipping::GlobalNorm(*global_norm);
    return {};
}

void check_range(const char* config, const char* field, double v, double lo, double hi, bool hi_open) {
    bool ok = std::isfinite(v) && v >= lo && (hi_open ? v < hi : v <= hi);
    if (ok) return;
    if (hi >= 1e300) BURN_THROW("[", config, "] ", field, " must be a finite number >= ", lo, ", got ", v);
    BURN_THROW("[", config, "] ", field, " must be in [", lo, ", ", hi, hi_open ? ")" : "]", ", got ", v);
}

TensorAny ema(TensorAny state, TensorAny x, double decay, double weight) {
    if (!state.defined()) return ops::mul_scalar(std::move(x), weight);
    if (weight == 0.0) return ops::mul_scalar(std::move(state), decay);
    // weight * (state * (decay / weight) + x): every op can write into the state's buffer, so no
    // temporary is allocated even when x is still needed (differs from torch by rounding only).
    return ops::mul_scalar(ops::add(ops::mul_scalar(std::move(state), decay / weight), std::move(x)), weight);
}

TensorAny with_l2(TensorAny grad, const TensorAny& param, double weight_decay) {
    if (weight_decay == 0.0) return grad;
    return ops::add(std::move(grad), ops::mul_scalar(param, weight_decay));
}

}  // namespace burn::optim::detail
