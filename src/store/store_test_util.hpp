#pragma once
// Helpers shared by the store tests: fixture paths, temporary files, random data of any dtype, byte
// mutations for fuzzing, and a check that a call throws burn::Error mentioning some text.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "burn/burn.hpp"
#include "fixture_root.hpp"

namespace burn::store::testing {

inline std::filesystem::path fixture(const std::string& name) {
    return burn::testing::fixture_root() / "store" / name;
}

/// A path in the temporary directory unique to this process; removed by the destructor.
struct TempFile {
    std::filesystem::path path;
    explicit TempFile(const std::string& name)
        : path(std::filesystem::temp_directory_path() /
               ("burn-store-" + std::to_string(::getpid()) + "-" + name)) {
        std::filesystem::remove(path);
    }
    ~TempFile() {
        std::error_code ec;
        std::filesystem::remove(path, ec);
    }
};

inline std::vector<uint8_t> read_bytes(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}
inline void write_bytes(const std::filesystem::path& p, const std::vector<uint8_t>& b) {
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
}

/// Random bytes for any dtype (every bit pattern for floats: NaN payloads, infinities, subnormals);
/// bools are 0 or 1.
inline TensorData random_data(DType dtype, const Dims& shape, std::mt19937& rng) {
    std::vector<uint8_t> bytes(static_cast<std::size_t>(shape.numel()) * size_of(dtype));
    for (auto& b : bytes) b = static_cast<uint8_t>(dtype == DType::boolean ? rng() % 2 : rng());
    return TensorData(std::move(bytes), shape, dtype);
}

inline std::vector<uint8_t> bytes_of(const TensorAny& t) {
    return ops::into_data(t).bytes();
}

/// One random mutation: flipped bits, special bytes, truncation, insertion, large integers written
/// over 4 or 8 bytes, or a copied block.
inline std::vector<uint8_t> mutate(std::vector<uint8_t> b, std::mt19937& rng) {
    if (b.empty()) return b;
    auto pos = [&] { return static_cast<std::size_t>(rng() % b.size()); };
    int rounds = 1 + static_cast<int>(rng() % 3);
    for (int r = 0; r < rounds && !b.empty(); ++r) {
        switch (rng() % 7) {
            case 0:
                b[pos()] ^= static_cast<uint8_t>(1u << (rng() % 8));
                break;
            case 1: {
                static const uint8_t special[] = {0x00, 0xff, 0x7f, 0x80, 0x01, '.', 0x7b, 0x5d};
                b[pos()] = special[rng() % 8];
                break;
            }
            case 2:
                b.resize(pos());
                break;
            case 3: {
                std::size_t at = pos(), n = 1 + rng() % 16;
                std::vector<uint8_t> ins(n);
                for (auto& x : ins) x = static_cast<uint8_t>(rng());
                b.insert(b.begin() + static_cast<std::ptrdiff_t>(at), ins.begin(), ins.end());
                break;
            }
            case 4:
            case 5: {
                std::size_t n = rng() % 2 ? 4 : 8;
                if (b.size() < n) break;
                std::size_t at = static_cast<std::size_t>(rng() % (b.size() - n + 1));
                uint64_t big = rng() % 2 ? ~0ull >> (rng() % 40) : (1ull << (rng() % 63));
                std::memcpy(b.data() + at, &big, n);
                break;
            }
            default: {
                std::size_t from = pos(), to = pos(),
                            n = std::min<std::size_t>(1 + rng() % 32, b.size() - std::max(from, to));
                std::memmove(b.data() + to, b.data() + from, n);
                break;
            }
        }
    }
    return b;
}

/// Expects f() to throw burn::Error whose message contains text.
template <class F>
void expect_error(F&& f, const std::string& text) {
    try {
        f();
        ADD_FAILURE() << "expected a burn::Error mentioning '" << text << "'";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << "message: " << e.what();
    }
}

}  // namespace burn::store::testing
