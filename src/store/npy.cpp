// NumPy .npy read/write. The header is a Python dict literal; it is parsed by a small recursive-descent
// parser of the few literals np.save writes (strings, ints, True/False/None, tuples, lists, dicts) with
// a depth limit, never by pattern matching. Every check names the file, the problem and the fix.
#include "burn/store/npy.hpp"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cstring>
#include <string_view>
#include <utility>

#include "platform/files.hpp"

namespace burn {
namespace {

constexpr uint8_t kMagic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
constexpr std::size_t kAlign = 64;  // np.save puts the data on a 64-byte boundary
constexpr int kMaxDepth = 16;
constexpr std::size_t kGrowthDigits = 21;  // numpy's GROWTH_AXIS_MAX_DIGITS: spare header spaces
constexpr const char* kExample = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
constexpr const char* kResave = "re-save the array with numpy.save";
constexpr bool kLittleHost = std::endian::native == std::endian::little;

/// The numpy dtypes that have a DType (code without the byte-order mark).
struct DescrEntry {
    std::string_view code;
    DType dtype;
};
constexpr DescrEntry kDescrs[] = {{"f4", DType::f32}, {"f8", DType::f64}, {"f2", DType::f16},
                                  {"i8", DType::i64}, {"i4", DType::i32}, {"i2", DType::i16},
                                  {"i1", DType::i8},  {"u1", DType::u8},  {"b1", DType::boolean}};
constexpr const char* kSupported =
    "'<f4' '<f8' '<f2' '<i8' '<i4' '<i2' '|i1' '|u1' '|b1' (with '<', '>', '=' or '|' as the byte order)";

/// A value of the header's Python literal. Dict keys are in `keys`, their values in `items`.
struct Value {
    enum Kind { str, integer, boolean, none, tuple, list, dict } kind = none;
    std::string s;
    int64_t i = 0;
    bool b = false;
    std::vector<Value> items;
    std::vector<std::string> keys;
};

const char* kind_name(Value::Kind k) {
    switch (k) {
        case Value::str:
            return "a string";
        case Value::integer:
            return "an integer";
        case Value::boolean:
            return "a bool";
        case Value::none:
            return "None";
        case Value::tuple:
            return "a tuple";
        case Value::list:
            return "a list";
        case Value::dict:
            return "a dict";
    }
    return "a value";
}

class HeaderParser {
  public:
    HeaderParser(std::string_view text, const std::string& what) : text_(text), what_(what) {}

    Value parse() {
        Value v = value(0);
        skip_ws();
        if (pos_ < text_.size()) fail("unexpected '", text_[pos_], "' after the end of the dict");
        return v;
    }

