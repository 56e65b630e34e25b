// Adan rule (burn 0.22's adan.rs update, in the per-tensor Rule form).
#include "burn/optim/adan.hpp"

#include <cmath>

#include "rule_util.hpp"

namespace burn::optim {

namespace {

using namespace ops;

class AdanRule final : public Rule {
  public:
    AdanRule(double b1, double b2, double b3, double eps, double wd, bool no_prox)
        : b1_(b1), b2_(b2), b3_(b3), eps_(eps), wd_(wd), no_prox_(no_prox) {}
    const char* name() const override { return "Adan"; }
    double weight_decay() const override { return wd_; }
    std::vector<std::string> state_names() const override {
        return {"exp_avg", "exp_avg_sq", "exp_avg_diff", "pre_grad", "step"};
    }

    TensorAny step(double lr, double wd, const TensorAny& param, TensorAny grad,
                   ParamState& s) const override {
        const double t = (s.scalars["step"] += 1.0);
        TensorAny& prev = s.tensors["pre_grad"];
        TensorAny& m = s.tensors["exp_avg"];
        TensorAny& diff_avg = s.tensors["exp_avg_diff"];
        TensorAny& n = s.tensors["exp_avg_sq"];
        // The first step has no previous gradient: d = 0 (burn starts exp_avg_diff at zeros).
        TensorAny diff =
            prev.defined() ? sub(grad, prev) : full(grad.shape(), 0.0, grad.dtype(), grad.device());
        m = detail::ema(std::move(m), grad, b1_, 1.0 - b1_);
        n = detail::ema(std::move(n), square(add(grad, mul_scalar(diff, b2_))), b3_, 1.0 - b3_);
        diff_avg = detail::ema(std::move(diff_avg), std::move(diff), b2_, 1.0 - b2_);
        prev = std::move(grad);

        TensorAny denom = add_scalar(div_scalar(sqrt(n), std::sqrt(1.0 - std::pow(b3_, t))), eps_);
        TensorAny update =
            add(div_scalar(m, 1.0 - std::pow(b1_, t)), mul_scalar(diff_avg, b2_ / (1.0 - std::pow(b2_, t))));
        TensorAny delta = mul_scalar(div(std::move(update), std::move(denom)), lr);
        const double decay = lr * wd;
        if (no_prox_) return sub(decay != 0.0 ? mul_scalar(param, 1.0 - decay) : param, std::move(delta));
        TensorAny p = sub(param, std::move(delta));
        return decay != 0.0 ? div_scalar(std::move(p), 1.0 + decay) : p;
    }

  private:
    double b1_, b2_, b3_, eps_, wd_;
    bool no_prox_;
};

}  // namespace

Optimizer AdanConfig::init() const {
    detail::check_range("AdanConfig", "beta_1", beta_1, 0.0, 1.0, true);
    detail::check_range("AdanConfig", "beta_2", beta_2, 0.0, 1.0, true);
    detail::check_range("AdanConfig", "beta_3", beta_3, 0.0, 1.0, true);
    detail::check_non_negative("AdanConfig", "epsilon", epsilon);
    detail::check_non_negative("AdanConfig", "weight_decay", weight_decay);
    return Optimizer(std::make_shared<AdanRule>(beta_1, beta_2, beta_3, epsilon, weight_decay, no_prox),
                     detail::clipping_of("AdanConfig", grad_clipping_norm, grad_clipping_value,
                                         grad_clipping_global_norm));
}

}  // namespace burn::optim
