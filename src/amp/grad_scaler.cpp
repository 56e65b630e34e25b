// GradScaler (burn/amp/grad_scaler.hpp): torch.amp.GradScaler's dynamic loss scaling.
#include "burn/amp/grad_scaler.hpp"

#include <cmath>
#include <vector>

#include "burn/core/error.hpp"
#include "burn/tensor/ops.hpp"

namespace burn::amp {

GradScaler::GradScaler(GradScalerConfig config) : config_(config), scale_(config.init_scale) {
    BURN_CHECK(std::isfinite(config.init_scale) && config.init_scale > 0,
               "[GradScaler] init_scale must be finite and positive, got ", config.init_scale);
    BURN_CHECK(std::isfinite(config.growth_factor) && config.growth_factor > 1.0,
               "[GradScaler] growth_factor must be > 1, got ", config.growth_factor);
    BURN_CHECK(config.backoff_factor > 0.0 && config.backoff_factor < 1.0,
               "[GradScaler] backoff_factor must be in (0, 1), got ", config.backoff_factor);
    BURN_CHECK(config.growth_interval >= 1, "[GradScaler] growth_interval must be >= 1, got ",
               config.growth_interval);
}

TensorAny GradScaler::scale(const TensorAny& loss) const {
    BURN_CHECK(loss.defined(), "[GradScaler::scale] the loss is undefined");
    BURN_CHECK_KIND(is_float(loss.dtype()), dtype, "[GradScaler::scale] the loss is ", loss.dtype(),
                    ", not a float tensor");
    if (!config_.enabled) return loss;
    return ops::mul_scalar(loss, scale_);
}

bool GradScaler::unscale(optim::GradientsParams& grads) {
    BURN_CHECK(!unscaled_,
               "[GradScaler::unscale] already called this step; call update() after the optimizer "
               "step before unscaling again");
    unscaled_ = true;
    found_inf_ = false;
    if (!config_.enabled) return false;
    const double inv = 1.0 / scale_;  // exact for the powers of two the default settings give
    std::vector<uint64_t> ids;
    ids.reserve(grads.size());
    for (const auto& [id, g] : grads.items()) ids.push_back(id);
    // sum(g * 0) is 0 for finite g and NaN once any element is inf or NaN: one multiply and one reduction
    // per gradient, one read from the device for all of them.
    TensorAny flag;
    for (uint64_t id : ids) {
        TensorAny g = ops::mul_scalar(*grads.remove(ParamId(id)), inv);
        TensorAny f = ops::cast(ops::sum(ops::mul_scalar(g, 0.0)), DType::f32);
        flag = flag.defined() ? ops::add(std::move(flag), f) : f;
        grads.set(ParamId(id), std::move(g));
    }
    if (flag.defined())
        found_inf_ = !std::isfinite(ops::into_data(ops::cast(flag, DType::f64)).to_vec<double>()[0]);
    return found_inf_;
}

void GradScaler::update() {
    if (!config_.enabled) return;
    BURN_CHECK(unscaled_ || stepped_,
               "[GradScaler::update] no unscale() or step() since the last update; "
               "call scaler.step(optimizer, lr, model, grads) first");
    if (found_inf_) {
        scale_ *= config_.backoff_factor;
        growth_tracker_ = 0;
    } else if (++growth_tracker_ >= config_.growth_interval) {
        const double grown = scale_ * config_.growth_factor;
        if (std::isfinite(grown)) scale_ = grown;  // as torch: never grow into inf
        growth_tracker_ = 0;
    }
    unscaled_ = stepped_ = found_inf_ = false;
}

}  // namespace burn::amp
