// Adam and AdamW rules, matching torch.optim.Adam / AdamW (single-tensor path of torch 1.13).
#include "burn/optim/adam.hpp"

#include <cmath>

#include "ops/optim_ops.hpp"
#include "rule_util.hpp"

namespace burn::optim {

namespace {

using namespace ops;

class AdamRule final : public Rule {
  public:
    AdamRule(double b1, double b2, double eps, double wd, bool decoupled, bool amsgrad)
        : b1_(b1), b2_(b2), eps_(eps), wd_(wd), decoupled_(decoupled), amsgrad_(amsgrad) {}
    const char* name() const override { return decoupled_ ? "AdamW" : "Adam"; }
    double weight_decay() const override { return wd_; }
    std::vector<std::string> state_names() const override {
        return {"exp_avg", "exp_avg_sq", "max_exp_avg_sq", "step"};
    }

    TensorAny step(double lr, double wd, const TensorAny& param, TensorAny grad,
                   ParamState& s) const override {
        double t = (s.scalars["step"] += 1.0);
        double bc1 = 1.0 - std::pow(b1_, t), bc2_sqrt = std::sqrt(1.0 - std::pow(b2_, t));
        // torch: p -= lr / bc1 * m / (sqrt(v) / sqrt(bc2) + eps), computed with the scalars folded:
        // p -= (lr * sqrt(bc2) / bc1) * m / (sqrt(v) + eps * sqrt(bc2)).
        const double step_size = lr * bc2_sqrt / bc1, eps = eps_ * bc2_sqrt;
        if (!amsgrad_)
            return fused(param, std::move(grad), s, {b1_, b2_, step_size, eps, decay(lr, wd), l2(wd)});

        TensorAny p = decay(lr, wd) != 1.0 ? mul_scalar(param, decay(lr, wd)) : param;
        grad = detail::with_l2(std::move(grad), param, l2(wd));
        TensorAny& m = s.tensors["exp_avg"];
        TensorAny& v = s.tensors["exp_avg_sq"];
        m = detail::ema(std::move(m), grad, b1_, 1.0 - b1_);
        v = detail::ema(std::move(v), square(std::move(grad)), b2_, 1.0 - b2_);
        TensorAny& vmax = s.tensors["max_exp_avg_sq"];
        vmax = vmax.defined() ? max_pair(std::move(vmax), v) : v;
        TensorAny denom = add_scalar(sqrt(vmax), eps);
        return sub(std::move(p), mul_scalar(div(m, std::move(denom)), step_size));
    }

  private:
    // Decoupled weight decay scales the parameter (AdamW); coupled adds an L2 term to the gradient.
    double decay(double lr, double wd) const { return decoupled_ ? 1.0 - lr * wd : 1.0; }
    double l2(double wd) const { return decoupled_ ? 0.0 : wd; }

    // One pass over parameter, gradient and moments (ops.def adam_step); the moments are moved in so
    // that the kernel updates them in place. Zero moments before the first step, as torch.
    static TensorAny fused(const TensorAny& param, TensorAny grad, ParamState& s,
                           const ops::AdamStepHyper& h) {
        auto moment = [&](const char* name) {
            TensorAny t = std::move(s.tensors[name]);
            return t.defined() ? t : full(param.shape(), 0.0, param.dtype(), param.device());
        };
        TensorAny m = moment("exp_avg");
        TensorAny v = moment("exp_avg_sq");
        auto [p, m2, v2] = adam_step(param, std::move(grad), std::move(m), std::move(v), h);
        s.tensors["exp_avg"] = std::move(m2);
        s.tensors["exp_avg_sq"] = std::move(v2);
        return p;
    }

    double b1_, b2_, eps_, wd_;
    bool decoupled_, amsgrad_;
};

void check_adam(const char* config, double b1, double b2, double eps, double wd) {
    detail::check_range(config, "beta_1", b1, 0.0, 1.0, true);
    detail::check_range(config, "beta_2", b2, 0.0, 1.0, true);
    detail::check_non_negative(config, "epsilon", eps);
    detail::check_non_negative(config, "weight_decay", wd);
}

}  // namespace

Optimizer AdamConfig::init() const {
    check_adam("AdamConfig", beta_1, beta_2, epsilon, weight_decay);
    return Optimizer(std::make_shared<AdamRule>(beta_1, beta_2, epsilon, weight_decay, false, false),
                     detail::clipping_of("AdamConfig", grad_clipping_norm, grad_clipping_value,
                                         grad_clipping_global_norm));
}

Optimizer AdamWConfig::init() const {
    check_adam("AdamWConfig", beta_1, beta_2, epsilon, weight_decay);
    return Optimizer(std::make_shared<AdamRule>(beta_1, beta_2, epsilon, weight_decay, true, amsgrad),
                     detail::clipping_of("AdamWConfig", grad_clipping_norm, grad_clipping_value,
                                         grad_clipping_global_norm));
}

}  // namespace burn::optim
