// SGD rule, matching torch.optim.SGD (single-tensor path of torch 1.13).
#include "burn/optim/sgd.hpp"

#include "rule_util.hpp"

namespace burn::optim {

namespace {

using namespace ops;

class SgdRule final : public Rule {
  public:
    SgdRule(double momentum, double dampening, bool nesterov, double wd)
        : momentum_(momentum), dampening_(dampening), nesterov_(nesterov), wd_(wd) {}
    const char* name() const override { return "Sgd"; }
    double weight_decay() const override { return wd_; }
    std::vector<std::string> state_names() const override { return {"momentum_buffer"}; }
    std::shared_ptr<const Rule> with_momentum(double momentum) const override {
        auto r = std::make_shared<SgdRule>(*this);
        r->momentum_ = momentum;
        return r;
    }

    TensorAny step(double lr, double wd, const TensorAny& param, TensorAny grad,
                   ParamState& s) const override {
        grad = detail::with_l2(std::move(grad), param, wd);
        if (momentum_ != 0.0) {
            TensorAny& buf = s.tensors["momentum_buffer"];
            // The first step keeps the gradient itself (torch: buf = clone(d_p)), later ones dampen it.
            buf = buf.defined() ? detail::ema(std::move(buf), grad, momentum_, 1.0 - dampening_) : grad;
            grad = nesterov_ ? add(std::move(grad), mul_scalar(buf, momentum_)) : buf;
        }
        return sub(param, mul_scalar(std::move(grad), lr));
    }

  private:
    double momentum_, dampening_;
    bool nesterov_;
    double wd_;
};

}  // namespace

Optimizer SgdConfig::init() const {
    detail::check_non_negative("SgdConfig", "momentum", momentum);
    detail::check_range("SgdConfig", "dampening", dampening, 0.0, 1.0, false);
    detail::check_non_negative("SgdConfig", "weight_decay", weight_decay);
    BURN_CHECK(!nesterov || (momentum > 0 && dampening == 0),
               "[SgdConfig] Nesterov momentum needs momentum > 0 and dampening 0, got momentum ", momentum,
               " and dampening ", dampening);
    return Optimizer(
        std::make_shared<SgdRule>(momentum, dampening, nesterov, weight_decay),
        detail::clipping_of("SgdConfig", grad_clipping_norm, grad_clipping_value, grad_clipping_global_norm));
}

}  // namespace burn::optim
