#pragma once
// Environment variables: the one place the library reads them (BURN_DEFAULT_DEVICE, BURN_CPU_CACHE,
// BURN_DETECT_ANOMALY, BURN_NUM_THREADS, ...). On a target without an environment (bare metal) every
// variable reads as unset.
#include <optional>
#include <string>

namespace burn::platform {

/// The value of an environment variable (nullopt when unset).
std::optional<std::string> env_var(const char* name);

}  // namespace burn::platform
