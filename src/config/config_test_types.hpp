#pragma once
// Config types shared by the config tests: one field of every supported kind.
#include <array>
#include <burn/burn.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace cfgtest {

enum class Activation { relu, gelu, silu };
BURN_ENUM(Activation, relu, gelu, silu)

enum Plain { plain_a, plain_b = 5 };  // unscoped, with a gap
BURN_ENUM(Plain, plain_a, plain_b)

struct AdamConfig {
    double beta_1 = 0.9;
    double beta_2 = 0.999;
    float epsilon = 1e-5f;
    BURN_CONFIG(AdamConfig, beta_1, beta_2, epsilon)
};

// The padding setting the conv layers use: Valid | Same | Explicit{height, width}.
struct Valid {
    BURN_CONFIG(Valid)
};
struct Same {
    BURN_CONFIG(Same)
};
struct Explicit {
    size_t height = 0;
    size_t width = 0;
    BURN_CONFIG(Explicit, height, width)
};
using PaddingConfig2d = std::variant<Valid, Same, Explicit>;

// Custom alternative names through BURN_VARIANT_NAMES.
namespace custom {
struct PadSame {
    BURN_CONFIG(PadSame)
};
struct PadExplicit {
    size_t size = 0;
    BURN_CONFIG(PadExplicit, size)
};
using Pad1d = std::variant<PadSame, PadExplicit>;
BURN_VARIANT_NAMES(Pad1d, "same", "explicit")
}  // namespace custom

struct Everything {
    enum class NormKind { batch, layer };
    BURN_NESTED_ENUM(NormKind, batch, layer)

    bool flag = true;
    int8_t i8 = -8;
    uint8_t u8 = 8;
    int16_t i16 = -16;
    uint16_t u16 = 16;
    int32_t i32 = -32;
    uint32_t u32 = 32;
    int64_t i64 = -64;
    uint64_t u64 = 64;
    size_t size = 7;
    char ch = 'a';
    float f32 = 0.1f;
    double f64 = 0.2;
    std::string name = "model";
    Activation activation = Activation::gelu;
    Plain plain = plain_b;
    AdamConfig optimizer{};
    std::vector<size_t> layers{16, 32};
    std::vector<AdamConfig> optimizers;
    std::vector<bool> mask{true, false};
    std::array<int, 3> kernel{3, 3, 1};
    std::optional<double> dropout;
    std::optional<AdamConfig> maybe_optimizer;
    std::pair<std::string, int> tag{"x", 1};
    PaddingConfig2d padding = Valid{};
    std::variant<int64_t, double, std::string> number = int64_t{3};
    std::variant<Activation, AdamConfig> either = Activation::relu;
    std::vector<std::vector<float>> matrix;
    std::optional<std::vector<Activation>> acts;
    NormKind norm = NormKind::batch;
    BURN_CONFIG(Everything, flag, i8, u8, i16, u16, i32, u32, i64, u64, size, ch, f32, f64, name, activation,
                plain, optimizer, layers, optimizers, mask, kernel, dropout, maybe_optimizer, tag, padding,
                number, either, matrix, acts, norm)
};
using Norm = Everything::NormKind;

struct ConvConfig {
    PaddingConfig2d padding = Explicit{1, 1};
    custom::Pad1d padding_1d = custom::PadSame{};
    std::variant<std::vector<int>, std::string> shapes;
    AdamConfig optimizer{.beta_1 = 0.8};
    std::optional<int> groups = 2;
    BURN_CONFIG(ConvConfig, padding, padding_1d, shapes, optimizer, groups)
};

// Field names that the generated code must not confuse with its own parameters.
struct Shadow {
    int fn = 1;
    int value = 2;
    int copy = 3;
    int os = 4;
    BURN_CONFIG(Shadow, fn, value, copy, os)
};

}  // namespace cfgtest
