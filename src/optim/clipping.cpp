// Gradient clipping by value, per-tensor norm and global norm (torch.nn.utils.clip_grad_*).
#include "burn/optim/clipping.hpp"

#include <algorithm>
#include <cmath>

#include "burn/tensor/ops.hpp"

namespace burn::optim {

namespace {

GradientClipping checked(ClipKind kind, double threshold, const char* name) {
    BURN_CHECK(std::isfinite(threshold) && threshold > 0, "[GradientClipping::", name,
               "] the threshold must be a positive finite number, got ", threshold);
    return {kind, threshold};
}

// torch: clip_coef = max_norm / (total_norm + 1e-6), clamped to at most 1.
double clip_coef(double threshold, double norm) {
    return std::min(1.0, threshold / (norm + 1e-6));
}

}  // namespace

GradientClipping GradientClipping::Value(double v) {
    return checked(ClipKind::value, v, "Value");
}
GradientClipping GradientClipping::Norm(double n) {
    return checked(ClipKind::norm, n, "Norm");
}
GradientClipping GradientClipping::GlobalNorm(double n) {
    return checked(ClipKind::global_norm, n, "GlobalNorm");
}

double l2_norm(const TensorAny& t) {
    if (t.numel() == 0) return 0.0;
    // Half types would overflow when squared: square in f32. f32 sums accumulate carefully already.
    bool half = t.dtype() == DType::f16 || t.dtype() == DType::bf16;
    TensorAny x = half ? ops::cast(t, DType::f32) : t;
    return std::sqrt(ops::into_data(ops::sum(ops::square(std::move(x)))).value_as_double(0));
}

TensorAny GradientClipping::apply(TensorAny grad) const {
    switch (kind) {
        case ClipKind::none:
            return grad;
        case ClipKind::value:
            return ops::clamp(std::move(grad), -threshold, threshold);
        case ClipKind::norm: {
            double coef = clip_coef(threshold, l2_norm(grad));
            return coef < 1.0 ? ops::mul_scalar(std::move(grad), coef) : grad;
        }
        case ClipKind::global_norm:
            BURN_THROW(
                "[GradientClipping::apply] GlobalNorm clips all gradients of a step together: use apply_all");
    }
    return grad;
}

void GradientClipping::apply_all(std::vector<TensorAny>& grads) const {
    if (kind != ClipKind::global_norm) {
        for (auto& g : grads) g = apply(std::move(g));
        return;
    }
    double total = 0.0;
    for (const auto& g : grads) {
        double n = l2_norm(g);
        total += n * n;
    }
    double coef = clip_coef(threshold, std::sqrt(total));
    if (coef >= 1.0) return;
    for (auto& g : grads) g = ops::mul_scalar(std::move(g), coef);
}

}  // namespace burn::optim
