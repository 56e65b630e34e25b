#include "burn/optim/optimizer.hpp"

#include <cmath>

namespace burn::optim {

std::optional<TensorAny> GradientsParams::get(ParamId id) const {
    auto it = grads_.find(id.value());
    if (it == grads_.end()) return std::nullopt;
    return it->second;
}

std::optional<TensorAny> GradientsParams::remove(ParamId id) {
    auto it = grads_.find(id.value());
    if (it == grads_.end()) return std::nullopt;
    TensorAny g = std::move(it->second);
    grads_.erase(it);
    return g;
}

void GradientsParams::set(ParamId id, TensorAny grad) { grads_[id.value()] = std::move(grad); }

TensorAny GradientClipping::apply(TensorAny grad) const {
    switch (kind) {
        case ClipKind::none: return grad;
        case ClipKind::value: return ops::clamp(std::move(grad), -threshold, threshold);
        case ClipKind::norm: {
            double norm = std::sqrt(ops::into_data(ops::cast(ops::sum(ops::square(grad)), DType::f64)).value_as_double(0));
            if (norm <= threshold || norm == 0.0) return grad;
            return ops::mul_scalar(std::move(grad), threshold / (norm + 1e-6));
        }
    }
    return grad;
}

TensorAny Optimizer::update(double lr, ParamId id, const TensorAny& param, TensorAny grad) {
    TensorAny inner = ops::inner_of(param);
    grad = ops::inner_of(grad);
    BURN_CHECK_KIND(grad.shape() == inner.shape(), shape, "[optimizer ", rule_->name(), "] gradient of shape ",
                    grad.shape(), " for a parameter of shape ", inner.shape());
    if (grad.dtype() != inner.dtype()) grad = ops::cast(std::move(grad), inner.dtype());
    grad = clipping_.apply(std::move(grad));
    TensorAny updated = rule_->step(lr, inner, std::move(grad), states_[id.value()]);
    return ops::to_device(std::move(updated), param.device());
}

}  // namespace burn::optim
