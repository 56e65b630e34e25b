#pragma once
/// The "host_fallback" decorator: `Device::cuda(0).decorate("host_fallback")` runs every op its
/// backend supports there, and every other op on the CPU through host copies (slow, but a backend
/// that lacks a kernel still runs the model). Ops whose row has a decomposition into supported
/// primitives take that first (dispatch); this catches what is left.
#include <cstdint>

namespace burn {

/// Ops that "host_fallback" devices of this process have run on the CPU so far.
int64_t host_fallback_ops();

}  // namespace burn
