#pragma once
/// Dynamic loss scaling for f16 autocast (torch.amp.GradScaler; docs/mixed_precision.md). f16 has 5
/// exponent bits: gradients below ~6e-8 flush to zero. Scaling the loss by S scales every gradient by S
/// into f16's range; the scaler divides them back before the optimizer step, skips the step when any
/// gradient is inf or NaN (the scale was too large) and halves S, and doubles S after growth_interval
/// finite steps in a row.
///
///     amp::GradScaler scaler;                       // init 65536, x2 / x0.5, interval 2000
///     auto loss = ...;                              // under autocast::Guard amp(DType::f16)
///     auto grads = GradientsParams::from_grads(scaler.scale(loss).backward(), model);
///     model = scaler.step(optimizer, lr, std::move(model), grads);   // unscale, check, step or skip
///     scaler.update();                              // back off or grow the scale
///
/// bf16 has float32's exponent range and needs no scaler (enabled = false makes every call a no-op).
#include <cstddef>
#include <cstdint>

#include "burn/optim/gradients_params.hpp"
#include "burn/optim/optimizer.hpp"
#include "burn/tensor/tensor.hpp"

namespace burn::amp {

struct GradScalerConfig {
    double init_scale = 65536.0;  // 2^16
    double growth_factor = 2.0;
    double backoff_factor = 0.5;
    int64_t growth_interval = 2000;
    bool enabled = true;
};

class GradScaler {
  public:
    /// Throws when init_scale is not finite and positive, growth_factor <= 1, backoff_factor not in
    /// (0, 1) or growth_interval < 1.
    explicit GradScaler(GradScalerConfig config = {});

    /// loss * scale: call backward() on this. The loss itself when disabled.
    template <std::size_t D>
    Tensor<D> scale(const Tensor<D>& loss) const {
        return Tensor<D>(scale(TensorAny(loss.handle())));
    }
    TensorAny scale(const TensorAny& loss) const;

    /// Divides every gradient of grads by the scale (in grads) and records whether any is inf or NaN
    /// (one read from the device). Returns that. Once per step: a second call before update() throws.
    bool unscale(optim::GradientsParams& grads);

    /// Unscales (unless unscale() ran this step) and, when every gradient is finite, returns
    /// optimizer.step(lr, module, grads); otherwise returns the module unchanged, clears grads and
    /// counts the step as skipped (the optimizer's state, step count included, is untouched).
    template <class M>
    M step(optim::Optimizer& optimizer, double lr, M module, optim::GradientsParams& grads) {
        if (!config_.enabled) return optimizer.step(lr, std::move(module), grads);
        if (!unscaled_) unscale(grads);
        stepped_ = true;
        if (found_inf_) {
            ++skipped_;
            grads = optim::GradientsParams();
            return module;
        }
        return optimizer.step(lr, std::move(module), grads);
    }

    /// Ends the step: scale * backoff_factor when it found an inf/NaN (and the growth count restarts),
    /// else one more finite step, and scale * growth_factor when they reach growth_interval. Throws
    /// when neither unscale() nor step() ran since the last update.
    void update();

    double get_scale() const { return scale_; }
    /// Finite steps since the last change of scale.
    int64_t growth_tracker() const { return growth_tracker_; }
    /// Whether this step's gradients held an inf or NaN (valid after unscale() or step()).
    bool found_inf() const { return found_inf_; }
    int64_t skipped_steps() const { return skipped_; }
    bool enabled() const { return config_.enabled; }
    const GradScalerConfig& config() const { return config_; }

  private:
    GradScalerConfig config_;
    double scale_;
    int64_t growth_tracker_ = 0;
    int64_t skipped_ = 0;
    bool unscaled_ = false;
    bool stepped_ = false;
    bool found_inf_ = false;
};

}  // namespace burn::amp
