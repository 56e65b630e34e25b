#pragma once
/// How pad fills the new border (burn's PadMode, torch.nn.functional.pad's modes).
#include <cstdint>

namespace burn {

struct PadMode {
    enum class Kind : uint8_t {
        constant,  // every new element is value
        reflect,   // mirrored without repeating the edge: [1, 2, 3] padded by 2 -> [3, 2, 1, 2, 3, 2, 1]
        edge,      // the edge element repeated (torch's "replicate"): [1, 2, 3] -> [1, 1, 1, 2, 3, 3, 3]
    };
    Kind kind = Kind::constant;
    double value = 0;
    static PadMode Constant(double v = 0) { return {Kind::constant, v}; }
    static PadMode Reflect() { return {Kind::reflect, 0}; }
    static PadMode Edge() { return {Kind::edge, 0}; }
};

}  // namespace burn
