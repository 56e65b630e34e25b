#pragma once
/// L-BFGS (torch.optim.LBFGS of torch 1.13: a fixed step by default, or its strong-Wolfe line search):
/// each step() runs up to max_iter quasi-Newton iterations, re-evaluating the loss through a closure.
///
///     auto lbfgs = optim::LbfgsConfig{}.with_history_size(10).init();
///     for (int epoch = 0; epoch < 5; ++epoch)
///         model = lbfgs.step(std::move(model), [&](const Model& m) { return loss_of(m, batch); });
///
/// The closure computes the loss of the module it is given (on an autodiff device); step() runs its
/// backward pass. It is called once per iteration, more with the line search (about max_eval times at
/// most per step).
#include <cstddef>
#include <functional>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "burn/config/config.hpp"
#include "burn/module/module.hpp"
#include "burn/optim/gradients_params.hpp"
#include "burn/optim/optimizer.hpp"  // OptimizerRecord

namespace burn::optim {

class Lbfgs;

/// torch's line_search_fn: none (a fixed step lr, scaled on the very first iteration) or strong_wolfe.
enum class LbfgsLineSearch { none, strong_wolfe };
BURN_ENUM(LbfgsLineSearch, none, strong_wolfe)

/// torch.optim.LBFGS's settings and defaults. max_eval defaults to max_iter * 5 / 4.
struct LbfgsConfig {
    double lr = 1.0;
    std::size_t max_iter = 20;
    std::optional<std::size_t> max_eval{};
    double tolerance_grad = 1e-7;
    double tolerance_change = 1e-9;
    std::size_t history_size = 100;
    LbfgsLineSearch line_search = LbfgsLineSearch::none;
    Lbfgs init() const;
    BURN_CONFIG(LbfgsConfig, lr, max_iter, max_eval, tolerance_grad, tolerance_change, history_size,
                line_search)
};

class Lbfgs {
  public:
    explicit Lbfgs(const LbfgsConfig& config);

    /// One torch LBFGS.step(closure) over the module's trainable parameters (all of them form one
    /// vector): returns the updated module; last_loss() is the loss of the first evaluation (what torch's
    /// step returns). closure(const M&) returns a one-element loss tensor.
    template <class M, class F>
    M step(M module, F&& closure) {
        std::vector<Dims> shapes;
        std::vector<TensorAny> values;
        module::visit_params(module, [&](const std::string&, const auto& p) {
            if (!p.is_require_grad() || !p.val().defined()) return;
            shapes.push_back(p.val().shape());
            values.push_back(p.val().handle());
        });
        BURN_CHECK(!values.empty(), "[Lbfgs::step] the module has no trainable parameter; unfreeze some");
        TensorAny x = flatten(values);
        auto write = [&](const TensorAny& flat) {
            std::vector<TensorAny> parts = unflatten(flat, shapes, values);
            std::size_t i = 0;
            module::visit_params_mut(module, [&](const std::string&, auto& p) {
                using T = typename std::remove_reference_t<decltype(p)>::value_type;
                if (!p.is_require_grad() || !p.val().defined()) return;
                p.set(T(std::move(parts[i++])));
            });
        };
        Objective objective = [&](const TensorAny& at, TensorAny& flat_grad) {
            write(at);
            const M& current = module;
            auto loss = closure(current);
            BURN_CHECK_KIND(loss.numel() == 1, shape,
                            "[Lbfgs::step] the closure must return a one-element loss, got shape ",
                            loss.shape());
            GradientsParams grads = GradientsParams::from_grads(loss.backward(), current);
            std::vector<std::optional<TensorAny>> gs;
            module::visit_params(current, [&](const std::string&, const auto& p) {
                if (!p.is_require_grad() || !p.val().defined()) return;
                gs.push_back(grads.remove(p.id()));
            });
            flat_grad = flatten_grads(gs, values);
            return loss.template into_scalar<double>();
        };
        last_loss_ = step_flat(x, objective);
        write(x);
        return module;
    }

    /// Evaluates the loss at a flat parameter vector and sets flat_grad to its gradient there.
    using Objective = std::function<double(const TensorAny& x, TensorAny& flat_grad)>;
    /// The algorithm on a flat vector x (updated in place); returns the first evaluation's loss.
    double step_flat(TensorAny& x, const Objective& objective);

    double last_loss() const { return last_loss_; }
    /// Closure evaluations and iterations over every step so far (torch's state func_evals, n_iter).
    std::size_t func_evals() const { return func_evals_; }
    std::size_t n_iter() const { return n_iter_; }
    const LbfgsConfig& config() const { return config_; }

    /// The state as named tensors ("d", "prev_flat_grad", "old_dirs.<k>", "old_stps.<k>") and scalars
    /// ("t", "h_diag", "prev_loss", "func_evals", "n_iter", "history", "ro.<k>"); tensors are shared.
    OptimizerRecord to_record() const;
    /// Restores a state from to_record(): training then continues exactly. Throws, changing nothing,
    /// on a record that is not an L-BFGS state.
    void load_record(const OptimizerRecord& record);
    /// Moves the state's tensors to device now (its inner device under autodiff); a step also moves
    /// them to its parameters' device first, so a module moved to another device keeps training.
    void to_device(const Device& device);

  private:
    static TensorAny flatten(const std::vector<TensorAny>& values);
    static TensorAny flatten_grads(std::vector<std::optional<TensorAny>>& grads,
                                   const std::vector<TensorAny>& like);
    static std::vector<TensorAny> unflatten(const TensorAny& flat, const std::vector<Dims>& shapes,
                                            const std::vector<TensorAny>& like);

    LbfgsConfig config_;
    // torch's per-optimizer state.
    TensorAny d_, prev_flat_grad_;
    double t_ = 0.0, h_diag_ = 1.0, prev_loss_ = 0.0, last_loss_ = 0.0;
    std::vector<TensorAny> old_dirs_, old_stps_;
    std::vector<double> ro_;
    std::size_t func_evals_ = 0, n_iter_ = 0;
};

}  // namespace burn::optim