  private:
    template <class... Parts>
    [[noreturn]] void fail(const Parts&... parts) const {
        BURN_THROW_KIND(io, "[read_npy] '", what_, "': malformed header at character ", pos_, ": ", parts...,
                        ". A .npy header is a Python dict like ", kExample, "; ", kResave);
    }
    bool at_end() const { return pos_ >= text_.size(); }
    char peek() const { return text_[pos_]; }
    void skip_ws() {
        while (!at_end() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r')) ++pos_;
    }

    Value value(int depth) {
        if (depth > kMaxDepth) fail("values nest deeper than ", kMaxDepth, " levels");
        skip_ws();
        if (at_end()) fail("the header ends where a value was expected");
        char c = peek();
        if (c == '{') return dict(depth);
        if (c == '(') return sequence(depth, Value::tuple, ')');
        if (c == '[') return sequence(depth, Value::list, ']');
        if (c == '\'' || c == '"') return string();
        if (c == '-' || c == '+' || (c >= '0' && c <= '9')) return integer();
        if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_') return word();
        fail("unexpected '", c, "' where a value was expected");
    }

    Value string() {
        const char quote = text_[pos_++];
        Value v;
        v.kind = Value::str;
        while (!at_end() && peek() != quote) {
            if (peek() == '\\') fail("escape sequences in strings are not supported");
            if (peek() == '\n') fail("a string runs past the end of the line");
            v.s += text_[pos_++];
        }
        if (at_end()) fail("unterminated string");
        ++pos_;
        return v;
    }

    Value integer() {
        bool negative = peek() == '-';
        if (peek() == '-' || peek() == '+') ++pos_;
        if (at_end() || peek() < '0' || peek() > '9') fail("a sign is not followed by digits");
        uint64_t magnitude = 0;
        while (!at_end() && peek() >= '0' && peek() <= '9') {
            const auto digit = static_cast<uint64_t>(peek() - '0');
            if (magnitude > (static_cast<uint64_t>(INT64_MAX) - digit) / 10)
                fail("an integer is larger than int64 can hold");
            magnitude = magnitude * 10 + digit;
            ++pos_;
        }
        if (!at_end() && (peek() == 'L' || peek() == 'l')) ++pos_;  // Python 2 longs: (3L, 4L)
        Value v;
        v.kind = Value::integer;
        v.i = negative ? -static_cast<int64_t>(magnitude) : static_cast<int64_t>(magnitude);
        return v;
    }

    Value word() {
        std::size_t start = pos_;
        while (!at_end() && (std::isalnum(static_cast<unsigned char>(peek())) || peek() == '_')) ++pos_;
        std::string_view w = text_.substr(start, pos_ - start);
        Value v;
        if (w == "True" || w == "False") {
            v.kind = Value::boolean;
            v.b = w == "True";
        } else if (w != "None") {
            pos_ = start;
            fail("unknown name '", w, "' (only True, False and None are literals)");
        }
        return v;
    }

    /// (a, b), (a,), () and [a, b]; "(a)" is a parenthesised a, as in Python.
    Value sequence(int depth, Value::Kind kind, char close) {
        ++pos_;
        Value v;
        v.kind = kind;
        bool trailing_comma = false;
        for (;;) {
            skip_ws();
            if (!at_end() && peek() == close) break;
            v.items.push_back(value(depth + 1));
            skip_ws();
            trailing_comma = !at_end() && peek() == ',';
            if (trailing_comma) {
                ++pos_;
                continue;
            }
            if (at_end() || peek() != close)
                fail("expected ',' or '", close, "' in a ", kind == Value::tuple ? "tuple" : "list");
        }
        ++pos_;
        if (kind == Value::tuple && v.items.size() == 1 && !trailing_comma) return std::move(v.items[0]);
        return v;
    }

    Value dict(int depth) {
        ++pos_;
        Value v;
        v.kind = Value::dict;
        for (;;) {
            skip_ws();
            if (!at_end() && peek() == '}') break;
            std::size_t key_pos = pos_;
            Value key = value(depth + 1);
            if (key.kind != Value::str) {
                pos_ = key_pos;
                fail("a dict key is ", kind_name(key.kind), ", not a string");
            }
            if (std::find(v.keys.begin(), v.keys.end(), key.s) != v.keys.end()) {
                pos_ = key_pos;
                fail("the key '", key.s, "' appears twice");
            }
            skip_ws();
            if (at_end() || peek() != ':') fail("expected ':' after the key '", key.s, "'");
            ++pos_;
            v.keys.push_back(std::move(key.s));
            v.items.push_back(value(depth + 1));
            skip_ws();
            if (!at_end() && peek() == ',') {
                ++pos_;
                continue;
            }
            if (at_end() || peek() != '}')
                fail("expected ',' or '}' after the value of '", v.keys.back(), "'");
        }
        ++pos_;
        return v;
    }

    std::string_view text_;
    const std::string& what_;
    std::size_t pos_ = 0;
};

uint64_t read_le(const uint8_t* p, int n) {
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; --i) v = (v << 8) | p[i];
    return v;
}

/// Reverses the bytes of each item-sized element of [p, p + n).
void swap_elements(uint8_t* p, std::size_t n, std::size_t item) {
    if (item <= 1) return;
    for (std::size_t i = 0; i + item <= n; i += item) std::reverse(p + i, p + i + item);
}

/// Column-major src to row-major dst (shape has no zero dim).
void fortran_to_c(const uint8_t* src, uint8_t* dst, const Dims& shape, int64_t numel, std::size_t item) {
    const int rank = shape.rank();
    int64_t fstride[kMaxRank] = {};
    int64_t idx[kMaxRank] = {};
    for (int k = 0; k < rank; ++k) fstride[k] = k == 0 ? 1 : fstride[k - 1] * shape[k - 1];
    int64_t off = 0;
    for (int64_t i = 0; i < numel; ++i) {
        std::memcpy(dst + static_cast<std::size_t>(i) * item, src + static_cast<std::size_t>(off) * item,
                    item);
        for (int k = rank - 1; k >= 0; --k) {
            if (++idx[k] < shape[k]) {
                off += fstride[k];
                break;
            }
            off -= (shape[k] - 1) * fstride[k];
            idx[k] = 0;
        }
    }
}

}  // namespace

TensorData parse_npy(std::span<const uint8_t> bytes, const std::string& what) {
    const std::size_t size = bytes.size();
    const uint8_t* p = bytes.data();
    const std::string at = "[read_npy] '" + what + "': ";
    BURN_CHECK_KIND(size >= 8 && std::memcmp(p, kMagic, 6) == 0, io, at,
                    "not a .npy file: it does not start with the magic bytes \\x93NUMPY (",
                    size < 8 ? "the file has only " + std::to_string(size) + " bytes" : "other bytes found",
                    "); write it with numpy.save");
    const int major = p[6], minor = p[7];
    BURN_CHECK_KIND(major >= 1 && major <= 3 && minor == 0, io, at, "unsupported .npy format version ", major,
                    ".", minor, " (versions 1.0, 2.0 and 3.0 are read); ", kResave);
    const int len_bytes = major == 1 ? 2 : 4;
    const std::size_t prefix = 8 + static_cast<std::size_t>(len_bytes);
    BURN_CHECK_KIND(size >= prefix, io, at, "truncated: the file has ", size,
                    " bytes and ends inside the header length field; ", kResave);
    const uint64_t header_len = read_le(p + 8, len_bytes);
    BURN_CHECK_KIND(header_len <= size - prefix, io, at, "the header length ", header_len,
                    " goes beyond the end of the file (", size, " bytes): the file is truncated or damaged; ",
                    kResave);
    const std::size_t data_offset = prefix + static_cast<std::size_t>(header_len);
    const std::string_view text(reinterpret_cast<const char*>(p + prefix),
                                static_cast<std::size_t>(header_len));
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        BURN_CHECK_KIND(c < 0x80 && (c >= 0x20 || c == '\n' || c == '\r' || c == '\t'), io, at,
                        "the header has the non-ASCII or control byte 0x", "0123456789abcdef"[c >> 4],
                        "0123456789abcdef"[c & 15], " at character ", i, ": the file is damaged; ", kResave);
    }

