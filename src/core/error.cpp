#include "burn/core/error.hpp"

#include <cstdio>
#include <cstdlib>

namespace burn::detail {

[[noreturn]] void throw_error(int kind, const std::string& message) {
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
    switch (static_cast<ErrorKind>(kind)) {
        case ErrorKind::shape:
            throw ShapeError(message);
        case ErrorKind::dtype:
            throw DTypeError(message);
        case ErrorKind::device:
            throw DeviceError(message);
        case ErrorKind::index:
            throw IndexError(message);
        case ErrorKind::io:
            throw IoError(message);
        case ErrorKind::generic:
            break;
    }
    throw Error(message);
#else
    // No exceptions (bare metal, -fno-exceptions wasm): report and stop.
    (void)kind;
    std::fprintf(stderr, "burn error: %s\n", message.c_str());
    std::abort();
#endif
}

}  // namespace burn::detail
