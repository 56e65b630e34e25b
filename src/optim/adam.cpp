// Adam and AdamW rules, matching torch.optim.Adam / AdamW (single-tensor path of torch 1.13).
#include "burn/optim/adam.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "ops/optim_ops.hpp"
#include "rule_util.hpp"

namespace burn::optim {

namespace {

using namespace ops;

class AdamRule final : public Rule {
  public:
    AdamRule(double b1, double b2, double eps, double wd, bool decoupled, bool amsgrad, bool cautious = false)
        : b1_(b1),
          b2_(b2),
          eps_(eps),
          wd_(wd),
          decoupled_(decoupled),
          amsgrad_(amsgrad),
          cautious_(cautious) {}
    const char* name() const override { return decoupled_ ? "AdamW" : "Adam"; }
    double weight_decay() const override { return wd_; }
    std::vector<std::string> state_names() const override {
        return {"exp_avg", "exp_avg_sq", "max_exp_avg_sq", "step"};
    }
    std::shared_ptr<const Rule> with_momentum(double momentum) const override {  // beta_1, as torch cycles it
        auto r = std::make_shared<AdamRule>(*this);
        r->b1_ = momentum;
        return r;
    }

    TensorAny step(double lr, double wd, const TensorAny& param, TensorAny grad,
                   ParamState& s) const override {
        double t = (s.scalars["step"] += 1.0);
        // torch: p -= lr / bc1 * m / (sqrt(v) / sqrt(bc2) + eps), computed with the scalars folded:
        // p -= (lr * sqrt(bc2) / bc1) * m / (sqrt(v) + eps * sqrt(bc2)).
        const ops::AdamStepHyper h = hyper(lr, wd, t);
        const double step_size = h.step_size, eps = h.eps;
        const bool cautious = cautious_ && decoupled_ && wd != 0.0;
        if (!amsgrad_ && !cautious) return fused(param, std::move(grad), s, h);

        TensorAny p = !cautious && decay(lr, wd) != 1.0 ? mul_scalar(param, decay(lr, wd)) : param;
        grad = detail::with_l2(std::move(grad), param, l2(wd));
        TensorAny& m = s.tensors["exp_avg"];
        TensorAny& v = s.tensors["exp_avg_sq"];
        m = detail::ema(std::move(m), grad, b1_, 1.0 - b1_);
        v = detail::ema(std::move(v), square(std::move(grad)), b2_, 1.0 - b2_);
        if (cautious) {
            // Cautious weight decay (burn; arXiv 2510.12402): no decay where the parameter and the new
            // first moment differ in sign (>= 0 counts as positive).
            TensorAny differ = bool_xor(greater_equal_elem(param, 0.0), greater_equal_elem(m, 0.0));
            p = sub(param, mask_fill(mul_scalar(param, lr * wd), std::move(differ), 0.0));
        }
        TensorAny denom;
        if (amsgrad_) {
            TensorAny& vmax = s.tensors["max_exp_avg_sq"];
            vmax = vmax.defined() ? max_pair(std::move(vmax), v) : v;
            denom = add_scalar(sqrt(vmax), eps);
        } else {
            denom = add_scalar(sqrt(v), eps);
        }
        return sub(std::move(p), mul_scalar(div(m, std::move(denom)), step_size));
    }