    const Value root = HeaderParser(text, what).parse();
    BURN_CHECK_KIND(root.kind == Value::dict, io, at, "the header is ", kind_name(root.kind),
                    ", not a dict like ", kExample, "; ", kResave);
    const Value* fields[3] = {nullptr, nullptr, nullptr};
    const char* names[3] = {"descr", "fortran_order", "shape"};
    for (std::size_t i = 0; i < root.keys.size(); ++i) {
        auto it = std::find(std::begin(names), std::end(names), root.keys[i]);
        BURN_CHECK_KIND(it != std::end(names), io, at, "the header has the unexpected key '", root.keys[i],
                        "' (a .npy header has exactly 'descr', 'fortran_order' and 'shape'); ", kResave);
        fields[it - std::begin(names)] = &root.items[i];
    }
    for (int k = 0; k < 3; ++k)
        BURN_CHECK_KIND(fields[k] != nullptr, io, at, "the header has no '", names[k], "' key; ", kResave);
    const Value& descr = *fields[0];
    const Value& fortran = *fields[1];
    const Value& shape_v = *fields[2];

    // dtype
    BURN_CHECK_KIND(descr.kind != Value::list, dtype, at,
                    "structured dtypes (a list of fields) are not supported; save each field as its own "
                    "array, with one of the dtypes ",
                    kSupported);
    BURN_CHECK_KIND(descr.kind == Value::str, io, at, "'descr' is ", kind_name(descr.kind),
                    ", not a dtype string such as '<f4'; ", kResave);
    std::string_view code = descr.s;
    char order = '=';
    if (!code.empty() && std::string_view("<>|=").find(code[0]) != std::string_view::npos) {
        order = code[0];
        code.remove_prefix(1);
    }
    const DescrEntry* entry = nullptr;
    for (const auto& e : kDescrs)
        if (e.code == code) entry = &e;
    BURN_CHECK_KIND(entry != nullptr, dtype, at, "unsupported dtype '", descr.s, "'; supported: ", kSupported,
                    ". Convert it in NumPy first, e.g. np.save(path, a.astype(np.float32))");
    const DType dtype = entry->dtype;
    const std::size_t item = size_of(dtype);
    const bool data_little = order == '<' || (order != '>' && kLittleHost);
    const bool swap = item > 1 && data_little != kLittleHost;

    BURN_CHECK_KIND(fortran.kind == Value::boolean, io, at, "'fortran_order' is ", kind_name(fortran.kind),
                    ", not True or False; ", kResave);

