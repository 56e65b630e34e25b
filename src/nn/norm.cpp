#include "burn/nn/norm.hpp"

#include <optional>

#include "burn/tensor/module_ops.hpp"
#include "ops/fused_nn.hpp"

namespace burn::nn {

using namespace ops;

BatchNorm BatchNormConfig::init(const Device& device) const {
    BURN_CHECK(num_features > 0, "[BatchNormConfig] num_features must be positive");
    const Shape<1> s{num_features};
    BatchNorm bn;
    bn.gamma = Param<Tensor<1>>(Tensor<1>::ones(s, device));
    bn.beta = Param<Tensor<1>>(Tensor<1>::zeros(s, device));
    bn.running_mean = Buffer<Tensor<1>>(Tensor<1>::zeros(s, device));
    bn.running_var = Buffer<Tensor<1>>(Tensor<1>::ones(s, device));
    bn.momentum = momentum;
    bn.epsilon = epsilon;
    return bn;
}

TensorAny BatchNorm::forward_any(const TensorAny& x) const {
    const int r = x.rank();
    const int64_t c = gamma.val().shape()[0];
    BURN_CHECK_KIND(r >= 2 && x.shape()[1] == c, shape, "[BatchNorm] input ", x.shape(), " must be [batch, ",
                    c, ", ...]");
    TensorAny mean, var;
    if (x.device().is_autodiff()) {
        // Batch statistics over every dim but 1.
        Dims perm = Dims::filled(r, 0);
        perm[0] = 1;
        for (int i = 1; i < r; ++i) perm[i] = i == 1 ? 0 : i;
        TensorAny flat = reshape(contiguous(permute(x, perm)), Dims{c, -1});  // [c, n]
        const double n = static_cast<double>(flat.shape()[1]);
        TensorAny m = mean_dim(flat, 1);                  // [c, 1]
        TensorAny v = mean_dim(square(sub(flat, m)), 1);  // biased
        mean = reshape(m, Dims{c});
        var = reshape(v, Dims{c});
        {
            NoGrad guard;
            TensorAny m_in = inner_of(detach(mean)), v_in = inner_of(detach(var));
            TensorAny unbiased = n > 1 ? mul_scalar(v_in, n / (n - 1)) : v_in;
            const Device dev = running_mean.val().device();
            auto blend = [&](const Tensor<1>& run, const TensorAny& batch) {
                TensorAny r_in = inner_of(run.handle());
                return Tensor<1>(
                    ops::to_device(add(mul_scalar(r_in, 1.0 - momentum), mul_scalar(batch, momentum)), dev));
            };
            running_mean.set(blend(running_mean.val(), m_in));
            running_var.set(blend(running_var.val(), unbiased));
        }
    } else {
        mean = running_mean.val().handle();
        var = running_var.val().handle();
    }
    return ops::batch_norm(x, gamma.val().handle(), beta.val().handle(), std::move(mean), std::move(var),
                           epsilon);
}

LayerNorm LayerNormConfig::init(const Device& device) const {
    BURN_CHECK(d_model > 0, "[LayerNormConfig] d_model must be positive");
    LayerNorm ln;
    ln.gamma = Param<Tensor<1>>(Tensor<1>::ones({d_model}, device));
    if (bias) ln.beta = Param<Tensor<1>>(Tensor<1>::zeros({d_model}, device));
    ln.epsilon = epsilon;
    return ln;
}

TensorAny LayerNorm::forward_any(const TensorAny& x) const {
    const int64_t d = gamma.val().shape()[0];
    BURN_CHECK_KIND(x.rank() >= 1 && x.shape().back() == d, shape, "[LayerNorm] input ", x.shape(),
                    " must end in d_model = ", d);
    // One fused op (ops.def layer_norm): statistics, normalisation and the affine map in one pass.
    std::optional<TensorAny> b;
    if (beta) b = beta->val().handle();
    return ops::layer_norm(x, gamma.val().handle(), std::move(b), epsilon);
}

}  // namespace burn::nn
