#include "fixture_root.hpp"

namespace burn::testing {

std::filesystem::path fixture_root() {
    return std::filesystem::path(BURN_TEST_FIXTURE_DIR);
}

}  // namespace burn::testing
