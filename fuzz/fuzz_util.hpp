#pragma once
// Shared by the fuzz targets: the small model files are loaded into, a per-process scratch directory
// for the targets whose real path reads files, and writing bytes to a file.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "burn/burn.hpp"

namespace burn::fuzz {

/// The model of tests/fixtures/store/mlp.* (fc1: 4 -> 8, fc2: 8 -> 3), so the seed files match it.
struct Mlp {
    nn::Linear fc1, fc2;
    BURN_MODULE(Mlp, fc1, fc2)
};
inline Mlp make_mlp() {
    return Mlp{nn::LinearConfig{4, 8}.init(), nn::LinearConfig{8, 3}.init()};
}

/// A directory of this process only (several fuzzers run at once with -jobs), under /dev/shm when it
/// exists (no disk writes per input). Created on first use.
inline const std::filesystem::path& scratch_dir() {
    static const std::filesystem::path dir = [] {
        std::error_code ec;
        std::filesystem::path base = std::filesystem::is_directory("/dev/shm", ec)
                                         ? std::filesystem::path("/dev/shm")
                                         : std::filesystem::temp_directory_path();
        auto d = base / ("burn-fuzz-" + std::to_string(::getpid()));
        std::filesystem::create_directories(d);
        return d;
    }();
    return dir;
}

inline void write_file(const std::filesystem::path& path, const uint8_t* data, std::size_t size) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
}

}  // namespace burn::fuzz
