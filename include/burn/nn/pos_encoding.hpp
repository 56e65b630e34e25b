#pragma once
/// Position encodings: PositionalEncoding (the fixed sinusoids of "Attention Is All You Need", added
/// to the input) and RotaryEncoding (RoPE: pairs of features rotated by a position-dependent angle).
/// Their tables are constants, built once by init on the given device (not parameters, not saved).
#include "burn/config/config.hpp"
#include "burn/module/module.hpp"

namespace burn::nn {

struct PositionalEncoding {
    Tensor<2> sinusoids;  // [max_sequence_size, d_model]: sin at even features, cos at odd ones
    std::size_t max_sequence_size = 5000;
    std::size_t d_model = 0;
    double max_timescale = 10000.0;

    /// input [batch, seq, d_model] -> input + sinusoids[:seq] (seq <= max_sequence_size)
    Tensor<3> forward(const Tensor<3>& input) const { return Tensor<3>(forward_any(input.handle())); }
    TensorAny forward_any(const TensorAny& input) const;

    BURN_MODULE(PositionalEncoding, max_sequence_size, d_model, max_timescale)
};

struct PositionalEncodingConfig {
    std::size_t d_model = 0;  // even
    std::size_t max_sequence_size = 5000;
    double max_timescale = 10000.0;
    PositionalEncoding init(const Device& device = Device()) const;
    BURN_CONFIG(PositionalEncodingConfig, d_model, max_sequence_size, max_timescale)
};

/// The sinusoid table [length, d_model]: pe[p, 2i] = sin(p / timescale^(2i/d)), pe[p, 2i+1] = cos(...).
Tensor<2> generate_sinusoids(std::size_t length, std::size_t d_model, double max_timescale,
                             const Device& device = Device());

/// Rotary position encoding on interleaved pairs (x[2i], x[2i+1]) (burn's and Meta Llama's layout):
/// the pair at position p turns by p * theta^(-2i / d_model). Applies to [..., seq, d_model], typically
/// [batch, heads, seq, d_head] queries and keys.
struct RotaryEncoding {
    Tensor<3> cos;  // [max_sequence_length, d_model / 2, 2]: (cos, cos)
    Tensor<3> sin;  // [max_sequence_length, d_model / 2, 2]: (-sin, sin)
    std::size_t max_sequence_length = 0;
    std::size_t d_model = 0;
    double theta = 10000.0;

    /// x [..., seq, d_model] with positions start .. start + seq - 1 (start: tokens already seen when
    /// decoding with a cache).
    template <std::size_t D>
    Tensor<D> forward(const Tensor<D>& x, std::size_t start = 0) const {
        static_assert(D >= 2 && D < 8, "RotaryEncoding needs [..., seq, d_model] of rank 2 to 7");
        return Tensor<D>(forward_any(x.handle(), start));
    }
    template <std::size_t D>
    Tensor<D> apply(const Tensor<D>& x, std::size_t start) const {
        return forward(x, start);
    }
    TensorAny forward_any(const TensorAny& x, std::size_t start) const;

    BURN_MODULE(RotaryEncoding, max_sequence_length, d_model, theta)
};

struct RotaryEncodingConfig {
    std::size_t max_sequence_length = 0;
    std::size_t d_model = 0;  // even
    double theta = 10000.0;
    RotaryEncoding init(const Device& device = Device()) const;
    BURN_CONFIG(RotaryEncodingConfig, max_sequence_length, d_model, theta)
};

}  // namespace burn::nn
