#pragma once
// Process-wide device state: random streams per device.
#include <cstdint>

#include "burn/core/device.hpp"

namespace burn::detail {

/// A Philox key and the counter offset reserved for `count` random values on device.
struct RandomStream {
    uint64_t key;
    uint64_t offset;
};
RandomStream next_random(const Device& device, int64_t count);

}  // namespace burn::detail
