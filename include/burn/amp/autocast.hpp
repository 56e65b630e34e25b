#pragma once
/// Mixed precision (docs/mixed_precision.md): autocast, mirroring torch.autocast. Under autocast the
/// compute-bound ops (matmul, conv, attention: their rows' policy is `low`) read their float32 inputs
/// cast to bf16 or f16 and accumulate in float32; the precision-sensitive ones (softmax, norms,
/// reductions, losses, exp/log, ...: `float32`) read f16/bf16 inputs cast up to float32; the rest run
/// as called. Every op still returns the dtype its frontend records (float32 for float32 inputs), so
/// parameters stay float32 masters and their gradients arrive in float32: the cast happens at the op,
/// and autodiff differentiates through it.
///
///     {
///         autocast::Guard amp(DType::bf16);          // this thread, until the scope ends
///         auto loss = model.forward(x) ...;          // matmuls in bf16
///     }
///     auto device = Device::cpu().autocast(DType::bf16).autodiff();   // or: a device decorator
///
/// The guard applies to the ops this thread issues on any device (and stacks with autodiff: the casts
/// are recorded as ops of the graph); the decorator applies to every op of its device, on any thread
/// (autodiff above it records the float32 ops, the casts happen below the tape).
#include <optional>

#include "burn/core/device.hpp"
#include "burn/core/dtype.hpp"

namespace burn::autocast {

/// Turns autocast on for this thread until destruction, with low = bf16 or f16 (the dtype the `low`
/// rows run in). Guards nest: the innermost wins, and the outer one is restored when it ends.
/// Guard(std::nullopt) turns autocast off inside an autocast region (torch's enabled=False).
class Guard {
  public:
    explicit Guard(std::optional<DType> low);
    ~Guard();
    Guard(const Guard&) = delete;
    Guard& operator=(const Guard&) = delete;

  private:
    std::optional<DType> previous_;
};

/// The dtype this thread's innermost guard casts to, or nullopt outside autocast.
std::optional<DType> active();

/// The device with the autocast decorator for low (bf16 or f16): Device::autocast(low).
Device decorate(const Device& device, DType low);

/// The dtype a device's autocast decorator casts to, or nullopt when it carries none.
std::optional<DType> device_dtype(const Device& device);

/// The dtype modules keep an activation in between two GEMMs under autocast on `device` (attention's
/// heads and output, a feed-forward block's hidden layer: nn::Linear::forward_in): the low dtype of
/// this thread's guard, else of the device's decorator, when low activations are on
/// (BURN_AMP_LOW_ACTIVATIONS=1 or set_low_activations(true); off by default until measured on a GPU,
/// docs/mixed_precision.md); nullopt outside autocast, with them off (every linear writes float32 and
/// the next one casts it back), or for an input that autocast would not cast (`input` neither float32
/// nor the low dtype).
std::optional<DType> activation_dtype(const Device& device, DType input);
/// Turns activation_dtype's low activations on or off for this process (tests, benchmarks).
void set_low_activations(bool on);
/// Whether they are on.
bool low_activations();

}  // namespace burn::autocast
