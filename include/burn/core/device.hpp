#pragma once
/// Devices. A Device is a cheap value naming where tensors live and which backend runs their ops:
/// a backend kind, an index, and decorators (autodiff). It resolves to a Backend through a registry.
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace burn {

class Backend;

enum class DeviceKind : uint8_t { cpu, cuda, vulkan };

class Device {
public:
    /// The default device: the CPU unless BURN_DEFAULT_DEVICE names another available device.
    Device();
    static Device cpu();
    /// Throws burn::DeviceError when the CUDA backend is not built or the GPU is not present.
    static Device cuda(int index = 0);
    static Device vulkan(int index = 0);
    /// Every device this build and this machine can run.
    static std::vector<Device> available();

    /// The same device with autodiff: ops record a tape so backward() can give gradients.
    Device autodiff() const;
    bool is_autodiff() const { return autodiff_; }
    /// The device without its autodiff decorator.
    Device inner() const;

    DeviceKind kind() const { return kind_; }
    int index() const { return index_; }

    /// Seeds this device's random number generator (random tensors, dropout, initialisers).
    void seed(uint64_t seed) const;
    /// Waits until every op queued on this device has finished.
    void sync() const;
    std::string str() const;

    /// The backend that runs this device's ops (the extension API; users rarely need it).
    Backend& backend() const;

    friend bool operator==(const Device& a, const Device& b) {
        return a.kind_ == b.kind_ && a.index_ == b.index_ && a.autodiff_ == b.autodiff_;
    }
    friend bool operator!=(const Device& a, const Device& b) { return !(a == b); }

private:
    Device(DeviceKind kind, int index, bool autodiff) : kind_(kind), index_(index), autodiff_(autodiff) {}
    DeviceKind kind_ = DeviceKind::cpu;
    int index_ = 0;
    bool autodiff_ = false;
};

std::ostream& operator<<(std::ostream& os, const Device& d);

/// Sets the number of CPU threads used by the CPU backend (0 = all hardware threads).
void set_num_threads(int n);
int num_threads();

}  // namespace burn
