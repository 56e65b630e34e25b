#pragma once
// Whole-file reads and atomic writes: the only place the library touches the file system for data
// (configs now, records and checkpoints later). Both are binary-safe.
#include <filesystem>
#include <string>
#include <string_view>

namespace burn::platform {

/// The whole file. Throws burn::IoError "[op] cannot read '<path>': <reason>" when it is missing, a
/// directory, or unreadable.
std::string read_file(const std::filesystem::path& path, std::string_view op = "read_file");

/// Writes `bytes` to a new temporary file beside `path` (same directory, so the rename cannot cross
/// file systems), flushes it to disk, then renames it over `path`: readers see the old file or the new
/// one, never a partial one. Throws burn::IoError "[op] cannot write '<path>': <reason>"; no
/// temporary file is left behind on failure.
void write_file_atomic(const std::filesystem::path& path, std::string_view bytes,
                       std::string_view op = "write_file");

}  // namespace burn::platform
