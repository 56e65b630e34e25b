// RNN-T loss: alpha/beta recursions over each sample's (T, U + 1) lattice in log space on the host
// (double), one custom autodiff op whose backward scales the gradient computed alongside the forward
// pass, as ctc.cpp and torchaudio's kernel do.
#include "burn/nn/loss/rnnt.hpp"

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

struct Lattice {
    int64_t N = 0, T = 0, U1 = 0, V = 0;  // U1 = U + 1
    int64_t blank = 0;
    double clamp = -1;
    bool fused = true;
    std::vector<int64_t> logit_lengths, target_lengths;
    std::vector<std::vector<int64_t>> targets;
};

/// Loss of sample n and, into grad ([N, T, U + 1, V] row-major), d loss / d logits for it.
double sample(const Lattice& p, const std::vector<double>& x, int64_t n, std::vector<double>& grad) {
    const int64_t T = p.logit_lengths[static_cast<std::size_t>(n)];
    const int64_t U = p.target_lengths[static_cast<std::size_t>(n)], V = p.V, U1 = p.U1;
    const auto& y = p.targets[static_cast<std::size_t>(n)];
    auto cell = [&](int64_t t, int64_t u) { return static_cast<std::size_t>(((n * p.T + t) * U1 + u) * V); };
    // log-probabilities of the cells the lattice uses (log_softmax over V when fused)
    std::vector<double> lp(static_cast<std::size_t>(T * (U + 1) * V));
    auto LP = [&](int64_t t, int64_t u, int64_t v) -> double& {
        return lp[static_cast<std::size_t>((t * (U + 1) + u) * V + v)];
    };
    for (int64_t t = 0; t < T; ++t)
        for (int64_t u = 0; u <= U; ++u) {
            const double* row = &x[cell(t, u)];
            double norm = 0;
            if (p.fused) {
                double m = kNegInf;
                for (int64_t v = 0; v < V; ++v) m = std::max(m, row[v]);
                double s = 0;
                for (int64_t v = 0; v < V; ++v) s += std::exp(row[v] - m);
                norm = m + std::log(s);
            }
            for (int64_t v = 0; v < V; ++v) LP(t, u, v) = row[v] - norm;
        }
    auto emit = [&](int64_t t, int64_t u) {
        return LP(t, u, y[static_cast<std::size_t>(u)]);
    };  // label u + 1
    std::vector<double> alpha(static_cast<std::size_t>(T * (U + 1)), kNegInf), beta(alpha.size(), kNegInf);
    auto A = [&](int64_t t, int64_t u) -> double& {
        return alpha[static_cast<std::size_t>(t * (U + 1) + u)];
    };
    auto B = [&](int64_t t, int64_t u) -> double& { return beta[static_cast<std::size_t>(t * (U + 1) + u)]; };
    for (int64_t t = 0; t < T; ++t)
        for (int64_t u = 0; u <= U; ++u) {
            if (t == 0 && u == 0) {
                A(0, 0) = 0;
                continue;
            }
            double a = kNegInf;
            if (t > 0) a = A(t - 1, u) + LP(t - 1, u, p.blank);
            if (u > 0) a = lse(a, A(t, u - 1) + emit(t, u - 1));
            A(t, u) = a;
        }
    for (int64_t t = T - 1; t >= 0; --t)
        for (int64_t u = U; u >= 0; --u) {
            if (t == T - 1 && u == U) {
                B(t, u) = LP(t, u, p.blank);
                continue;
            }
            double b = kNegInf;
            if (t + 1 < T) b = B(t + 1, u) + LP(t, u, p.blank);
            if (u < U) b = lse(b, B(t, u + 1) + emit(t, u));
            B(t, u) = b;
        }
    const double log_p = B(0, 0);
    // d loss / d lp: minus the posterior of each transition; then through log_softmax when fused
    std::vector<double> g(static_cast<std::size_t>(V));
    for (int64_t t = 0; t < T; ++t)
        for (int64_t u = 0; u <= U; ++u) {
            std::fill(g.begin(), g.end(), 0.0);
            const double next_blank = t == T - 1 ? (u == U ? 0.0 : kNegInf) : B(t + 1, u);
            g[static_cast<std::size_t>(p.blank)] =
                -std::exp(A(t, u) + LP(t, u, p.blank) + next_blank - log_p);
            if (u < U) {
                const auto v = static_cast<std::size_t>(y[static_cast<std::size_t>(u)]);
                g[v] -= std::exp(A(t, u) + emit(t, u) + B(t, u + 1) - log_p);
            }
            double total = 0;
            for (double gv : g) total += gv;
            double* out = &grad[cell(t, u)];
            for (int64_t v = 0; v < V; ++v) {
                double d = g[static_cast<std::size_t>(v)];
                if (p.fused) d -= std::exp(LP(t, u, v)) * total;
                if (p.clamp > 0) d = std::clamp(d, -p.clamp, p.clamp);
                out[v] = d;
            }
        }
    return -log_p;
}

}  // namespace

