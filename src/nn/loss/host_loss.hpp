#pragma once
// What the losses computed on the host in float64 share (CTC, RNN-T): addition in log space, integer
// inputs read back, and the custom autodiff op that returns the per-sample losses and scales the gradient
// computed alongside them (as PyTorch's and torchaudio's kernels do).
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <utility>
#include <vector>

#include "burn/autodiff/custom_op.hpp"
#include "burn/tensor/data.hpp"

namespace burn::nn::loss::detail {

inline constexpr double kNegInf = -std::numeric_limits<double>::infinity();

/// log(exp(a) + exp(b)), exact at -infinity.
inline double lse(double a, double b) {
    if (a == kNegInf) return b;
    if (b == kNegInf) return a;
    const double m = std::max(a, b);
    return m + std::log(std::exp(a - m) + std::exp(b - m));
}

inline std::vector<int64_t> host_ints(const TensorAny& t) {
    return ops::into_data(ops::inner_of(t)).convert(DType::i64).to_vec<int64_t>();
}

/// fn(x's values in float64, d loss / d x to fill) -> the loss of each of the n samples.
using HostLossFn = std::function<std::vector<double>(const std::vector<double>&, std::vector<double>&)>;

/// The per-sample losses [n] of x as one custom autodiff op named `name`: fn runs on the host in
/// float64; the backward multiplies fn's gradient by the losses' gradient viewed as `sample_view` (x's
/// rank, n on the sample axis, 1 elsewhere: [1, n, 1] for CTC's [T, N, C]).
inline TensorAny host_loss(const char* name, const TensorAny& x, int64_t n, Dims sample_view, HostLossFn fn) {
    autodiff::CustomOp op;
    op.name = name;
    op.forward = [n, fn = std::move(fn)](const std::vector<TensorAny>& in) {
        const TensorAny& v = in[0];
        std::vector<double> values = ops::into_data(v).convert(DType::f64).to_vec<double>();
        std::vector<double> grad(values.size(), 0.0);
        const std::vector<double> loss = fn(values, grad);
        auto to = [&](const std::vector<double>& d, Dims shape) {
            return ops::cast(ops::from_data(TensorData(d, shape), v.device()), v.dtype());
        };
        return std::vector<TensorAny>{to(loss, Dims{n}), to(grad, v.shape())};
    };
    op.backward = [view = std::move(sample_view)](const std::vector<TensorAny>&,
                                                  const std::vector<TensorAny>& out,
                                                  const std::vector<TensorAny>& grads) {
        if (!grads[0].defined()) return std::vector<TensorAny>{TensorAny()};
        return std::vector<TensorAny>{ops::mul(out[1], ops::reshape(grads[0], view))};
    };
    return autodiff::apply(op, {x})[0];
}

}  // namespace burn::nn::loss::detail
