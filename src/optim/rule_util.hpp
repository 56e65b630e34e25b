#pragma once
// Helpers shared by the optimizer rules and their configs (private to src/optim).
#include <optional>

#include "burn/optim/optimizer.hpp"

namespace burn::optim::detail {

/// The clipping a config asks for; at most one of the three may be set.
GradientClipping clipping_of(const char* config, const std::optional<double>& norm,
                             const std::optional<double>& value, const std::optional<double>& global_norm);

/// Throws "[config] field must be ..." unless lo <= v (< hi when hi_open, <= hi otherwise) and v is finite.
void check_range(const char* config, const char* field, double v, double lo, double hi, bool hi_open);
inline void check_non_negative(const char* config, const char* field, double v) {
    check_range(config, field, v, 0.0, 1e300, false);
}

/// An exponential moving average: decay * state + weight * x, or weight * x when state is undefined
/// (torch keeps zero-initialised state; 0 * decay + weight * x is the same value). Works in the
/// state's buffer when the caller moves the state in.
TensorAny ema(TensorAny state, TensorAny x, double decay, double weight);

/// The gradient with the L2 penalty added: grad + weight_decay * param (torch's coupled weight decay).
TensorAny with_l2(TensorAny grad, const TensorAny& param, double weight_decay);

}  // namespace burn::optim::detail
