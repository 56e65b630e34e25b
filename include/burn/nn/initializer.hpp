#pragma once
/// Parameter initialisers (burn's Initializer): constant, ones, zeros, uniform, normal, Kaiming and
/// Xavier (uniform and normal), orthogonal. Kaiming/Xavier use the fan-in/fan-out the layer passes.
#include <optional>

#include "burn/config/config.hpp"
#include "burn/tensor/tensor.hpp"

namespace burn::nn {

enum class InitializerKind {
    constant,
    ones,
    zeros,
    uniform,
    normal,
    kaiming_uniform,
    kaiming_normal,
    xavier_uniform,
    xavier_normal,
    orthogonal
};
BURN_ENUM(InitializerKind, constant, ones, zeros, uniform, normal, kaiming_uniform, kaiming_normal,
          xavier_uniform, xavier_normal, orthogonal)

struct Initializer {
    InitializerKind kind = InitializerKind::kaiming_uniform;
    double a = 0.0;             // constant value / uniform low / normal mean
    double b = 1.0;             // uniform high / normal std
    double gain = 1.0;          // Kaiming / Xavier gain
    bool fan_out_only = false;  // Kaiming: use fan_out instead of fan_in

    static Initializer Constant(double value) { return {InitializerKind::constant, value, 0, 1, false}; }
    static Initializer Ones() { return {InitializerKind::ones, 0, 0, 1, false}; }
    static Initializer Zeros() { return {InitializerKind::zeros, 0, 0, 1, false}; }
    static Initializer Uniform(double low, double high) {
        return {InitializerKind::uniform, low, high, 1, false};
    }
    static Initializer Normal(double mean, double std) {
        return {InitializerKind::normal, mean, std, 1, false};
    }
    static Initializer KaimingUniform(double gain, bool fan_out_only = false) {
        return {InitializerKind::kaiming_uniform, 0, 0, gain, fan_out_only};
    }
    static Initializer KaimingNormal(double gain, bool fan_out_only = false) {
        return {InitializerKind::kaiming_normal, 0, 0, gain, fan_out_only};
    }
    static Initializer XavierUniform(double gain) {
        return {InitializerKind::xavier_uniform, 0, 0, gain, false};
    }
    static Initializer XavierNormal(double gain) {
        return {InitializerKind::xavier_normal, 0, 0, gain, false};
    }
    /// torch.nn.init.orthogonal_: the tensor viewed as [shape[0], rest] is gain * Q, Q from the QR
    /// decomposition of a standard normal matrix with the signs fixed (R's diagonal positive), so
    /// W W^T = gain^2 I (rows <= columns) or W^T W = gain^2 I (rows > columns). Tensors of rank < 2
    /// (a layer's bias) are zeros.
    static Initializer Orthogonal(double gain = 1.0) {
        return {InitializerKind::orthogonal, 0, 0, gain, false};
    }

    /// A rank-erased tensor of shape initialised by this rule.
    TensorAny init_any(const Dims& shape, std::optional<int64_t> fan_in, std::optional<int64_t> fan_out,
                       const Device& device, DType dtype = DType::f32) const;
    template <std::size_t D>
    Tensor<D> init(const Shape<D>& shape, std::optional<int64_t> fan_in, std::optional<int64_t> fan_out,
                   const Device& device) const {
        return Tensor<D>(init_any(shape, fan_in, fan_out, device));
    }

    BURN_CONFIG(Initializer, kind, a, b, gain, fan_out_only)
};

/// PyTorch's and burn's default for Linear and Conv: U(-1/sqrt(fan_in), 1/sqrt(fan_in)).
inline Initializer default_layer_initializer() {
    return Initializer::KaimingUniform(0.57735026918962576451);
}

}  // namespace burn::nn