RnntLoss RnntLossConfig::init() const {
    return RnntLoss{blank, clamp, fused_log_softmax};
}

TensorAny RnntLoss::forward_any(const TensorAny& logits, const TensorAny& targets,
                                const TensorAny& logit_lengths, const TensorAny& target_lengths) const {
    BURN_CHECK(logits.defined() && targets.defined() && logit_lengths.defined() && target_lengths.defined(),
               "[RnntLoss] got an undefined tensor");
    BURN_CHECK_KIND(logits.rank() == 4 && is_float(logits.dtype()), shape,
                    "[RnntLoss] logits must be a Float tensor [N, T, U + 1, V], got ", logits.dtype(), " ",
                    logits.shape());
    Lattice p;
    p.N = logits.shape()[0];
    p.T = logits.shape()[1];
    p.U1 = logits.shape()[2];
    p.V = logits.shape()[3];
    p.blank = blank < 0 ? blank + p.V : blank;
    p.clamp = clamp;
    p.fused = fused_log_softmax;
    BURN_CHECK_KIND(p.blank >= 0 && p.blank < p.V, index, "[RnntLoss] blank ", blank,
                    " is not a class of logits ", logits.shape());
    for (const auto* t : {&targets, &logit_lengths, &target_lengths})
        BURN_CHECK_KIND(is_int(t->dtype()), dtype, "[RnntLoss] targets and lengths must be Int tensors, got ",
                        t->dtype(), " ", t->shape());
    BURN_CHECK_KIND(logit_lengths.shape() == Dims{p.N} && target_lengths.shape() == Dims{p.N}, shape,
                    "[RnntLoss] logit_lengths ", logit_lengths.shape(), " and target_lengths ",
                    target_lengths.shape(), " must both be [N] = [", p.N, "] (logits ", logits.shape(), ")");
    BURN_CHECK_KIND(targets.rank() == 2 && targets.shape()[0] == p.N && targets.shape()[1] == p.U1 - 1, shape,
                    "[RnntLoss] targets must be [N, U] = [", p.N, ", ", p.U1 - 1, "] for logits ",
                    logits.shape(), ", got ", targets.shape());
    p.logit_lengths = host_ints(logit_lengths);
    p.target_lengths = host_ints(target_lengths);
    const std::vector<int64_t> labels = host_ints(targets);
    for (int64_t n = 0; n < p.N; ++n) {
        const int64_t tl = p.target_lengths[static_cast<std::size_t>(n)];
        const int64_t ll = p.logit_lengths[static_cast<std::size_t>(n)];
        BURN_CHECK_KIND(ll >= 1 && ll <= p.T, index, "[RnntLoss] logit_lengths[", n, "] = ", ll,
                        " is outside [1, T = ", p.T, "]");
        BURN_CHECK_KIND(tl >= 0 && tl < p.U1, index, "[RnntLoss] target_lengths[", n, "] = ", tl,
                        " is outside [0, U = ", p.U1 - 1, "]");
        std::vector<int64_t> seq(labels.begin() + n * (p.U1 - 1), labels.begin() + n * (p.U1 - 1) + tl);
        for (int64_t l : seq)
            BURN_CHECK_KIND(l >= 0 && l < p.V && l != p.blank, index, "[RnntLoss] target label ", l,
                            " of sample ", n, " must be in [0, ", p.V, ") and differ from blank ", p.blank);
        p.targets.push_back(std::move(seq));
    }
    return detail::host_loss("rnnt_loss", logits, p.N, Dims{p.N, 1, 1, 1},
                             [p](const std::vector<double>& x, std::vector<double>& grad) {
                                 std::vector<double> loss(static_cast<std::size_t>(p.N));
                                 for (int64_t n = 0; n < p.N; ++n)
                                     loss[static_cast<std::size_t>(n)] = sample(p, x, n, grad);
                                 return loss;
                             });
}

}  // namespace burn::nn::loss
