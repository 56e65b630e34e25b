// CTC loss: alpha/beta recursions in log space on the host (double), one custom autodiff op whose
// backward scales the gradient computed alongside the forward pass (as PyTorch's kernel does).
#include "burn/nn/loss/ctc.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "nn/loss/host_loss.hpp"

namespace burn::nn::loss {

namespace {

using detail::host_ints;
using detail::kNegInf;
using detail::lse;

struct Problem {
    int64_t T = 0, N = 0, C = 0;
    std::vector<int64_t> input_lengths, target_lengths;
    std::vector<std::vector<int64_t>> targets;  // per sample, its labels
};

/// Loss of sample n and, into grad ([T, N, C] row-major), d loss / d log_probs for it.
double sample(const Problem& p, const std::vector<double>& lp, int64_t n, int64_t blank, bool zero_infinity,
              std::vector<double>& grad) {
    const int64_t T = p.input_lengths[n], C = p.C, N = p.N;
    const auto& labels = p.targets[n];
    const auto L = static_cast<int64_t>(labels.size());
    const int64_t S = 2 * L + 1;
    auto at = [&](int64_t t, int64_t k) { return lp[static_cast<std::size_t>((t * N + n) * C + k)]; };
    auto ext = [&](int64_t s) { return s % 2 == 0 ? blank : labels[static_cast<std::size_t>(s / 2)]; };
    if (T == 0) return L == 0 || zero_infinity ? 0.0 : std::numeric_limits<double>::infinity();
    std::vector<double> alpha(static_cast<std::size_t>(T * S), kNegInf), beta(alpha.size(), kNegInf);
    auto A = [&](int64_t t, int64_t s) -> double& { return alpha[static_cast<std::size_t>(t * S + s)]; };
    auto B = [&](int64_t t, int64_t s) -> double& { return beta[static_cast<std::size_t>(t * S + s)]; };
    A(0, 0) = at(0, blank);
    if (S > 1) A(0, 1) = at(0, ext(1));
    for (int64_t t = 1; t < T; ++t)
        for (int64_t s = 0; s < S; ++s) {
            double a = A(t - 1, s);
            if (s > 0) a = lse(a, A(t - 1, s - 1));
            if (s > 1 && ext(s) != blank && ext(s) != ext(s - 2)) a = lse(a, A(t - 1, s - 2));
            A(t, s) = a == kNegInf ? kNegInf : a + at(t, ext(s));
        }
    const double nll = -(S > 1 ? lse(A(T - 1, S - 1), A(T - 1, S - 2)) : A(T - 1, S - 1));
    if (std::isinf(nll) && zero_infinity) return 0.0;
    B(T - 1, S - 1) = at(T - 1, ext(S - 1));
    if (S > 1) B(T - 1, S - 2) = at(T - 1, ext(S - 2));
    for (int64_t t = T - 2; t >= 0; --t)
        for (int64_t s = 0; s < S; ++s) {
            double b = B(t + 1, s);
            if (s + 1 < S) b = lse(b, B(t + 1, s + 1));
            if (s + 2 < S && ext(s) != blank && ext(s) != ext(s + 2)) b = lse(b, B(t + 1, s + 2));
            B(t, s) = b == kNegInf ? kNegInf : b + at(t, ext(s));
        }
    // d nll / d lp[t, k] = -exp(logsumexp_{s: l'_s = k}(alpha_t(s) + beta_t(s)) - lp[t, k] + nll).
    std::vector<double> lcab(static_cast<std::size_t>(C));
    for (int64_t t = 0; t < T; ++t) {
        std::fill(lcab.begin(), lcab.end(), kNegInf);
        for (int64_t s = 0; s < S; ++s) {
            auto& slot = lcab[static_cast<std::size_t>(ext(s))];
            slot = lse(slot, A(t, s) + B(t, s));
        }
        for (int64_t k = 0; k < C; ++k) {
            const double l = lcab[static_cast<std::size_t>(k)];
            grad[static_cast<std::size_t>((t * N + n) * C + k)] =
                l == kNegInf ? 0.0 : -std::exp(l - at(t, k) + nll);
        }
    }
    return nll;
}

}  // namespace

CtcLoss CtcLossConfig::init() const {
    BURN_CHECK(blank >= 0, "[CtcLossConfig] blank must be a class index >= 0, got ", blank);
    return CtcLoss{blank, zero_infinity};
}

TensorAny CtcLoss::forward_any(const TensorAny& log_probs, const TensorAny& targets,
                               const TensorAny& input_lengths, const TensorAny& target_lengths) const {
    BURN_CHECK(
        log_probs.defined() && targets.defined() && input_lengths.defined() && target_lengths.defined(),
        "[CtcLoss] got an undefined tensor");
    BURN_CHECK_KIND(log_probs.rank() == 3 && is_float(log_probs.dtype()), shape,
                    "[CtcLoss] log_probs must be a Float tensor [T, N, C], got ", log_probs.dtype(), " ",
                    log_probs.shape());
    Problem p;
    p.T = log_probs.shape()[0];
    p.N = log_probs.shape()[1];
    p.C = log_probs.shape()[2];
    BURN_CHECK_KIND(blank >= 0 && blank < p.C, index, "[CtcLoss] blank ", blank,
                    " is not a class of log_probs ", log_probs.shape());
    for (const auto* t : {&targets, &input_lengths, &target_lengths})
        BURN_CHECK_KIND(is_int(t->dtype()), dtype, "[CtcLoss] targets and lengths must be Int tensors, got ",
                        t->dtype(), " ", t->shape());
    BURN_CHECK_KIND(input_lengths.shape() == Dims{p.N} && target_lengths.shape() == Dims{p.N}, shape,
                    "[CtcLoss] input_lengths ", input_lengths.shape(), " and target_lengths ",
                    target_lengths.shape(), " must both be [N] = [", p.N, "] (log_probs ", log_probs.shape(),
                    ")");
    BURN_CHECK_KIND((targets.rank() == 2 && targets.shape()[0] == p.N) || targets.rank() == 1, shape,
                    "[CtcLoss] targets must be [N, S] = [", p.N,
                    ", S] (padded) or the concatenated 1-D "
                    "labels, got ",
                    targets.shape());
    p.input_lengths = host_ints(input_lengths);
    p.target_lengths = host_ints(target_lengths);
    const std::vector<int64_t> labels = host_ints(targets);
    const int64_t width = targets.rank() == 2 ? targets.shape()[1] : 0;
    int64_t offset = 0;
    for (int64_t n = 0; n < p.N; ++n) {
        const int64_t tl = p.target_lengths[n], il = p.input_lengths[n];
        BURN_CHECK_KIND(il >= 0 && il <= p.T, index, "[CtcLoss] input_lengths[", n, "] = ", il,
                        " is outside [0, T = ", p.T, "]");
        const int64_t avail = targets.rank() == 2 ? width : static_cast<int64_t>(labels.size()) - offset;
        BURN_CHECK_KIND(tl >= 0 && tl <= avail, index, "[CtcLoss] target_lengths[", n, "] = ", tl,
                        " does not fit targets ", targets.shape());
        const int64_t start = targets.rank() == 2 ? n * width : offset;
        std::vector<int64_t> seq(labels.begin() + start, labels.begin() + start + tl);
        for (int64_t l : seq)
            BURN_CHECK_KIND(l >= 0 && l < p.C && l != blank, index, "[CtcLoss] target label ", l,
                            " of sample ", n, " must be in [0, ", p.C, ") and differ from blank ", blank);
        p.targets.push_back(std::move(seq));
        offset += tl;
    }
    return detail::host_loss("ctc_loss", log_probs, p.N, Dims{1, p.N, 1},
                             [p, blank = blank, zero_inf = zero_infinity](const std::vector<double>& lp,
                                                                          std::vector<double>& grad) {
                                 std::vector<double> loss(static_cast<std::size_t>(p.N));
                                 for (int64_t n = 0; n < p.N; ++n)
                                     loss[static_cast<std::size_t>(n)] =
                                         sample(p, lp, n, blank, zero_inf, grad);
                                 return loss;
                             });
}

TensorAny CtcLoss::reduce_any(const TensorAny& losses, const TensorAny& target_lengths, Reduction reduction) {
    if (reduction == Reduction::Mean || reduction == Reduction::Auto) {
        std::vector<double> len;
        for (int64_t l : host_ints(target_lengths))
            len.push_back(static_cast<double>(std::max<int64_t>(l, 1)));
        BURN_CHECK_KIND(losses.shape() == Dims{static_cast<int64_t>(len.size())}, shape, "[CtcLoss] losses ",
                        losses.shape(), " and target_lengths ", target_lengths.shape(), " differ in shape");
        TensorAny lens = ops::cast(ops::from_data(TensorData(len), losses.device()), losses.dtype());
        return ops::mean(ops::div(losses, std::move(lens)));
    }
    return reduce(losses, reduction);
}

}  // namespace burn::nn::loss
