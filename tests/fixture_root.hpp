#pragma once
// Where the checked-in test fixtures live (tests/fixtures in the source tree). The path comes from
// CMake (tests/fixture_root.cpp is compiled with it), not from __FILE__, which compiler caches and
// out-of-tree builds may rewrite to a relative path.
#include <filesystem>

namespace burn::testing {

/// The absolute path of tests/fixtures.
std::filesystem::path fixture_root();

}  // namespace burn::testing
