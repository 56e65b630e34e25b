// DeviceMemory and DeviceUtilization (burn/train/metric_device.hpp).
#include "burn/train/metric_device.hpp"

#include "burn/backend/backend.hpp"

namespace burn::train {

void DeviceMemory::update(const MetricInput&, const MetricMetadata&) {
    const DeviceStats s = device_stats(device_);
    value_ = s.allocated_bytes ? static_cast<double>(*s.allocated_bytes) / 1e9
                               : std::numeric_limits<double>::quiet_NaN();
}

void DeviceUtilization::update(const MetricInput&, const MetricMetadata&) {
    const DeviceStats s = device_stats(device_);
    value_ = s.utilization ? *s.utilization : std::numeric_limits<double>::quiet_NaN();
}

}  // namespace burn::train
