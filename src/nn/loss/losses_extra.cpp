// Binary cross-entropy, Huber, smooth L1, L1, KL divergence and cosine embedding losses.
#include <limits>

#include "burn/nn/activation_smooth.hpp"
#include "burn/nn/loss/binary_cross_entropy.hpp"
#include "burn/nn/loss/cosine_embedding.hpp"
#include "burn/nn/loss/huber.hpp"
#include "burn/nn/loss/kl_div.hpp"
#include "burn/nn/loss/smooth_l1.hpp"

namespace burn::nn::loss {

using namespace ops;

void detail::check_pair(const TensorAny& a, const TensorAny& b, const char* name) {
    BURN_CHECK(a.defined() && b.defined(), "[", name, "] got an undefined tensor");
    BURN_CHECK_KIND(is_float(a.dtype()) && is_float(b.dtype()), dtype, "[", name,
                    "] predictions and targets must be Float, got ", a.dtype(), " and ", b.dtype());
    BURN_CHECK_KIND(a.shape() == b.shape(), shape, "[", name, "] predictions ", a.shape(), " and targets ",
                    b.shape(), " differ in shape");
}

TensorAny detail::huber(const TensorAny& a, const TensorAny& b, double delta, const char* name) {
    check_pair(a, b, name);
    TensorAny r = abs(sub(a, b));
    TensorAny c = clamp(r, 0.0, delta);  // min(r, delta)
    return add(mul_scalar(square(c), 0.5), mul_scalar(sub(std::move(r), c), delta));
}

// ------------------------------------------------------------------ binary cross-entropy

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

// ------------------------------------------------------------------ regression losses

HuberLoss HuberLossConfig::init() const {
    BURN_CHECK(delta > 0.0, "[HuberLossConfig] delta must be positive, got ", delta);
    return HuberLoss{delta};
}

TensorAny HuberLoss::forward_any(const TensorAny& a, const TensorAny& b) const {
    return detail::huber(a, b, delta, "HuberLoss");
}

SmoothL1Loss SmoothL1LossConfig::init() const {
    BURN_CHECK(beta >= 0.0, "[SmoothL1LossConfig] beta must be non-negative, got ", beta);
    return SmoothL1Loss{beta};
}

TensorAny SmoothL1Loss::forward_any(const TensorAny& a, const TensorAny& b) const {
    if (beta == 0.0) {
        detail::check_pair(a, b, "SmoothL1Loss");
        return abs(sub(a, b));
    }
    return mul_scalar(detail::huber(a, b, beta, "SmoothL1Loss"), 1.0 / beta);
}

TensorAny L1Loss::forward_any(const TensorAny& a, const TensorAny& b) const {
    detail::check_pair(a, b, "L1Loss");
    return abs(sub(a, b));
}

// ------------------------------------------------------------------ KL divergence

TensorAny KLDivLoss::forward_any(const TensorAny& p, const TensorAny& t) const {
    detail::check_pair(p, t, "KLDivLoss");
    if (log_target) return mul(exp(t), sub(t, p));
    // t (log t - p), with log t clamped so that t = 0 gives 0 (PyTorch's xlogy).
    TensorAny log_t =
        log(clamp(t, std::numeric_limits<float>::min(), std::numeric_limits<double>::infinity()));
    return mul(t, sub(std::move(log_t), p));
}

// ------------------------------------------------------------------ cosine embedding

CosineEmbeddingLoss CosineEmbeddingLossConfig::init() const {
    BURN_CHECK(margin >= -1.0 && margin <= 1.0, "[CosineEmbeddingLossConfig] margin must be in [-1, 1], got ",
               margin);
    return CosineEmbeddingLoss{margin, reduction};
}

TensorAny CosineEmbeddingLoss::forward_any(const TensorAny& a, const TensorAny& b, const TensorAny& y) const {
    detail::check_pair(a, b, "CosineEmbeddingLoss");
    BURN_CHECK_KIND(a.rank() == 2, shape, "[CosineEmbeddingLoss] inputs ", a.shape(),
                    " must be [batch, dim]");
    BURN_CHECK_KIND(y.rank() == 1 && y.shape()[0] == a.shape()[0], shape, "[CosineEmbeddingLoss] target ",
                    y.shape(), " must be [batch] = [", a.shape()[0], "]");
    constexpr double eps = 1e-12;
    TensorAny dot = sum_dim(mul(a, b), 1);
    TensorAny mag = mul(add_scalar(sum_dim(square(a), 1), eps), add_scalar(sum_dim(square(b), 1), eps));
    TensorAny cos = reshape(div(std::move(dot), sqrt(std::move(mag))), Dims{-1});  // [batch]
    TensorAny yf = cast(y, a.dtype());
    TensorAny pos = cast(equal_elem(yf, 1.0), a.dtype()), negm = cast(equal_elem(yf, -1.0), a.dtype());
    TensorAny similar = rsub_scalar(cos, 1.0);
    TensorAny dissimilar = relu(sub_scalar(cos, margin));
    return add(mul(pos, std::move(similar)), mul(negm, std::move(dissimilar)));
}

}  // namespace burn::nn::loss