    /// The multi-tensor step: items whose update shares every scalar (dtype, device, lr, weight decay and
    /// step count: normally all of them) go through one adam_step_multi call, whose flat outputs the
    /// parameters and moments then view. A lone item, and AMSGrad, take the per-tensor path.
    void step_many(std::span<StepItem> items) const override {
        if (amsgrad_ || cautious_) return Rule::step_many(items);
        struct Group {
            DType dtype;
            uint64_t device;
            ops::AdamStepHyper hyper;
            std::vector<StepItem*> items;
        };
        std::vector<Group> groups;
        for (StepItem& it : items) {
            auto found = it.state->scalars.find("step");
            const double t = (found == it.state->scalars.end() ? 0.0 : found->second) + 1.0;
            const ops::AdamStepHyper h = hyper(it.lr, it.weight_decay, t);
            const DType dt = it.param->dtype();
            const uint64_t dev = it.param->device().key();
            auto g = std::find_if(groups.begin(), groups.end(), [&](const Group& x) {
                return x.dtype == dt && x.device == dev && same(x.hyper, h);
            });
            if (g == groups.end()) g = groups.insert(groups.end(), Group{dt, dev, h, {}});
            g->items.push_back(&it);
        }
        for (Group& g : groups) {
            if (g.items.size() == 1) {
                StepItem& it = *g.items[0];
                it.updated = step(it.lr, it.weight_decay, *it.param, std::move(it.grad), *it.state);
                continue;
            }
            std::vector<TensorAny> ps, gs, ms, vs;
            for (StepItem* it : g.items) {
                ps.push_back(*it->param);
                gs.push_back(it->grad);
                ms.push_back(moment_of(*it->param, *it->state, "exp_avg"));
                vs.push_back(moment_of(*it->param, *it->state, "exp_avg_sq"));
            }
            auto fused = try_adam_step_multi(ps, gs, ms, vs, g.hyper);
            gs.clear(), ms.clear(), vs.clear();
            if (!fused) {  // the backend lacks the multi-tensor kernel: adam_step per tensor
                for (StepItem* it : g.items)
                    it->updated = step(it->lr, it->weight_decay, *it->param, std::move(it->grad), *it->state);
                continue;
            }
            auto& [p, m, v] = *fused;
            int64_t offset = 0;
            for (StepItem* it : g.items) {
                it->state->scalars["step"] += 1.0;
                it->grad = TensorAny();
                const Dims& shape = it->param->shape();
                const int64_t n = shape.numel();
                it->updated = reshape(narrow(p, 0, offset, n), shape);
                it->state->tensors["exp_avg"] = reshape(narrow(m, 0, offset, n), shape);
                it->state->tensors["exp_avg_sq"] = reshape(narrow(v, 0, offset, n), shape);
                offset += n;
            }
        }
    }

  private:
    // adam_step's scalars at step t (torch's bias corrections, folded as in step()).
    ops::AdamStepHyper hyper(double lr, double wd, double t) const {
        const double bc1 = 1.0 - std::pow(b1_, t), bc2_sqrt = std::sqrt(1.0 - std::pow(b2_, t));
        return {b1_, b2_, lr * bc2_sqrt / bc1, eps_ * bc2_sqrt, decay(lr, wd), l2(wd)};
    }
    static bool same(const ops::AdamStepHyper& a, const ops::AdamStepHyper& b) {
        return a.beta_1 == b.beta_1 && a.beta_2 == b.beta_2 && a.step_size == b.step_size && a.eps == b.eps &&
               a.decay == b.decay && a.l2 == b.l2;
    }
    // A moment, or zeros before the first step (as torch); moment() takes it out of the state (so the
    // per-tensor kernel may update it in place), moment_of() leaves it there.
    static TensorAny moment(const TensorAny& param, ParamState& s, const char* name) {
        TensorAny t = std::move(s.tensors[name]);
        return t.defined() ? t : full(param.shape(), 0.0, param.dtype(), param.device());
    }
    static TensorAny moment_of(const TensorAny& param, const ParamState& s, const char* name) {
        auto it = s.tensors.find(name);
        return it != s.tensors.end() && it->second.defined()
                   ? it->second
                   : full(param.shape(), 0.0, param.dtype(), param.device());
    }

    // Decoupled weight decay scales the parameter (AdamW); coupled adds an L2 term to the gradient.
    double decay(double lr, double wd) const { return decoupled_ ? 1.0 - lr * wd : 1.0; }
    double l2(double wd) const { return decoupled_ ? 0.0 : wd; }

    // One pass over parameter, gradient and moments (ops.def adam_step); the moments are moved in so
    // that the kernel updates them in place. Zero moments before the first step, as torch.
    static TensorAny fused(const TensorAny& param, TensorAny grad, ParamState& s,
                           const ops::AdamStepHyper& h) {
        TensorAny m = moment(param, s, "exp_avg");
        TensorAny v = moment(param, s, "exp_avg_sq");
        auto [p, m2, v2] = adam_step(param, std::move(grad), std::move(m), std::move(v), h);
        s.tensors["exp_avg"] = std::move(m2);
        s.tensors["exp_avg_sq"] = std::move(v2);
        return p;
    }

    double b1_, b2_, eps_, wd_;
    bool decoupled_, amsgrad_, cautious_;
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
    return Optimizer(std::make_shared<AdamRule>(beta_1, beta_2, epsilon, weight_decay, true, amsgrad,
                                                cautious_weight_decay),
                     detail::clipping_of("AdamWConfig", grad_clipping_norm, grad_clipping_value,
                                         grad_clipping_global_norm));
}

}  // namespace burn::optim
