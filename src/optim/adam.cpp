// Adam, AdamW and SGD rules, matching torch.optim's update equations.
#include "burn/optim/adam.hpp"

#include <cmath>

namespace burn::optim {

namespace {

using namespace ops;

GradientClipping clipping_of(const std::optional<double>& norm, const std::optional<double>& value) {
    BURN_CHECK(!(norm && value), "[optimizer] choose one of grad_clipping_norm and grad_clipping_value");
    if (norm) return GradientClipping::Norm(*norm);
    if (value) return GradientClipping::Value(*value);
    return {};
}

class AdamRule final : public Rule {
public:
    AdamRule(double b1, double b2, double eps, double wd, bool decoupled, bool amsgrad)
        : b1_(b1), b2_(b2), eps_(eps), wd_(wd), decoupled_(decoupled), amsgrad_(amsgrad) {}
    const char* name() const override { return decoupled_ ? "AdamW" : "Adam"; }

    TensorAny step(double lr, const TensorAny& param, TensorAny grad, ParamState& s) const override {
        TensorAny p = param;
        if (wd_ != 0.0) {
            if (decoupled_) p = mul_scalar(p, 1.0 - lr * wd_);
            else grad = add(std::move(grad), mul_scalar(param, wd_));
        }
        double t = (s.scalars["step"] += 1.0);
        auto& m = s.tensors["exp_avg"];
        auto& v = s.tensors["exp_avg_sq"];
        m = m.defined() ? add(mul_scalar(std::move(m), b1_), mul_scalar(grad, 1.0 - b1_)) : mul_scalar(grad, 1.0 - b1_);
        auto g2 = mul_scalar(square(grad), 1.0 - b2_);
        v = v.defined() ? add(mul_scalar(std::move(v), b2_), std::move(g2)) : std::move(g2);
        TensorAny vv = v;
        if (amsgrad_) {
            auto& vmax = s.tensors["max_exp_avg_sq"];
            vmax = vmax.defined() ? max_pair(std::move(vmax), v) : v;
            vv = vmax;
        }
        double bc1 = 1.0 - std::pow(b1_, t), bc2 = 1.0 - std::pow(b2_, t);
        // torch: p -= lr / bc1 * m / (sqrt(v) / sqrt(bc2) + eps)
        auto denom = add_scalar(div_scalar(sqrt(vv), std::sqrt(bc2)), eps_);
        return sub(std::move(p), mul_scalar(div(m, std::move(denom)), lr / bc1));
    }

private:
    double b1_, b2_, eps_, wd_;
    bool decoupled_, amsgrad_;
};

class SgdRule final : public Rule {
public:
    SgdRule(double momentum, double dampening, bool nesterov, double wd)
        : momentum_(momentum), dampening_(dampening), nesterov_(nesterov), wd_(wd) {}
    const char* name() const override { return "Sgd"; }

    TensorAny step(double lr, const TensorAny& param, TensorAny grad, ParamState& s) const override {
        if (wd_ != 0.0) grad = add(std::move(grad), mul_scalar(param, wd_));
        if (momentum_ != 0.0) {
            auto& buf = s.tensors["momentum_buffer"];
            buf = buf.defined() ? add(mul_scalar(std::move(buf), momentum_), mul_scalar(grad, 1.0 - dampening_)) : grad;
            grad = nesterov_ ? add(std::move(grad), mul_scalar(buf, momentum_)) : buf;
        }
        return sub(param, mul_scalar(std::move(grad), lr));
    }

private:
    double momentum_, dampening_;
    bool nesterov_;
    double wd_;
};

void check_betas(double b1, double b2, double eps, const char* name) {
    BURN_CHECK(b1 >= 0 && b1 < 1 && b2 >= 0 && b2 < 1, "[", name, "] betas must be in [0, 1), got ", b1, ", ", b2);
    BURN_CHECK(eps >= 0, "[", name, "] epsilon must be non-negative, got ", eps);
}

}  // namespace

Optimizer AdamConfig::init() const {
    check_betas(beta_1, beta_2, epsilon, "AdamConfig");
    return Optimizer(std::make_shared<AdamRule>(beta_1, beta_2, epsilon, weight_decay, false, false),
                     clipping_of(grad_clipping_norm, grad_clipping_value));
}

Optimizer AdamWConfig::init() const {
    check_betas(beta_1, beta_2, epsilon, "AdamWConfig");
    return Optimizer(std::make_shared<AdamRule>(beta_1, beta_2, epsilon, weight_decay, true, amsgrad),
                     clipping_of(grad_clipping_norm, grad_clipping_value));
}

Optimizer SgdConfig::init() const {
    BURN_CHECK(momentum >= 0, "[SgdConfig] momentum must be non-negative, got ", momentum);
    BURN_CHECK(!nesterov || (momentum > 0 && dampening == 0),
               "[SgdConfig] Nesterov momentum needs momentum > 0 and dampening 0");
    return Optimizer(std::make_shared<SgdRule>(momentum, dampening, nesterov, weight_decay),
                     clipping_of(grad_clipping_norm, grad_clipping_value));
}

}  // namespace burn::optim
