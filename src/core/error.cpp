#include "burn/core/error.hpp"

#include <cstdio>
#include <cstdlib>

namespace burn {

namespace {
ErrorHandler g_handler = nullptr;  // set once at start-up by the application, before any op
}  // namespace

ErrorHandler set_error_handler(ErrorHandler handler) {
    ErrorHandler previous = g_handler;
    g_handler = handler;
    return previous;
}

namespace detail {

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
    // No exceptions (bare metal, -fno-exceptions wasm): the application's handler, then stop.
    if (g_handler) {
        g_handler(static_cast<ErrorKind>(kind), message.c_str());
    } else {
        std::fprintf(stderr, "burn error: %s\n", message.c_str());
    }
    std::abort();
#endif
}

}  // namespace detail
}  // namespace burn
