// Binary cross-entropy on probabilities or (stably) on logits, with class weights and label smoothing.
#include "burn/nn/loss/binary_cross_entropy.hpp"

#include <limits>

#include "burn/nn/activation_smooth.hpp"

namespace burn::nn::loss {

using namespace ops;

BinaryCrossEntropyLoss BinaryCrossEntropyLossConfig::init(const Device&) const {
    BURN_CHECK(!smoothing || (*smoothing >= 0.0 && *smoothing <= 1.0),
               "[BinaryCrossEntropyLossConfig] smoothing must be in [0, 1], got ",
               smoothing ? *smoothing : 0.0);
    return BinaryCrossEntropyLoss{weights, smoothing, logits};
}

TensorAny BinaryCrossEntropyLoss::forward_any(const TensorAny& x, const TensorAny& targets) const {
    BURN_CHECK(x.defined() && targets.defined(), "[BinaryCrossEntropyLoss] got an undefined tensor");
    BURN_CHECK_KIND(is_float(x.dtype()), dtype, "[BinaryCrossEntropyLoss] inputs must be Float, got ",
                    x.dtype());
    BURN_CHECK_KIND(x.shape() == targets.shape(), shape, "[BinaryCrossEntropyLoss] inputs ", x.shape(),
                    " and targets ", targets.shape(), " differ in shape");
    TensorAny t = cast(targets, x.dtype());
    if (smoothing && *smoothing > 0) t = add_scalar(mul_scalar(t, 1.0 - *smoothing), *smoothing / 2.0);
    TensorAny loss;
    if (logits) {
        // (1 - t) x - log_sigmoid(x)
        loss = sub(mul(rsub_scalar(t, 1.0), x), activation::any::log_sigmoid(x));
    } else {
        const double lo = -100.0, hi = std::numeric_limits<double>::infinity();
        TensorAny log_p = clamp(log(x), lo, hi);
        TensorAny log_1mp = clamp(log1p(neg(x)), lo, hi);
        loss = neg(add(mul(t, std::move(log_p)), mul(rsub_scalar(t, 1.0), std::move(log_1mp))));
    }
    if (weights) {
        const auto n = static_cast<int64_t>(weights->size());
        TensorAny w = cast(from_data(TensorData(*weights), x.device()), x.dtype());
        if (x.rank() == 1) {
            BURN_CHECK_KIND(n == 2, shape,
                            "[BinaryCrossEntropyLoss] [batch] inputs need 2 weights (class 0 and 1), "
                            "got ",
                            n);
            // w0 (1 - t) + w1 t: the class weight for 0/1 targets, interpolated for soft ones.
            TensorAny tc = cast(targets, x.dtype());
            TensorAny w0 = narrow(w, 0, 0, 1), w1 = narrow(w, 0, 1, 1);
            w = add(mul(rsub_scalar(tc, 1.0), w0), mul(tc, w1));
        } else {
            BURN_CHECK_KIND(n == x.shape().back(), shape, "[BinaryCrossEntropyLoss] ", n,
                            " weights for inputs ", x.shape(), "; give one per class (the last dim, ",
                            x.shape().back(), ")");
            Dims s = Dims::filled(x.rank(), 1);
            s[x.rank() - 1] = n;
            w = reshape(w, s);
        }
        loss = mul(std::move(loss), w);
    }
    return loss;
}

}  // namespace burn::nn::loss