    // shape
    BURN_CHECK_KIND(shape_v.kind == Value::tuple, shape, at, "'shape' is ", kind_name(shape_v.kind),
                    ", not a tuple of integers like (2, 3); ", kResave);
    BURN_CHECK_KIND(shape_v.items.size() <= static_cast<std::size_t>(kMaxRank), shape, at, "the shape has ",
                    shape_v.items.size(), " dimensions; at most ", kMaxRank,
                    " are supported (reshape the array in NumPy first)");
    Dims shape;
    int64_t nonzero = 1;
    bool zero = false;
    for (const Value& d : shape_v.items) {
        BURN_CHECK_KIND(d.kind == Value::integer, shape, at, "a dimension of 'shape' is ", kind_name(d.kind),
                        ", not an integer; ", kResave);
        BURN_CHECK_KIND(d.i >= 0, shape, at, "the shape has the negative dimension ", d.i,
                        ": the file is damaged; ", kResave);
        shape.push_back(d.i);
        zero |= d.i == 0;
        BURN_CHECK_KIND(checked_mul(nonzero, d.i == 0 ? 1 : d.i, nonzero), shape, at, "the shape ", shape,
                        "... has more elements than int64 can count: the file is damaged; ", kResave);
    }
    int64_t need = 0;
    BURN_CHECK_KIND(checked_mul(nonzero, static_cast<int64_t>(item), need), shape, at, "the shape ", shape,
                    " of ", dtype, " needs more bytes than int64 can count: the file is damaged; ", kResave);
    const int64_t numel = zero ? 0 : nonzero;
    need = zero ? 0 : need;
    const uint64_t have = size - data_offset;
    BURN_CHECK_KIND(have >= static_cast<uint64_t>(need), io, at, "truncated: the data has ", have,
                    " bytes but shape ", shape, " of ", descr.s, " needs ", need, "; ", kResave);
    BURN_CHECK_KIND(have == static_cast<uint64_t>(need), io, at, have - static_cast<uint64_t>(need),
                    " trailing bytes after the ", need, " bytes of data that shape ", shape, " of ", descr.s,
                    " needs (an object array, a damaged file, or several arrays appended to one file); ",
                    kResave, " (np.savez holds several arrays)");

    std::vector<uint8_t> out(static_cast<std::size_t>(need));
    const uint8_t* data = p + data_offset;
    if (fortran.b && shape.rank() >= 2 && numel > 0) {
        fortran_to_c(data, out.data(), shape, numel, item);
    } else if (need > 0) {
        std::memcpy(out.data(), data, out.size());
    }
    if (swap) swap_elements(out.data(), out.size(), item);
    if (dtype == DType::boolean)
        for (auto& b : out) b = b != 0;
    return TensorData(std::move(out), shape, dtype);
}

TensorData read_npy(const std::string& path) {
    const std::string bytes = platform::read_file(path, "read_npy");
    return parse_npy(std::span(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()), path);
}

std::vector<uint8_t> encode_npy(const TensorData& data) {
    // bf16 has no NumPy dtype: every bf16 value is exactly an f32, so it is written as '<f4'.
    TensorData converted;
    const TensorData& src = data.dtype() == DType::bf16 ? (converted = data.convert(DType::f32)) : data;
    const DType dtype = src.dtype();
    const std::size_t item = size_of(dtype);
    const Dims& shape = src.shape();
    int64_t need = 0;
    BURN_CHECK_KIND(checked_mul(shape.numel(), static_cast<int64_t>(item), need) &&
                        static_cast<uint64_t>(need) == src.bytes().size(),
                    shape, "[write_npy] the data holds ", src.bytes().size(), " bytes but shape ", shape,
                    " of ", dtype, " needs ", need, " bytes");

    std::string header = "{'descr': '";
    header += item == 1 ? '|' : '<';
    for (const auto& e : kDescrs)
        if (e.dtype == dtype) header += e.code;
    header += "', 'fortran_order': False, 'shape': (";
    for (int i = 0; i < shape.rank(); ++i) {
        if (i > 0) header += ", ";
        header += std::to_string(shape[i]);
    }
    header += shape.rank() == 1 ? ",), }" : "), }";
    // As numpy.lib.format: spare spaces for growing dim 0 in place, then spaces and '\n' up to 64 bytes.
    if (shape.rank() > 0) header.append(kGrowthDigits - std::to_string(shape[0]).size(), ' ');
    const std::size_t hlen = header.size() + 1;
    const std::size_t pad = kAlign - (sizeof kMagic + 2 + 2 + hlen) % kAlign;
    header.append(pad, ' ');
    header += '\n';
    BURN_CHECK(header.size() <= 0xffff, "[write_npy] the header of ", header.size(), " bytes is too long");

    std::vector<uint8_t> out;
    out.reserve(10 + header.size() + src.bytes().size());
    for (uint8_t b : kMagic) out.push_back(b);
    out.push_back(1);  // version 1.0
    out.push_back(0);
    out.push_back(static_cast<uint8_t>(header.size() & 0xff));
    out.push_back(static_cast<uint8_t>(header.size() >> 8));
    out.insert(out.end(), header.begin(), header.end());
    const std::size_t data_at = out.size();
    out.insert(out.end(), src.bytes().begin(), src.bytes().end());
    if (!kLittleHost) swap_elements(out.data() + data_at, out.size() - data_at, item);
    if (dtype == DType::boolean)
        for (std::size_t i = data_at; i < out.size(); ++i) out[i] = out[i] != 0;
    return out;
}

void write_npy(const std::string& path, const TensorData& data) {
    const std::vector<uint8_t> bytes = encode_npy(data);
    platform::write_file_atomic(
        path, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), "write_npy");
}

}  // namespace burn
