// Every test starts from the random state a fresh process has. ctest runs burn_tests in a few shards
// (one process each) rather than one process per test case, so a test must not see the random draws
// of the tests before it: before each test, every device's stream goes back to the default seed. After
// each test, every device synchronises: an error a GPU kernel recorded but nobody read (docs/cuda.md,
// "Errors found by kernels") fails the test that caused it, not the next one.
#include <gtest/gtest.h>

#include <burn/burn.hpp>

namespace burn {
namespace {

class FreshRandomState final : public ::testing::EmptyTestEventListener {
    void OnTestStart(const ::testing::TestInfo&) override {
        for (const Device& d : Device::available()) d.seed(Generator::kDefaultSeed);
    }
    void OnTestEnd(const ::testing::TestInfo& info) override {
        for (const Device& d : Device::available()) {
            try {
                d.sync();
            } catch (const Error& e) {
                ADD_FAILURE() << info.test_suite_name() << "." << info.name() << " left an error on " << d
                              << " that nothing read: " << e.what();
            }
        }
    }
};

[[maybe_unused]] const bool kRegistered = [] {
    ::testing::UnitTest::GetInstance()->listeners().Append(new FreshRandomState);  // owned by gtest
    return true;
}();

}  // namespace
}  // namespace burn
