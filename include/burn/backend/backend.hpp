#pragma once
/// The one door to a backend. A backend moves data in and out and executes OpCalls; it has no
/// per-op virtual functions, so decorators (autodiff, lazy/fusion, tracing) implement one method.
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "burn/backend/op.hpp"
#include "burn/backend/tensor_impl.hpp"
#include "burn/core/device.hpp"
#include "burn/tensor/data.hpp"

namespace burn {

/// What one physical device's memory and compute are doing, as far as its backend knows
/// (burn::device_stats; the training loop's DeviceMemory and DeviceUtilization metrics). Unknown: empty.
struct DeviceStats {
    std::optional<int64_t> allocated_bytes;  // in blocks held by tensors
    std::optional<int64_t> reserved_bytes;   // allocated plus the allocator's cached free blocks
    std::optional<int64_t> peak_bytes;       // the most allocated at once since the start (or a reset)
    std::optional<int64_t> total_bytes;      // the device's memory (a GPU's; the CPU's is not asked)
    std::optional<double> utilization;       // % of the last sample period a kernel ran (GPUs: NVML)
};

class Backend {
  public:
    virtual ~Backend() = default;
    virtual std::string_view name() const = 0;
    /// Copies host data onto device.
    virtual TensorRef from_host(const TensorData& data, const Device& device) = 0;
    /// Copies a tensor to the host (blocks until it is computed).
    virtual TensorData to_host(const TensorRef& tensor) = 0;
    /// Whether execute can run this call (a missing kernel, an unsupported dtype).
    virtual bool supports(const OpCall& call, const TensorRefs& inputs) const = 0;
    /// Runs the op. Inputs are passed by value: a backend may reuse the buffer of an input it holds
    /// the only reference to (in-place elementwise). The frontend has validated everything.
    virtual TensorRefs execute(const OpCall& call, TensorRefs inputs) = 0;
    /// Waits until every queued op has finished.
    virtual void sync() = 0;

    /// Decorators: the tensor of the device below (Device::below) that `t`, a tensor of this backend,
    /// wraps. Plain backends return t. Moving a tensor between decorations of one physical device
    /// (ops::to_device) unwraps and wraps, never copies.
    virtual TensorRef unwrap(const TensorRef& t) const { return t; }
    /// Decorators: a tensor of `device` (whose outermost decorator is this backend) wrapping `inner`, a
    /// tensor of device.below(), with nothing recorded. Plain backends return inner.
    virtual TensorRef wrap(TensorRef inner, const Device& device) {
        (void)device;
        return inner;
    }
    /// Starts the work this backend has queued on the host (the lazy decorator's pending graphs) without
    /// waiting for it; Device::flush calls it on every level of a device's decorator stack. Default:
    /// nothing queued (an eager backend has already launched every op).
    virtual void flush() {}
    /// Physical backends: releases the memory their allocator caches for reuse on `device` (blocks no
    /// tensor holds). Default: nothing cached.
    virtual void memory_cleanup(const Device& device) { (void)device; }
    /// Physical backends: whether `device` stores and computes tensors of `dtype` (its elementwise and
    /// reduction kernels; single ops may still refuse a dtype, as matmul refuses bool). Default: yes.
    virtual bool supports_dtype(const Device& device, DType dtype) const {
        (void)device;
        (void)dtype;
        return true;
    }
    /// Physical backends: the statistics of `device` (one of theirs, undecorated). Default: nothing known.
    virtual DeviceStats stats(const Device& device) {
        (void)device;
        return {};
    }
};

/// The statistics of device's physical device (decorators aside).
DeviceStats device_stats(const Device& device);

}  // namespace burn
