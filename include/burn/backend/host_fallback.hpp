#pragma once
/// The "host_fallback" decorator: `Device::cuda(0).decorate("host_fallback")` runs every op its
/// backend supports there; a derived row it lacks is decomposed into primitives (dispatch, as on any
/// device), and a primitive it lacks runs on the CPU through host copies (slow, but a backend that
/// lacks a kernel still runs the model).
#include <cstdint>

namespace burn {

/// Ops that "host_fallback" devices of this process have run on the CPU so far.
int64_t host_fallback_ops();

}  // namespace burn
