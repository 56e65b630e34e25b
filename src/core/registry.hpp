#pragma once
// Process-wide device state: random streams per device and the decorator factories.
#include <cstdint>

#include "burn/core/device.hpp"

namespace burn::detail {

/// A Philox key and the counter offset reserved for `count` random values on device.
struct RandomStream {
    uint64_t key;
    uint64_t offset;
};
RandomStream next_random(const Device& device, int64_t count);

/// Builds (or finds) the autodiff decorator over an inner device's backend.
using DecoratorFactory = Backend& (*)(const Device& inner);
void register_autodiff(DecoratorFactory factory);

}  // namespace burn::detail
