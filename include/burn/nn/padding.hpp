#pragma once
/// Padding settings of the conv and pool layers (burn's PaddingConfig1d/2d/3d): Valid (none), Same (the
/// output keeps ceil(input / stride) positions; an odd total puts the extra position at the end, as ONNX
/// and PyTorch do) or Explicit sizes. They serialise as {"type": "Same"} or
/// {"type": "Explicit", "value": {"height": 1, "width": 1}}.
///
///     nn::Conv2dConfig{{3, 8}, {3, 3}}.with_padding(nn::Explicit2d{1, 1})        // 1 on every side
///     nn::Conv2dConfig{{3, 8}, {3, 3}}.with_padding(nn::Explicit2d{1, 2, 3, 4})  // top, left, bottom, right
#include <array>
#include <cstddef>
#include <optional>
#include <utility>
#include <variant>

#include "burn/config/config.hpp"

namespace burn::nn {

struct Valid {
    BURN_CONFIG(Valid)
};
struct Same {
    BURN_CONFIG(Same)
};
/// `left` before the sequence and `right` after it (right = left when unset).
struct Explicit1d {
    std::size_t left = 0;
    std::optional<std::size_t> right = std::nullopt;
    BURN_CONFIG(Explicit1d, left, right)
};
/// `height` rows above and `width` columns left of the image, and the same below and right unless
/// `bottom` / `right` say otherwise (burn's Explicit(top, left, bottom, right)).
struct Explicit2d {
    std::size_t height = 0;
    std::size_t width = 0;
    std::optional<std::size_t> bottom = std::nullopt;
    std::optional<std::size_t> right = std::nullopt;
    BURN_CONFIG(Explicit2d, height, width, bottom, right)
};
/// front / top / left, with back / bottom / right defaulting to them.
struct Explicit3d {
    std::size_t depth = 0;
    std::size_t height = 0;
    std::size_t width = 0;
    std::optional<std::size_t> back = std::nullopt;
    std::optional<std::size_t> bottom = std::nullopt;
    std::optional<std::size_t> right = std::nullopt;
    BURN_CONFIG(Explicit3d, depth, height, width, back, bottom, right)
};

using PaddingConfig1d = std::variant<Valid, Same, Explicit1d>;
using PaddingConfig2d = std::variant<Valid, Same, Explicit2d>;
using PaddingConfig3d = std::variant<Valid, Same, Explicit3d>;
BURN_VARIANT_NAMES(PaddingConfig1d, "Valid", "Same", "Explicit")
BURN_VARIANT_NAMES(PaddingConfig2d, "Valid", "Same", "Explicit")
BURN_VARIANT_NAMES(PaddingConfig3d, "Valid", "Same", "Explicit")

/// (begin, end) padding per spatial dim for an input of spatial size `in`.
using PaddingPairs1d = std::array<std::pair<std::size_t, std::size_t>, 1>;
using PaddingPairs2d = std::array<std::pair<std::size_t, std::size_t>, 2>;
using PaddingPairs3d = std::array<std::pair<std::size_t, std::size_t>, 3>;
PaddingPairs1d padding_pairs(const PaddingConfig1d& p, std::array<std::size_t, 1> in, std::array<std::size_t, 1> kernel,
                             std::array<std::size_t, 1> stride, std::array<std::size_t, 1> dilation);
PaddingPairs2d padding_pairs(const PaddingConfig2d& p, std::array<std::size_t, 2> in, std::array<std::size_t, 2> kernel,
                             std::array<std::size_t, 2> stride, std::array<std::size_t, 2> dilation);
PaddingPairs3d padding_pairs(const PaddingConfig3d& p, std::array<std::size_t, 3> in, std::array<std::size_t, 3> kernel,
                             std::array<std::size_t, 3> stride, std::array<std::size_t, 3> dilation);

}  // namespace burn::nn
