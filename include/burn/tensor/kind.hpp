#pragma once
/// Tensor kinds, the second template parameter of Tensor: Float (default f32), Int (default i32),
/// Bool. The dtype is a run-time property within the kind.
#include <cstdint>

#include "burn/core/dtype.hpp"

namespace burn {

struct Float {
    static constexpr DType default_dtype = DType::f32;
    using elem = float;
    static constexpr const char* name = "Float";
    static constexpr bool accepts(DType d) { return is_float(d); }
};
struct Int {
    static constexpr DType default_dtype = DType::i32;
    using elem = int32_t;
    static constexpr const char* name = "Int";
    static constexpr bool accepts(DType d) { return is_int(d); }
};
struct Bool {
    static constexpr DType default_dtype = DType::boolean;
    using elem = bool;
    static constexpr const char* name = "Bool";
    static constexpr bool accepts(DType d) { return is_bool(d); }
};

template <class K>
concept TensorKind = std::is_same_v<K, Float> || std::is_same_v<K, Int> || std::is_same_v<K, Bool>;
template <class K>
concept Numeric = std::is_same_v<K, Float> || std::is_same_v<K, Int>;

/// Random distributions for Tensor::random. Default is uniform on [0, 1).
struct Distribution {
    enum class Kind : uint8_t { uniform, normal, bernoulli };
    Kind kind = Kind::uniform;
    double a = 0.0;  // low / mean / probability
    double b = 1.0;  // high / std

    static constexpr Distribution Uniform(double low, double high) { return {Kind::uniform, low, high}; }
    static constexpr Distribution Normal(double mean, double std) { return {Kind::normal, mean, std}; }
    static constexpr Distribution Bernoulli(double prob) { return {Kind::bernoulli, prob, 0.0}; }
    static const Distribution Default;
};
inline constexpr Distribution Distribution::Default{Distribution::Kind::uniform, 0.0, 1.0};

}  // namespace burn
