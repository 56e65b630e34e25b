#include "burn/core/text.hpp"

#include <cstdio>

namespace burn::detail {

Text& Text::operator<<(double v) {
    char buf[64];
    char fmt[8] = {'%', '.', '*', float_format_, 0};
    const int n = std::snprintf(buf, sizeof buf, fmt, precision_, v);
    if (n > 0 && static_cast<std::size_t>(n) < sizeof buf) {
        out_.append(buf, static_cast<std::size_t>(n));
    } else if (n > 0) {  // a huge fixed-point number: print it again into a buffer of its size
        std::string big(static_cast<std::size_t>(n) + 1, '\0');
        std::snprintf(big.data(), big.size(), fmt, precision_, v);
        out_.append(big.data(), static_cast<std::size_t>(n));
    }
    return *this;
}

Text& Text::operator<<(const void* p) {
    if (!p) return *this << "0";
    char buf[2 + 2 * sizeof(void*) + 1];
    std::snprintf(buf, sizeof buf, "0x%llx",
                  static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(p)));
    return *this << static_cast<const char*>(buf);
}

Text& Text::operator<<(std::ios_base& (*manip)(std::ios_base&)) {
    if (manip == static_cast<std::ios_base& (*)(std::ios_base&)>(std::hex))
        base_ = 16;
    else if (manip == static_cast<std::ios_base& (*)(std::ios_base&)>(std::dec))
        base_ = 10;
    else if (manip == static_cast<std::ios_base& (*)(std::ios_base&)>(std::fixed))
        float_format_ = 'f';
    else if (manip == static_cast<std::ios_base& (*)(std::ios_base&)>(std::scientific))
        float_format_ = 'e';
    else if (manip == static_cast<std::ios_base& (*)(std::ios_base&)>(std::defaultfloat))
        float_format_ = 'g';
    return *this;
}

Text& Text::operator<<(decltype(std::setprecision(0)) p) {
    // The manipulator's value is only reachable through a stream in the standard; read it the way
    // libstdc++ and libc++ both lay it out (one int).
    static_assert(sizeof(p) == sizeof(int));
    int n = 0;
    __builtin_memcpy(&n, &p, sizeof n);
    precision_ = n;
    return *this;
}

void Text::append_signed(long long v) {
    char buf[24];
    const int n = std::snprintf(buf, sizeof buf, "%lld", v);
    out_.append(buf, static_cast<std::size_t>(n));
}

void Text::append_unsigned(unsigned long long v) {
    char buf[24];
    const int n = std::snprintf(buf, sizeof buf, base_ == 16 ? "%llx" : "%llu", v);
    out_.append(buf, static_cast<std::size_t>(n));
}

}  // namespace burn::detail
