#pragma once
// Checks of the training-state files (checkpoint/training-TAG.json) read back from disk. A state file
// is input like any other file: a tampered or damaged one must be refused with a burn::Error naming
// the file, the field and the value, never followed (its part names become file names) and never
// trusted for sizes (its epoch sizes the metric history).
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "burn/config/value.hpp"

namespace burn::train::state_file {

/// The largest epoch and iteration numbers a state file may hold: they must fit in 32 bits, as the
/// per-step seed packs them into one 64-bit number.
inline constexpr std::uint64_t kMaxCount = 0xFFFFFFFFull;

/// A checkpoint tag or part name: one plain file-name component (1 to 64 letters, digits, '_', '-',
/// '.'; not starting with '.', no ".."), so that the files it names stay in the checkpoint folder.
bool is_plain_name(std::string_view name);

/// Reads the fields of one state file, throwing burn::IoError naming the file, the field and the
/// value when a field is missing, of the wrong kind or out of range.
class StateReader {
  public:
    StateReader(const config::Value& root, std::filesystem::path file);

    const config::Value& root() const { return root_; }
    /// The member; throws when it is missing.
    const config::Value& field(std::string_view key) const;
    /// An unsigned integer in [min, max].
    std::uint64_t count(std::string_view key, std::uint64_t min, std::uint64_t max) const;
    /// A string that is_plain_name accepts.
    const std::string& name(std::string_view key) const;
    /// An object.
    const config::Value& object(std::string_view key) const;
    /// An array of at most max elements.
    const config::Value& array(std::string_view key, std::size_t max) const;

    /// Throws "[checkpoint] 'FILE': "FIELD" is VALUE: WHY; ..." (value is printed as JSON).
    [[noreturn]] void fail(std::string_view field, const config::Value& value, std::string_view why) const;
    [[noreturn]] void missing(std::string_view field) const;

  private:
    const config::Value& root_;
    std::filesystem::path file_;
};

}  // namespace burn::train::state_file
