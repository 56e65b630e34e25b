#pragma once
/// Errors. Every failure in the library goes through BURN_THROW, so a build without exceptions can
/// redirect it (define BURN_ERROR_HANDLER before including to take over).
#include <stdexcept>
#include <string>

#include "burn/core/text.hpp"

namespace burn {

/// Base of every error the library raises. The message names the op, shapes, dtypes and devices.
class Error : public std::runtime_error {
  public:
    explicit Error(const std::string& what) : std::runtime_error(what) {}
};
/// A shape or rank does not fit the op.
class ShapeError : public Error {
    using Error::Error;
};
/// A dtype or tensor kind does not fit the op.
class DTypeError : public Error {
    using Error::Error;
};
/// Tensors on different devices, or a device/backend that is not available.
class DeviceError : public Error {
    using Error::Error;
};
/// An index out of range.
class IndexError : public Error {
    using Error::Error;
};
/// Files and streams.
class IoError : public Error {
    using Error::Error;
};

namespace detail {
/// Builds a message from parts (core/text.hpp, no iostreams): detail::msg("[add] lhs ", shape, " rhs ",
/// shape).
template <class... Parts>
std::string msg(const Parts&... parts) {
    Text os;
    (os << ... << parts);
    return std::move(os).str();
}
[[noreturn]] void throw_error(int kind, const std::string& message);
/// The same without allocating on the way to the handler (out-of-memory paths; no exceptions).
[[noreturn]] void throw_error_message(int kind, const char* message);

/// Words put before the message of an error that a device raises later for an op launched while this
/// is alive (a GPU reports a bad index at the next synchronisation, docs/cuda.md): one_hot launches a
/// scatter, and its caller should read about one_hot. The outermost scope of a thread wins.
class ErrorContext {
  public:
    explicit ErrorContext(std::string prefix);
    ~ErrorContext();
    ErrorContext(const ErrorContext&) = delete;
    ErrorContext& operator=(const ErrorContext&) = delete;
    /// The prefix of the outermost live scope on this thread; "" when none.
    static const std::string& current();

  private:
    bool outermost_;
};
}  // namespace detail

enum class ErrorKind : int { generic = 0, shape, dtype, device, index, io };

/// What a build without exceptions (-DBURN_EXCEPTIONS=OFF, bare metal) does with an error: it calls the
/// installed handler with the kind and the message, then aborts (the op cannot continue). A handler may
/// log, reset the board or longjmp out; it must not return to the library. The default prints the
/// message to stderr. Builds with exceptions throw and never call it.
using ErrorHandler = void (*)(ErrorKind kind, const char* message);
/// Installs a handler and returns the previous one (nullptr restores the default).
ErrorHandler set_error_handler(ErrorHandler handler);

}  // namespace burn

/// Throws burn::Error (or the subclass named by kind) built from streamable parts.
#define BURN_THROW_KIND(kind, ...) \
    ::burn::detail::throw_error(static_cast<int>(::burn::ErrorKind::kind), ::burn::detail::msg(__VA_ARGS__))
#define BURN_THROW(...) BURN_THROW_KIND(generic, __VA_ARGS__)
/// Checks a condition; on failure throws the given kind of error with the message parts.
#define BURN_CHECK_KIND(cond, kind, ...)                 \
    do {                                                 \
        if (!(cond)) BURN_THROW_KIND(kind, __VA_ARGS__); \
    } while (0)
#define BURN_CHECK(cond, ...) BURN_CHECK_KIND(cond, generic, __VA_ARGS__)
