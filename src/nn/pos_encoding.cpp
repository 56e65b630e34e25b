// Sinusoidal and rotary position encodings: tables computed in double on the host, once.
#include "burn/nn/pos_encoding.hpp"

#include <cmath>
#include <vector>

namespace burn::nn {

using namespace ops;

namespace {
TensorAny on_device_of(const Tensor<2>& table, const TensorAny& x) {
    return to_device(table.handle(), x.device());
}
TensorAny on_device_of(const Tensor<3>& table, const TensorAny& x) {
    return to_device(table.handle(), x.device());
}
}  // namespace

Tensor<2> generate_sinusoids(std::size_t length, std::size_t d_model, double max_timescale,
                             const Device& device) {
    BURN_CHECK(d_model % 2 == 0 && d_model > 0,
               "[PositionalEncoding] d_model must be even and positive, got ", d_model);
    std::vector<float> v(length * d_model);
    const double step = -std::log(max_timescale) / static_cast<double>(d_model);
    for (std::size_t p = 0; p < length; ++p) {
        for (std::size_t i = 0; i < d_model; i += 2) {
            const double angle = static_cast<double>(p) * std::exp(static_cast<double>(i) * step);
            v[p * d_model + i] = static_cast<float>(std::sin(angle));
            v[p * d_model + i + 1] = static_cast<float>(std::cos(angle));
        }
    }
    return Tensor<2>::from_data(
        TensorData(v, Dims{static_cast<int64_t>(length), static_cast<int64_t>(d_model)}), device);
}

PositionalEncoding PositionalEncodingConfig::init(const Device& device) const {
    BURN_CHECK(max_sequence_size > 0, "[PositionalEncodingConfig] max_sequence_size must be positive");
    BURN_CHECK(max_timescale > 0, "[PositionalEncodingConfig] max_timescale must be positive");
    PositionalEncoding pe;
    pe.sinusoids = generate_sinusoids(max_sequence_size, d_model, max_timescale, device);
    pe.max_sequence_size = max_sequence_size;
    pe.d_model = d_model;
    pe.max_timescale = max_timescale;
    return pe;
}

TensorAny PositionalEncoding::forward_any(const TensorAny& x) const {
    const auto d = static_cast<int64_t>(d_model), max = static_cast<int64_t>(max_sequence_size);
    BURN_CHECK_KIND(x.rank() == 3 && x.shape()[2] == d, shape, "[PositionalEncoding] input ", x.shape(),
                    " must be [batch, seq, ", d, "]");
    const int64_t seq = x.shape()[1];
    BURN_CHECK_KIND(seq <= max, shape, "[PositionalEncoding] sequence length ", seq,
                    " exceeds max_sequence_size ", max, "; raise it in PositionalEncodingConfig");
    TensorAny table = narrow(on_device_of(sinusoids, x), 0, 0, seq);
    return add(x, unsqueeze_dim(std::move(table), 0));
}

RotaryEncoding RotaryEncodingConfig::init(const Device& device) const {
    BURN_CHECK(d_model % 2 == 0 && d_model > 0,
               "[RotaryEncodingConfig] d_model must be even and positive, got ", d_model);
    BURN_CHECK(max_sequence_length > 0, "[RotaryEncodingConfig] max_sequence_length must be positive");
    BURN_CHECK(theta > 0, "[RotaryEncodingConfig] theta must be positive, got ", theta);
    const std::size_t half = d_model / 2;
    std::vector<float> c(max_sequence_length * d_model), s(max_sequence_length * d_model);
    for (std::size_t p = 0; p < max_sequence_length; ++p) {
        for (std::size_t i = 0; i < half; ++i) {
            const double freq = std::pow(theta, -static_cast<double>(2 * i) / static_cast<double>(d_model));
            const double angle = static_cast<double>(p) * freq;
            const std::size_t at = (p * half + i) * 2;
            c[at] = c[at + 1] = static_cast<float>(std::cos(angle));
            s[at] = static_cast<float>(-std::sin(angle));
            s[at + 1] = static_cast<float>(std::sin(angle));
        }
    }
    const Dims shape{static_cast<int64_t>(max_sequence_length), static_cast<int64_t>(half), 2};
    RotaryEncoding r;
    r.cos = Tensor<3>::from_data(TensorData(c, shape), device);
    r.sin = Tensor<3>::from_data(TensorData(s, shape), device);
    r.max_sequence_length = max_sequence_length;
    r.d_model = d_model;
    r.theta = theta;
    return r;
}

TensorAny RotaryEncoding::forward_any(const TensorAny& x, std::size_t start) const {
    const auto d = static_cast<int64_t>(d_model);
    BURN_CHECK_KIND(x.rank() >= 2 && x.rank() < 8 && x.shape().back() == d, shape, "[RotaryEncoding] input ",
                    x.shape(), " must be [..., seq, ", d, "]");
    const int r = x.rank();
    const int64_t seq = x.shape()[r - 2];
    BURN_CHECK_KIND(static_cast<int64_t>(start) + seq <= static_cast<int64_t>(max_sequence_length), shape,
                    "[RotaryEncoding] positions ", start, " .. ", static_cast<int64_t>(start) + seq - 1,
                    " exceed max_sequence_length ", max_sequence_length);
    // x as [..., seq, d/2, 2]; out = x * (cos, cos) + swap_pairs(x) * (-sin, sin), swap_pairs a flip view.
    Dims pairs = x.shape();
    pairs[r - 1] = d / 2;
    pairs.push_back(2);
    Dims table = Dims::filled(r + 1, 1);
    table[r - 2] = seq;
    table[r - 1] = d / 2;
    table[r] = 2;
    auto rows = [&](const Tensor<3>& t) {
        return reshape(narrow(on_device_of(t, x), 0, static_cast<int64_t>(start), seq), table);
    };
    TensorAny xr = reshape(x, pairs);
    TensorAny swapped = flip(xr, Dims{r});
    TensorAny out = add(mul(std::move(xr), rows(cos)), mul(std::move(swapped), rows(sin)));
    return reshape(std::move(out), x.shape());
}

}  // namespace burn::nn
