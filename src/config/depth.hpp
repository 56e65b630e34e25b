#pragma once
// The deepest nesting of arrays and objects that parse() reads and dump() writes. JSON text is
// parsed by a loop, but a Value tree is printed by recursion; bounding the depth bounds the stack
// (the Burnpack CBOR reader stops at the same depth).
#include <cstddef>

namespace burn::config {

inline constexpr std::size_t kMaxDepth = 128;

}  // namespace burn::config
