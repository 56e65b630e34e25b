#pragma once
/// Devices. A Device is a cheap value naming where tensors live and which backend runs their ops:
/// a backend (registered by name: "cpu", "cuda", ...), an index, and a stack of decorators
/// ("autodiff", ...). It resolves to a Backend through the registry of burn/backend/registry.hpp;
/// the core names no backend or decorator beyond the always-built CPU.
#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace burn {

class Backend;
enum class DType : uint8_t;

class Device {
  public:
    /// Decorators one device can carry (autodiff, lazy, autocast, ...).
    static constexpr int kMaxDecorators = 4;

    /// The default device: the CPU unless BURN_DEFAULT_DEVICE names another available device.
    Device();
    static Device cpu();
    /// Throws burn::DeviceError when the CUDA backend is not built or the GPU is not present.
    static Device cuda(int index = 0);
    static Device vulkan(int index = 0);
    /// A device of any registered backend by name and index. Throws burn::DeviceError naming the CMake
    /// option when the backend is not built, or the devices there are when index is out of range.
    static Device of(std::string_view backend, int index = 0);
    /// Reads what operator<< prints: "cpu", "cuda:1", "autodiff(cuda:0)".
    static Device parse(std::string_view text);
    /// Every device this build and this machine can run.
    static std::vector<Device> available();

    /// The same device with autodiff: ops record a tape so backward() can give gradients.
    Device autodiff() const;
    bool is_autodiff() const;
    /// The device without its autodiff decorator (itself when it has none).
    Device inner() const;

    /// The same device with the autocast decorator (burn/amp/autocast.hpp, docs/mixed_precision.md):
    /// matmul, conv and attention run in low (DType::bf16 or f16) with float32 masters. Stacks with
    /// autodiff: Device::cpu().autocast(DType::bf16).autodiff().
    Device autocast(DType low) const;

    /// The same device with the lazy decorator (docs/fusion.md): ops queue until a read, a sync or an
    /// op that does not fuse, and chains of elementwise ops run as one pass. Stacks with autodiff:
    /// Device::cpu().lazy().autodiff().
    Device lazy() const;
    bool is_lazy() const;

    /// The same device with one more decorator on top, by its registered name. Throws when no such
    /// decorator is registered, when the device already carries it, or when the stack is full.
    Device decorate(std::string_view decorator) const;
    bool has_decorator(std::string_view decorator) const;
    /// Decorator names from the innermost: Device::cpu().decorate("a").decorate("b") -> {a, b}.
    std::vector<std::string_view> decorators() const;
    int num_decorators() const { return depth_; }
    /// The device under the outermost decorator (itself when undecorated).
    Device below() const;
    /// The physical device: no decorators.
    Device base() const { return Device(backend_, index_); }

    /// The backend's registered name ("cpu", "cuda") and registry id.
    std::string_view backend_name() const;
    int backend_id() const { return backend_; }
    int index() const { return index_; }
    /// Packs the whole value: equal devices have equal keys (for maps keyed by device).
    uint64_t key() const;

    /// Seeds this device's random number generator (random tensors, dropout, initialisers).
    void seed(uint64_t seed) const;
    /// Waits until every op queued on this device has finished.
    void sync() const;
    /// Starts every op queued on this device without waiting for it: the lazy decorator's pending
    /// graphs are evaluated (their kernels launched); a GPU keeps running while the host goes on.
    /// A no-op on eager devices. sync() = flush() and wait.
    void flush() const;
    /// Releases the memory the physical device's allocator caches for reuse (the CPU's size-class
    /// cache, the CUDA caching allocator's free blocks); memory tensors hold stays. Waits for queued
    /// work first. device_stats(d).reserved_bytes falls to allocated_bytes.
    void memory_cleanup() const;
    /// Whether this device stores and computes tensors of dtype (its elementwise and reduction
    /// kernels): false on the CPU for a dtype a BURN_CPU_DTYPES build left out. Single ops may still
    /// refuse a dtype (matmul refuses bool) with an error naming it.
    bool supports_dtype(DType dtype) const;
    std::string str() const;

    /// The backend that runs this device's ops: the outermost decorator's, else the physical one's
    /// (the extension API; users rarely need it).
    Backend& backend() const;

    /// Equal keys: every field (unused decorator slots are always 0). Compared field by field, inline:
    /// dispatch compares its inputs' devices on every op.
    friend bool operator==(const Device& a, const Device& b) {
        static_assert(kMaxDecorators == 4, "operator== compares each decorator slot");
        return a.backend_ == b.backend_ && a.depth_ == b.depth_ && a.index_ == b.index_ &&
               a.decorators_[0] == b.decorators_[0] && a.decorators_[1] == b.decorators_[1] &&
               a.decorators_[2] == b.decorators_[2] && a.decorators_[3] == b.decorators_[3];
    }
    friend bool operator!=(const Device& a, const Device& b) { return !(a == b); }

  private:
    Device(int backend, int index)
        : backend_(static_cast<uint8_t>(backend)), index_(static_cast<uint16_t>(index)) {}
    uint8_t backend_ = 0;  // registry id; 0 is the CPU
    uint8_t depth_ = 0;
    uint8_t decorators_[kMaxDecorators] = {};  // registry ids, innermost first
    uint16_t index_ = 0;
};

std::ostream& operator<<(std::ostream& os, const Device& d);
namespace detail {
class Text;
}
detail::Text& operator<<(detail::Text& os, const Device& d);

/// Sets the number of CPU threads used by the CPU backend (0 = all hardware threads).
void set_num_threads(int n);
int num_threads();

}  // namespace burn
