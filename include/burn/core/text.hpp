#pragma once
/// Messages without iostreams. burn::detail::Text builds a std::string from parts with `<<`, formatting
/// numbers with snprintf the way a default std::ostream does (integers in decimal or after std::hex,
/// floating point as %g with precision 6, std::fixed and std::setprecision honoured; signed and unsigned
/// char as characters, bool as 1/0). Error messages (BURN_CHECK) and the str() of the core's types are
/// built with it, so a bare-metal image links no locale or stream code (docs/embedded.md). burn's own
/// types (Dims, DType, Device, OpId, ...) define `Text& operator<<(Text&, const T&)` beside their
/// std::ostream operator; any other type with only an ostream operator is formatted through an
/// std::ostringstream in hosted builds (BURN_FILESYSTEM on) and as "(?)" in builds without it.
#include <cstdint>
#include <iomanip>
#include <ios>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "burn/build_config.hpp"
#if BURN_FILESYSTEM
#include <sstream>
#endif

namespace burn::detail {

class Text {
  public:
    Text& operator<<(std::string_view s) {
        out_.append(s.data(), s.size());
        return *this;
    }
    Text& operator<<(const std::string& s) { return *this << std::string_view(s); }
    Text& operator<<(const char* s) { return *this << std::string_view(s ? s : "(null)"); }
    Text& operator<<(char* s) { return *this << static_cast<const char*>(s); }
    Text& operator<<(char c) {
        out_ += c;
        return *this;
    }
    Text& operator<<(signed char c) { return *this << static_cast<char>(c); }
    Text& operator<<(unsigned char c) { return *this << static_cast<char>(c); }
    Text& operator<<(bool b) { return *this << (b ? '1' : '0'); }
    template <class I, std::enable_if_t<std::is_integral_v<I> && !std::is_same_v<I, bool> &&
                                            !std::is_same_v<I, char> && !std::is_same_v<I, signed char> &&
                                            !std::is_same_v<I, unsigned char>,
                                        int> = 0>
    Text& operator<<(I v) {
        if (base_ == 16 || std::is_unsigned_v<I>)
            append_unsigned(static_cast<unsigned long long>(static_cast<std::make_unsigned_t<I>>(v)));
        else
            append_signed(static_cast<long long>(v));
        return *this;
    }
    Text& operator<<(double v);
    Text& operator<<(float v) { return *this << static_cast<double>(v); }
    Text& operator<<(long double v) { return *this << static_cast<double>(v); }
    Text& operator<<(const void* p);
    Text& operator<<(std::nullptr_t) { return *this << "nullptr"; }
    /// std::hex, std::dec, std::fixed, std::scientific, std::defaultfloat; other manipulators are ignored.
    Text& operator<<(std::ios_base& (*manip)(std::ios_base&));
    Text& operator<<(decltype(std::setprecision(0)) p);

    const std::string& str() const& { return out_; }
    std::string str() && { return std::move(out_); }

  private:
    void append_signed(long long v);
    void append_unsigned(unsigned long long v);
    std::string out_;
    int base_ = 10;
    int precision_ = 6;
    char float_format_ = 'g';  // 'g', 'f' (std::fixed) or 'e' (std::scientific)
};

/// Any other type: through its std::ostream operator in hosted builds, "(?)" otherwise.
template <class T, std::enable_if_t<!std::is_arithmetic_v<T> && !std::is_pointer_v<T> &&
                                        !std::is_convertible_v<const T&, std::string_view>,
                                    int> = 0>
Text& operator<<(Text& t, const T& v) {
#if BURN_FILESYSTEM
    std::ostringstream os;
    os << v;
    return t << os.str();
#else
    (void)v;
    return t << "(?)";
#endif
}

/// The text of one value: to_text(dims) == "[2, 3]".
template <class T>
std::string to_text(const T& v) {
    Text t;
    t << v;
    return std::move(t).str();
}

}  // namespace burn::detail
