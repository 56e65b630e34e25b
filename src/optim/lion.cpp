// Lion rule (Chen et al. 2023, Algorithm 2: decoupled weight decay).
#include "burn/optim/lion.hpp"

#include "rule_util.hpp"

namespace burn::optim {

namespace {

using namespace ops;

class LionRule final : public Rule {
  public:
    LionRule(double b1, double b2, double wd) : b1_(b1), b2_(b2), wd_(wd) {}
    const char* name() const override { return "Lion"; }
    double weight_decay() const override { return wd_; }
    std::vector<std::string> state_names() const override { return {"exp_avg"}; }

    TensorAny step(double lr, double wd, const TensorAny& param, TensorAny grad,
                   ParamState& s) const override {
        TensorAny p = wd != 0.0 ? mul_scalar(param, 1.0 - lr * wd) : param;
        TensorAny& m = s.tensors["exp_avg"];
        // The update interpolates with beta_1, the stored moment with beta_2 (zero-initialised).
        TensorAny direction = detail::ema(m, grad, b1_, 1.0 - b1_);
        m = detail::ema(std::move(m), std::move(grad), b2_, 1.0 - b2_);
        return sub(std::move(p), mul_scalar(sign(std::move(direction)), lr));
    }

  private:
    double b1_, b2_, wd_;
};

}  // namespace

Optimizer LionConfig::init() const {
    detail::check_range("LionConfig", "beta_1", beta_1, 0.0, 1.0, false);
    detail::check_range("LionConfig", "beta_2", beta_2, 0.0, 1.0, false);
    detail::check_non_negative("LionConfig", "weight_decay", weight_decay);
    return Optimizer(std::make_shared<LionRule>(beta_1, beta_2, weight_decay),
                     detail::clipping_of("LionConfig", grad_clipping_norm, grad_clipping_value,
                                         grad_clipping_global_norm));
}

}  // namespace burn::optim
