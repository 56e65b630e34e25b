// Muon rule (burn 0.22's muon.rs: SGD momentum, Newton-Schulz orthogonalisation, shape-adjusted lr).
#include "burn/optim/muon.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "rule_util.hpp"

namespace burn::optim {

TensorAny muon_newton_schulz(TensorAny g, const std::array<double, 3>& coefficients, std::size_t steps,
                             double epsilon) {
    using namespace ops;
    BURN_CHECK_KIND(g.shape().rank() == 2, shape, "[muon_newton_schulz] needs a 2-D matrix, got shape ",
                    g.shape());
    const bool tall = g.shape()[0] > g.shape()[1];
    TensorAny x = tall ? swap_dims(std::move(g), 0, 1) : std::move(g);
    TensorAny norm = clamp(sqrt(sum(square(x))), epsilon, std::numeric_limits<double>::infinity());
    x = div(std::move(x), reshape(std::move(norm), {1, 1}));
    const auto [a, b, c] = coefficients;
    for (std::size_t k = 0; k < steps; ++k) {
        TensorAny gram = matmul(x, swap_dims(x, 0, 1));
        TensorAny poly = add(mul_scalar(gram, b), mul_scalar(matmul(gram, gram), c));
        x = add(mul_scalar(x, a), matmul(std::move(poly), x));
    }
    return tall ? contiguous(swap_dims(std::move(x), 0, 1)) : x;
}

namespace {

using namespace ops;

class MuonRule final : public Rule {
  public:
    explicit MuonRule(const MuonConfig& c) : c_(c) {}
    const char* name() const override { return "Muon"; }
    double weight_decay() const override { return c_.weight_decay; }
    std::vector<std::string> state_names() const override { return {"momentum_buffer"}; }
    void check_param(const std::string& path, const Dims& dims) const override {
        BURN_CHECK_KIND(
            dims.rank() == 2, shape, "[Optimizer::step] Muon orthogonalises 2-D weight matrices, but ",
            "parameter '", path, "' has shape ", dims,
            "; optimize biases, norms and embeddings with AdamW (freeze them for Muon, or exclude "
            "them from its gradients)");
    }

    TensorAny step(double lr, double wd, const TensorAny& param, TensorAny grad,
                   ParamState& s) const override {
        TensorAny& buf = s.tensors["momentum_buffer"];
        // burn's Momentum: the first step keeps the gradient itself.
        buf = buf.defined() ? detail::ema(std::move(buf), grad, c_.momentum, 1.0 - c_.dampening) : grad;
        TensorAny direction = c_.nesterov ? add(std::move(grad), mul_scalar(buf, c_.momentum)) : buf;
        TensorAny update =
            muon_newton_schulz(std::move(direction), c_.ns_coefficients, c_.ns_steps, c_.epsilon);
        const double rows = static_cast<double>(param.shape()[0]),
                     cols = static_cast<double>(param.shape()[1]);
        const double ratio = c_.adjust_lr_fn == MuonAdjustLr::original
                                 ? std::sqrt(std::max(1.0, rows / cols))
                                 : 0.2 * std::sqrt(std::max(rows, cols));
        // The decay uses the plain lr, the update the shape-adjusted one (as burn).
        TensorAny p = wd != 0.0 ? mul_scalar(param, 1.0 - lr * wd) : param;
        return sub(std::move(p), mul_scalar(std::move(update), lr * ratio));
    }

  private:
    MuonConfig c_;
};

}  // namespace

Optimizer MuonConfig::init() const {
    detail::check_non_negative("MuonConfig", "momentum", momentum);
    detail::check_range("MuonConfig", "dampening", dampening, 0.0, 1.0, false);
    detail::check_non_negative("MuonConfig", "weight_decay", weight_decay);
    detail::check_non_negative("MuonConfig", "epsilon", epsilon);
    for (double k : ns_coefficients)
        BURN_CHECK(std::isfinite(k), "[MuonConfig] ns_coefficients must be finite, got ", k);
    BURN_CHECK(!nesterov || momentum > 0, "[MuonConfig] Nesterov momentum needs momentum > 0, got ", momentum,
               "; set nesterov false or a positive momentum");
    return Optimizer(std::make_shared<MuonRule>(*this));
}

}  // namespace burn::optim
