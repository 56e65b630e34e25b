#pragma once
// Environment variables, then the project's burn.toml (burn/config/project_config.hpp): the one place
// the library reads them (BURN_DEFAULT_DEVICE, BURN_CPU_CACHE, BURN_DETECT_ANOMALY, BURN_NUM_THREADS,
// ...). On a target without an environment (bare metal) every variable reads as unset.
#include <atomic>
#include <optional>
#include <string>

namespace burn::platform {

/// The value of an environment variable, else its burn.toml setting (nullopt when neither has one).
std::optional<std::string> env_var(const char* name);

/// A process-wide on/off switch read from an environment variable on first use, which set() overrides:
/// default on, it is off when the variable is "0"; default off, it is on when the variable is "1".
/// Lock-free; a race on the first read only reads the variable twice.
class EnvSwitch {
  public:
    constexpr EnvSwitch(const char* name, bool default_on) : name_(name), default_on_(default_on) {}
    bool on() {
        int v = state_.load(std::memory_order_relaxed);
        if (v < 0) {
            const auto e = env_var(name_);
            v = default_on_ ? !(e && *e == "0") : (e && *e == "1");
            state_.store(v, std::memory_order_relaxed);
        }
        return v != 0;
    }
    void set(bool on) { state_.store(on ? 1 : 0, std::memory_order_relaxed); }

  private:
    const char* name_;
    bool default_on_;
    std::atomic<int> state_{-1};  // -1: the variable not read yet
};

}  // namespace burn::platform
