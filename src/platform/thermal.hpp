#pragma once
// The CPU temperature, where the OS tells it: Linux's sysfs (thermal zones, then hwmon sensors). Other
// systems, and machines or containers without the files, report none.
#include <filesystem>
#include <optional>

namespace burn::platform {

/// Degrees Celsius of the CPU, read under sysfs_root ("/sys"; tests pass a fake tree):
/// class/thermal/thermal_zone*/temp of a zone whose type names the CPU (x86_pkg_temp, cpu, soc, ...),
/// else thermal_zone0; else class/hwmon/hwmon*/temp1_input of a CPU sensor (coretemp, k10temp, ...).
/// Both are millidegrees. nullopt when none is readable.
std::optional<double> cpu_temperature_celsius(const std::filesystem::path& sysfs_root = "/sys");

}  // namespace burn::platform
