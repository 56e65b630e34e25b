// RMSProp rule, matching torch.optim.RMSprop (single-tensor path of torch 1.13).
#include "burn/optim/rmsprop.hpp"

#include "rule_util.hpp"

namespace burn::optim {

namespace {

using namespace ops;

class RmsPropRule final : public Rule {
  public:
    RmsPropRule(double alpha, double eps, bool centered, double momentum, double wd)
        : alpha_(alpha), eps_(eps), centered_(centered), momentum_(momentum), wd_(wd) {}
    const char* name() const override { return "RmsProp"; }
    double weight_decay() const override { return wd_; }
    std::vector<std::string> state_names() const override {
        return {"square_avg", "grad_avg", "momentum_buffer"};
    }
    std::shared_ptr<const Rule> with_momentum(double momentum) const override {
        auto r = std::make_shared<RmsPropRule>(*this);
        r->momentum_ = momentum;
        return r;
    }

    TensorAny step(double lr, double wd, const TensorAny& param, TensorAny grad,
                   ParamState& s) const override {
        grad = detail::with_l2(std::move(grad), param, wd);
        TensorAny& sq = s.tensors["square_avg"];
        sq = detail::ema(std::move(sq), square(grad), alpha_, 1.0 - alpha_);
        TensorAny avg;
        if (centered_) {
            TensorAny& ga = s.tensors["grad_avg"];
            ga = detail::ema(std::move(ga), grad, alpha_, 1.0 - alpha_);
            avg = sqrt(sub(sq, square(ga)));
        } else {
            avg = sqrt(sq);
        }
        TensorAny update = div(std::move(grad), add_scalar(std::move(avg), eps_));
        if (momentum_ > 0.0) {
            TensorAny& buf = s.tensors["momentum_buffer"];
            buf = buf.defined() ? add(mul_scalar(std::move(buf), momentum_), std::move(update))
                                : std::move(update);
            update = buf;
        }
        return sub(param, mul_scalar(std::move(update), lr));
    }

  private:
    double alpha_, eps_;
    bool centered_;
    double momentum_, wd_;
};

}  // namespace

Optimizer RmsPropConfig::init() const {
    detail::check_range("RmsPropConfig", "alpha", alpha, 0.0, 1.0, false);
    detail::check_non_negative("RmsPropConfig", "epsilon", epsilon);
    detail::check_non_negative("RmsPropConfig", "momentum", momentum);
    detail::check_non_negative("RmsPropConfig", "weight_decay", weight_decay);
    return Optimizer(std::make_shared<RmsPropRule>(alpha, epsilon, centered, momentum, weight_decay),
                     detail::clipping_of("RmsPropConfig", grad_clipping_norm, grad_clipping_value,
                                         grad_clipping_global_norm));
}

}  // namespace burn::optim
