#include "burn/core/error.hpp"

#include <cstdio>
#include <cstdlib>
#include <utility>

#include "platform/sync.hpp"

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

namespace {
BURN_THREAD_LOCAL std::string* t_error_context = nullptr;
}  // namespace

ErrorContext::ErrorContext(std::string prefix) : outermost_(t_error_context == nullptr) {
    if (outermost_) t_error_context = new std::string(std::move(prefix));
}

ErrorContext::~ErrorContext() {
    if (!outermost_) return;
    delete t_error_context;
    t_error_context = nullptr;
}

const std::string& ErrorContext::current() {
    static const std::string kNone;
    return t_error_context ? *t_error_context : kNone;
}

[[noreturn]] void throw_error_message(int kind, const char* message) {
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
    throw_error(kind, std::string(message));
#else
    if (g_handler) {
        g_handler(static_cast<ErrorKind>(kind), message);
    } else {
        std::fprintf(stderr, "burn error: %s\n", message);
    }
    std::abort();
#endif
}

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
