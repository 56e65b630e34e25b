// AdaGrad rule, matching torch.optim.Adagrad (dense path of torch 1.13, initial accumulator 0).
#include "burn/optim/adagrad.hpp"

#include "rule_util.hpp"

namespace burn::optim {

namespace {

using namespace ops;

class AdaGradRule final : public Rule {
  public:
    AdaGradRule(double lr_decay, double eps, double wd) : lr_decay_(lr_decay), eps_(eps), wd_(wd) {}
    const char* name() const override { return "AdaGrad"; }
    double weight_decay() const override { return wd_; }
    std::vector<std::string> state_names() const override { return {"sum", "step"}; }

    TensorAny step(double lr, double wd, const TensorAny& param, TensorAny grad,
                   ParamState& s) const override {
        double t = (s.scalars["step"] += 1.0);
        grad = detail::with_l2(std::move(grad), param, wd);
        double clr = lr / (1.0 + (t - 1.0) * lr_decay_);
        TensorAny& sum = s.tensors["sum"];
        sum = sum.defined() ? add(std::move(sum), square(grad)) : square(grad);
        TensorAny std_ = add_scalar(sqrt(sum), eps_);
        return sub(param, mul_scalar(div(std::move(grad), std::move(std_)), clr));
    }

  private:
    double lr_decay_, eps_, wd_;
};

}  // namespace

Optimizer AdaGradConfig::init() const {
    detail::check_non_negative("AdaGradConfig", "lr_decay", lr_decay);
    detail::check_non_negative("AdaGradConfig", "epsilon", epsilon);
    detail::check_non_negative("AdaGradConfig", "weight_decay", weight_decay);
    return Optimizer(std::make_shared<AdaGradRule>(lr_decay, epsilon, weight_decay),
                     detail::clipping_of("AdaGradConfig", grad_clipping_norm, grad_clipping_value,
                                         grad_clipping_global_norm));
}

}  // namespace burn::optim
