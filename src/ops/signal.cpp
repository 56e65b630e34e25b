// Window functions and multinomial sampling (no rows of their own; signal.hpp). A window is its n
// cosine sums computed on the host in float64 and converted to the dtype (no f64 kernel needed, as in
// builds configured without them). multinomial is a composite in the probs' precision (f32 for f16
// and bf16): it inverts the normalised cumulative distribution at uniform draws (with replacement) or
// keeps the top num_samples of log(u) / p (without: the exponential race, Efraimidis and Spirakis),
// drawing from ops::random.
#include "burn/tensor/signal.hpp"

#include <cmath>

#include "ops/common.hpp"

namespace burn::ops {

using namespace detail;

namespace signal_impl {  // named, not anonymous: unity builds merge anonymous namespaces

TensorAny cosine_window(const char* op, int64_t n, bool periodic, DType dtype, const Device& device,
                        double a0, double a1, double a2) {
    BURN_CHECK_KIND(n >= 0, shape, "[", op, "] window length ", n, " must be >= 0");
    BURN_CHECK_KIND(is_float(dtype), dtype, "[", op, "] makes a float window, not ", dtype);
    if (n <= 1) return full(Dims{n}, 1.0, dtype, device);
    const double m = static_cast<double>(periodic ? n : n - 1);
    const double pi = 3.14159265358979323846;
    std::vector<double> w(static_cast<std::size_t>(n));
    for (int64_t k = 0; k < n; ++k) {
        const double t = 2 * pi * static_cast<double>(k) / m;
        w[static_cast<std::size_t>(k)] = a0 - a1 * std::cos(t) + a2 * std::cos(2 * t);
    }
    return from_data(TensorData(std::move(w), Dims{n}).convert(dtype), device);
}

}  // namespace signal_impl

using namespace signal_impl;

TensorAny hann_window(int64_t n, bool periodic, DType dtype, const Device& device) {
    return cosine_window("hann_window", n, periodic, dtype, device, 0.5, 0.5, 0);
}

TensorAny hamming_window(int64_t n, bool periodic, DType dtype, const Device& device) {
    return cosine_window("hamming_window", n, periodic, dtype, device, 0.54, 0.46, 0);
}

TensorAny blackman_window(int64_t n, bool periodic, DType dtype, const Device& device) {
    return cosine_window("blackman_window", n, periodic, dtype, device, 0.42, 0.5, 0.08);
}

TensorAny multinomial(TensorAny probs, int64_t num_samples, bool replacement) {
    check_defined(probs, "multinomial");
    check_float(probs, "multinomial");
    BURN_CHECK_KIND(probs.rank() == 1 || probs.rank() == 2, shape,
                    "[multinomial] probs must be [k] or [rows, k], got ", describe(probs));
    const int64_t k = probs.shape()[probs.rank() - 1];
    BURN_CHECK_KIND(k > 0, shape, "[multinomial] probs ", describe(probs), " has no category");
    BURN_CHECK_KIND(num_samples >= 1, shape, "[multinomial] num_samples ", num_samples, " must be >= 1");
    BURN_CHECK_KIND(replacement || num_samples <= k, shape, "[multinomial] cannot draw ", num_samples,
                    " samples without replacement from ", k, " categories; pass replacement = true");
    const bool vec = probs.rank() == 1;
    const DType ct = probs.dtype() == DType::f64 ? DType::f64 : DType::f32;  // f16 and bf16 draw in f32
    TensorAny p = cast(vec ? unsqueeze_dim(std::move(probs), 0) : std::move(probs), ct);  // [rows, k]
    const int64_t rows = p.shape()[0];
    // the checks: one host read of [rows, 3] = {min, sum (NaN or inf if any is), non-zero count}
    {
        TensorAny summary =
            cat({min_dim(p, 1), sum_dim(p, 1), sum_dim(cast(not_equal_elem(p, 0), ct), 1)}, 1);
        const std::vector<double> v = into_data(summary).convert(DType::f64).to_vec<double>();
        for (int64_t r = 0; r < rows; ++r) {
            const double mn = v[static_cast<std::size_t>(r * 3)],
                         sum = v[static_cast<std::size_t>(r * 3 + 1)],
                         nz = v[static_cast<std::size_t>(r * 3 + 2)];
            BURN_CHECK(mn >= 0 && std::isfinite(sum) && sum > 0, "[multinomial] row ", r,
                       " of probs must be non-negative and finite with a positive sum (min ", mn, ", sum ",
                       sum, ")");
            BURN_CHECK(replacement || nz >= static_cast<double>(num_samples), "[multinomial] row ", r,
                       " has ", nz, " categories of non-zero probability, fewer than the ", num_samples,
                       " samples asked for without replacement");
        }
    }
    TensorAny u = random(Dims{rows, num_samples}, Distribution::Default, ct, p.device());
    TensorAny idx;
    if (replacement) {
        // divided by its own last entry, which makes that entry exactly 1 (> every u < 1): rounding can
        // never send a draw past the last category of non-zero weight
        TensorAny c = cumsum(p, 1);  // [rows, k]
        TensorAny cdf = div(c, narrow(c, 1, k - 1, 1));
        // the category of u: the number of cdf entries <= u (at most k - 1: cdf[k - 1] = 1 > u)
        TensorAny le = lower_equal(unsqueeze_dim(cdf, 1), unsqueeze_dim(u, 2));  // [rows, s, k]
        idx = clamp(sum_dim(cast(std::move(le), DType::i32), 2), 0, static_cast<double>(k - 1));
        idx = reshape(std::move(idx), Dims{rows, num_samples});
    } else {
        // keys log(u) / p over the k categories: u [rows, k] this time; p = 0 gives -inf (never drawn)
        TensorAny uk = random(Dims{rows, k}, Distribution::Default, ct, p.device());
        TensorAny keys = div(log(std::move(uk)), p);
        idx = topk_with_indices(std::move(keys), num_samples, 1).second;
    }
    return vec ? reshape(std::move(idx), Dims{num_samples}) : idx;
}

}  // namespace burn::ops
