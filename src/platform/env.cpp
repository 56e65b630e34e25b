#include "platform/env.hpp"

#include <cstdlib>

namespace burn::platform {

std::optional<std::string> env_var(const char* name) {
#if defined(__arm__) && !defined(__linux__)
    (void)name;  // bare metal: no environment
    return std::nullopt;
#else
    const char* v = std::getenv(name);
    if (!v) return std::nullopt;
    return std::string(v);
#endif
}

}  // namespace burn::platform
