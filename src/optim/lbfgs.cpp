// L-BFGS: torch.optim.LBFGS.step of torch 1.13 on a flat parameter vector.
#include "burn/optim/lbfgs.hpp"

#include <algorithm>
#include <cmath>

#include "burn/tensor/ops.hpp"
#include "lbfgs_line_search.hpp"

namespace burn::optim {

namespace {

using namespace ops;

double lbfgs_scalar(const TensorAny& t) {
    return into_data(cast(t, DType::f64)).to_vec<double>()[0];
}
double lbfgs_dot(const TensorAny& a, const TensorAny& b) {
    return lbfgs_scalar(dot(a, b));
}

}  // namespace

Lbfgs LbfgsConfig::init() const {
    return Lbfgs(*this);
}

Lbfgs::Lbfgs(const LbfgsConfig& c) : config_(c) {
    BURN_CHECK(std::isfinite(c.lr) && c.lr > 0, "[LbfgsConfig] lr must be a finite positive number, got ",
               c.lr);
    BURN_CHECK(c.max_iter > 0, "[LbfgsConfig] max_iter must be at least 1, got 0");
    BURN_CHECK(!c.max_eval || *c.max_eval > 0, "[LbfgsConfig] max_eval must be at least 1, got 0");
    BURN_CHECK(c.history_size > 0, "[LbfgsConfig] history_size must be at least 1, got 0");
    BURN_CHECK(std::isfinite(c.tolerance_grad) && c.tolerance_grad >= 0,
               "[LbfgsConfig] tolerance_grad must be a finite non-negative number, got ", c.tolerance_grad);
    BURN_CHECK(std::isfinite(c.tolerance_change) && c.tolerance_change >= 0,
               "[LbfgsConfig] tolerance_change must be a finite non-negative number, got ",
               c.tolerance_change);
}

TensorAny Lbfgs::flatten(const std::vector<TensorAny>& values) {
    std::vector<TensorAny> flat;
    for (const TensorAny& v : values) flat.push_back(reshape(inner_of(v), {v.numel()}));
    return flat.size() == 1 ? contiguous(flat[0]) : cat(flat, 0);
}

TensorAny Lbfgs::flatten_grads(std::vector<std::optional<TensorAny>>& grads,
                               const std::vector<TensorAny>& like) {
    std::vector<TensorAny> flat;
    for (std::size_t i = 0; i < like.size(); ++i) {
        const TensorAny& p = like[i];
        TensorAny g = grads[i] ? inner_of(std::move(*grads[i]))  // a parameter the loss does not use: 0
                               : full(p.shape(), 0.0, p.dtype(), inner_of(p).device());
        if (g.dtype() != p.dtype()) g = cast(std::move(g), p.dtype());
        flat.push_back(reshape(std::move(g), {p.numel()}));
    }
    return flat.size() == 1 ? contiguous(flat[0]) : cat(flat, 0);
}

std::vector<TensorAny> Lbfgs::unflatten(const TensorAny& flat, const std::vector<Dims>& shapes,
                                        const std::vector<TensorAny>& like) {
    std::vector<TensorAny> out;
    int64_t offset = 0;
    for (std::size_t i = 0; i < shapes.size(); ++i) {
        const int64_t n = shapes[i].numel();
        out.push_back(
            ops::to_device(reshape(contiguous(narrow(flat, 0, offset, n)), shapes[i]), like[i].device()));
        offset += n;
    }
    return out;
}

void Lbfgs::to_device(const Device& device) {
    const Device inner = device.inner();
    auto move = [&](TensorAny& t) {
        if (t.defined() && t.device() != inner) t = ops::to_device(std::move(t), inner);
    };
    move(d_);
    move(prev_flat_grad_);
    for (TensorAny& t : old_dirs_) move(t);
    for (TensorAny& t : old_stps_) move(t);
}

double Lbfgs::step_flat(TensorAny& x, const Objective& objective) {
    to_device(x.device());  // the state follows the parameters (a module moved, a record loaded elsewhere)
    const LbfgsConfig& c = config_;
    const std::size_t max_eval = c.max_eval.value_or(c.max_iter * 5 / 4);
    TensorAny flat_grad;
    double loss = objective(x, flat_grad);
    const double orig_loss = loss;
    std::size_t current_evals = 1;
    ++func_evals_;
    bool opt_cond = lbfgs_scalar(max_abs(flat_grad)) <= c.tolerance_grad;
    if (opt_cond) return orig_loss;  // already at a stationary point

    std::size_t n_iter = 0;
    while (n_iter < c.max_iter) {
        ++n_iter;
        ++n_iter_;
        if (n_iter_ == 1) {
            d_ = neg(flat_grad);
            old_dirs_.clear(), old_stps_.clear(), ro_.clear();
            h_diag_ = 1.0;
        } else {
            // Update the curvature pairs (skipped when y.s is not safely positive), then the two-loop
            // recursion gives d = -H g.
            TensorAny y = sub(flat_grad, prev_flat_grad_);
            TensorAny s = mul_scalar(d_, t_);
            const double ys = lbfgs_dot(y, s);
            if (ys > 1e-10) {
                if (old_dirs_.size() == c.history_size) {
                    old_dirs_.erase(old_dirs_.begin());
                    old_stps_.erase(old_stps_.begin());
                    ro_.erase(ro_.begin());
                }
                h_diag_ = ys / lbfgs_dot(y, y);
                old_dirs_.push_back(std::move(y));
                old_stps_.push_back(std::move(s));
                ro_.push_back(1.0 / ys);
            }
            const std::size_t num_old = old_dirs_.size();
            std::vector<double> al(num_old);
            TensorAny q = neg(flat_grad);
            for (std::size_t k = num_old; k-- > 0;) {
                al[k] = lbfgs_dot(old_stps_[k], q) * ro_[k];
                q = sub(std::move(q), mul_scalar(old_dirs_[k], al[k]));
            }
            TensorAny r = mul_scalar(std::move(q), h_diag_);
            for (std::size_t k = 0; k < num_old; ++k) {
                const double be = lbfgs_dot(old_dirs_[k], r) * ro_[k];
                r = add(std::move(r), mul_scalar(old_stps_[k], al[k] - be));
            }
            d_ = std::move(r);
        }
        prev_flat_grad_ = flat_grad;
        prev_loss_ = loss;
        // The first iteration ever scales the step by the gradient's L1 norm.
        t_ = n_iter_ == 1 ? std::min(1.0, 1.0 / lbfgs_scalar(sum(abs(flat_grad)))) * c.lr : c.lr;
        const double gtd = lbfgs_dot(flat_grad, d_);
        if (gtd > -c.tolerance_change) break;  // not a descent direction

        std::size_t ls_func_evals = 0;
        if (c.line_search == LbfgsLineSearch::strong_wolfe) {
            const TensorAny x0 = x;
            auto at = [&](double step, TensorAny& g) { return objective(add(x0, mul_scalar(d_, step)), g); };
            detail::LineSearchResult ls = detail::strong_wolfe(at, t_, d_, loss, flat_grad, gtd);
            loss = ls.loss, flat_grad = std::move(ls.grad), t_ = ls.t, ls_func_evals = ls.evals;
            x = add(x, mul_scalar(d_, t_));
            opt_cond = lbfgs_scalar(max_abs(flat_grad)) <= c.tolerance_grad;
        } else {
            // A fixed step; the last iteration does not re-evaluate (the next step() will).
            x = add(x, mul_scalar(d_, t_));
            if (n_iter != c.max_iter) {
                loss = objective(x, flat_grad);
                opt_cond = lbfgs_scalar(max_abs(flat_grad)) <= c.tolerance_grad;
                ls_func_evals = 1;
            }
        }
        current_evals += ls_func_evals;
        func_evals_ += ls_func_evals;

        if (n_iter == c.max_iter) break;
        if (current_evals >= max_eval) break;
        if (opt_cond) break;
        if (lbfgs_scalar(max_abs(mul_scalar(d_, t_))) <= c.tolerance_change) break;
        if (std::abs(loss - prev_loss_) < c.tolerance_change) break;
    }
    return orig_loss;
}

OptimizerRecord Lbfgs::to_record() const {
    OptimizerRecord r;
    if (d_.defined()) r.tensors["d"] = d_;
    if (prev_flat_grad_.defined()) r.tensors["prev_flat_grad"] = prev_flat_grad_;
    for (std::size_t k = 0; k < old_dirs_.size(); ++k) {
        r.tensors["old_dirs." + std::to_string(k)] = old_dirs_[k];
        r.tensors["old_stps." + std::to_string(k)] = old_stps_[k];
        r.scalars["ro." + std::to_string(k)] = ro_[k];
    }
    r.scalars["t"] = t_;
    r.scalars["h_diag"] = h_diag_;
    r.scalars["prev_loss"] = prev_loss_;
    r.scalars["func_evals"] = static_cast<double>(func_evals_);
    r.scalars["n_iter"] = static_cast<double>(n_iter_);
    r.scalars["history"] = static_cast<double>(old_dirs_.size());
    return r;
}

void Lbfgs::load_record(const OptimizerRecord& r) {
    auto scalar = [&](const std::string& key) {
        auto it = r.scalars.find(key);
        BURN_CHECK(it != r.scalars.end(), "[Lbfgs::load_record] the record has no scalar '", key,
                   "'; was it saved by Lbfgs::to_record?");
        return it->second;
    };
    auto count = [&](const std::string& key) {
        const double v = scalar(key);
        BURN_CHECK(v >= 0 && v < 9.0e15 && v == std::floor(v), "[Lbfgs::load_record] '", key,
                   "' must be a non-negative integer, got ", v);
        return static_cast<std::size_t>(v);
    };
    auto tensor = [&](const std::string& key, bool required) {
        auto it = r.tensors.find(key);
        BURN_CHECK(!required || it != r.tensors.end(), "[Lbfgs::load_record] the record has no tensor '", key,
                   "'; was it saved by Lbfgs::to_record?");
        return it == r.tensors.end() ? TensorAny() : inner_of(it->second);
    };
    const std::size_t history = count("history");
    BURN_CHECK(r.tensors.size() <= 2 * history + 2 && r.scalars.size() == 6 + history,
               "[Lbfgs::load_record] the record has ", r.tensors.size(), " tensors and ", r.scalars.size(),
               " scalars, not an L-BFGS state with ", history, " curvature pairs");
    std::vector<TensorAny> dirs, stps;
    std::vector<double> ro;
    for (std::size_t k = 0; k < history; ++k) {
        dirs.push_back(tensor("old_dirs." + std::to_string(k), true));
        stps.push_back(tensor("old_stps." + std::to_string(k), true));
        ro.push_back(scalar("ro." + std::to_string(k)));
    }
    TensorAny d = tensor("d", false), prev = tensor("prev_flat_grad", false);
    const double t = scalar("t"), h_diag = scalar("h_diag"), prev_loss = scalar("prev_loss");
    const std::size_t evals = count("func_evals"), iters = count("n_iter");
    d_ = std::move(d), prev_flat_grad_ = std::move(prev);
    old_dirs_ = std::move(dirs), old_stps_ = std::move(stps), ro_ = std::move(ro);
    t_ = t, h_diag_ = h_diag, prev_loss_ = prev_loss, func_evals_ = evals, n_iter_ = iters;
}

}  // namespace burn::optim
