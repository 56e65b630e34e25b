#pragma once
// GPU utilisation through NVML (nvml.cpp): libnvidia-ml.so.1, the driver's library, opened with dlopen
// at the first call, never linked (a build runs where the driver lacks it; the answer is then empty).
#include <optional>

namespace burn::cuda {

/// The percent of the last sample period (1/6 s to 1 s, the driver's choice) during which a kernel ran on
/// CUDA device `index` (matched to NVML's device by PCI bus id, so CUDA_VISIBLE_DEVICES is respected);
/// empty when NVML or the device cannot say.
std::optional<double> gpu_utilization(int index);

}  // namespace burn::cuda
