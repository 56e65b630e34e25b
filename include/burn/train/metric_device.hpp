#pragma once
/// Device metrics for the training loop (Rust burn's CudaMetric, for any device): the memory a device's
/// tensors hold and, on a GPU, how busy it is. Both read burn::device_stats at each update; NaN where
/// the backend cannot say (a GPU utilisation without the driver's NVML library, say).
///
///     learner.metric_train_numeric(train::DeviceMemory(Device::cuda(0)))
///            .metric_train_numeric(train::DeviceUtilization(Device::cuda(0)));
#include <limits>
#include <string>

#include "burn/core/device.hpp"
#include "burn/train/metric.hpp"

namespace burn::train {

/// The shared part: the (physical) device and the latest reading.
template <class Derived>
class DeviceMetricBase : public MetricBase<Derived> {
  public:
    double value() const override { return value_; }
    void clear() override { value_ = std::numeric_limits<double>::quiet_NaN(); }

  protected:
    explicit DeviceMetricBase(const Device& device) : device_(device.base()) {}
    Device device_;
    double value_ = std::numeric_limits<double>::quiet_NaN();
};

/// GB held by tensors on the device (its allocator's allocated bytes; the CPU's caching allocator for
/// Device::cpu()). The name carries the device: "Memory cuda:0".
class DeviceMemory final : public DeviceMetricBase<DeviceMemory> {
  public:
    explicit DeviceMemory(const Device& device = Device()) : DeviceMetricBase(device) {}
    std::string name() const override { return "Memory " + device_.str(); }
    std::string unit() const override { return "GB"; }
    void update(const MetricInput& input, const MetricMetadata& meta) override;
};

/// % of the last sample period a kernel ran on the device (NVML on CUDA; NaN elsewhere). "Utilization
/// cuda:0".
class DeviceUtilization final : public DeviceMetricBase<DeviceUtilization> {
  public:
    explicit DeviceUtilization(const Device& device = Device()) : DeviceMetricBase(device) {}
    std::string name() const override { return "Utilization " + device_.str(); }
    std::string unit() const override { return "%"; }
    Direction direction() const override { return Direction::highest; }
    void update(const MetricInput& input, const MetricMetadata& meta) override;
};

}  // namespace burn::train

namespace burn::train::metric {
using train::DeviceMemory;
using train::DeviceUtilization;
}  // namespace burn::train::metric
