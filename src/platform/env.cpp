#include "platform/env.hpp"

#include <cstdlib>

#include "burn/config/project_config.hpp"

namespace burn::platform {

std::optional<std::string> env_var(const char* name) {
#if defined(__arm__) && !defined(__linux__)
    (void)name;  // bare metal: no environment
    return std::nullopt;
#else
    const char* v = std::getenv(name);
    if (v) return std::string(v);
    // burn.toml (config/project_config.cpp): the variable's setting there, when the project has one
    const auto config = config::ProjectConfig::current();
    return config ? config->get(name) : std::nullopt;
#endif
}

}  // namespace burn::platform
