// Adam and AdamW rules, matching torch.optim.Adam / AdamW (single-tensor path of torch 1.13).
#include "burn/optim/adam.hpp"

#include <cmath>

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
        TensorAny p = param;
        if (decoupled_) {
            if (wd != 0.0) p = mul_scalar(std::move(p), 1.0 - lr * wd);
        } else {
            grad = detail::with_l2(std::move(grad), param, wd);
        }
        double t = (s.scalars["step"] += 1.0);
        TensorAny& m = s.tensors["exp_avg"];
        TensorAny& v = s.tensors["exp_avg_sq"];
        m = detail::ema(std::move(m), grad, b1_, 1.0 - b1_);
        v = detail::ema(std::move(v), square(std::move(grad)), b2_, 1.0 - b2_);
        TensorAny second = v;
        if (amsgrad_) {
            TensorAny& vmax = s.tensors["max_exp_avg_sq"];
            vmax = vmax.defined() ? max_pair(std::move(vmax), v) : v;
            second = vmax;
        }
        double bc1 = 1.0 - std::pow(b1_, t), bc2_sqrt = std::sqrt(1.0 - std::pow(b2_, t));
        // torch: p -= lr / bc1 * m / (sqrt(v) / sqrt(bc2) + eps), computed with the scalars folded:
        // p -= (lr * sqrt(bc2) / bc1) * m / (sqrt(v) + eps * sqrt(bc2)), one pass fewer.
        TensorAny denom = add_scalar(sqrt(std::move(second)), eps_ * bc2_sqrt);
        return sub(std::move(p), mul_scalar(div(m, std::move(denom)), lr * bc2_sqrt / bc1));
    }

  private:
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
