#pragma once
// The strong-Wolfe line search of torch.optim.LBFGS (torch 1.13's _strong_wolfe and
// _cubic_interpolate); private to src/optim.
#include <cstddef>
#include <functional>
#include <optional>
#include <utility>

#include "burn/tensor/tensor_any.hpp"

namespace burn::optim::detail {

/// The minimiser of the cubic through (x1, f1) and (x2, f2) with slopes g1, g2, clamped into bounds
/// (default: [min(x1, x2), max(x1, x2)]); the bounds' midpoint when the cubic has no minimum.
double cubic_interpolate(double x1, double f1, double g1, double x2, double f2, double g2,
                         std::optional<std::pair<double, double>> bounds = std::nullopt);

struct LineSearchResult {
    double loss;
    TensorAny grad;
    double t;
    std::size_t evals;
};

/// Finds a step t along d satisfying the strong Wolfe conditions (c1 = 1e-4, c2 = 0.9, at most max_ls
/// evaluations after the first), from the loss f, gradient g and directional derivative gtd at t = 0.
/// eval(t, grad) returns the loss at x + t * d and sets grad to its gradient there.
LineSearchResult strong_wolfe(const std::function<double(double, TensorAny&)>& eval, double t,
                              const TensorAny& d, double f, const TensorAny& g, double gtd,
                              double tolerance_change = 1e-9, std::size_t max_ls = 25);

}  // namespace burn::optim::detail
