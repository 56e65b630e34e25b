#pragma once
/// The "lazy" decorator: `Device::cpu().lazy()` queues ops until a read (into_data, into_scalar), a
/// sync, an op that does not fuse or a size limit, and runs chains of elementwise ops as one pass over
/// cache-sized blocks; `Device::cuda(0).lazy()` as one generated kernel (docs/fusion.md). These are its
/// counters and its debug dump.
#include <cstdint>
#include <string>

namespace burn::lazy {

/// What lazy devices of this process have done so far.
struct Stats {
    int64_t fused_passes = 0;  // fused passes run (each one pass over its elements)
    int64_t fused_ops = 0;     // elementwise ops and casts those passes computed
    int64_t materialized = 0;  // buffers those passes wrote (the outputs someone holds)
    int64_t passthrough = 0;   // ops run unchanged on the device below (not fusable)
};
Stats stats();
void reset_stats();

/// Prints every fused pass to stderr before it runs (as BURN_LAZY_DUMP=1 does).
void set_dump(bool on);
/// The listing of the last fused pass (what the dump prints), empty before the first.
std::string last_program();

}  // namespace burn::lazy
