// platform::EnvSwitch, the on/off switches read from the environment on first use (BURN_CPU_DNNL,
// BURN_CPU_WINOGRAD, BURN_DETECT_ANOMALY): both defaults, the value that flips each, that the variable
// is read once (a later change of it does not move the switch) and that set() overrides it; and
// BURN_NUM_THREADS's parsing (a mistyped value was silently one thread).
#include "platform/env.hpp"

#include <gtest/gtest.h>

#include <cstdlib>

#include "burn/core/error.hpp"
#include "platform/parallel.hpp"

namespace burn::platform {
namespace env_test {

constexpr const char* kVar = "BURN_ENV_SWITCH_TEST";

TEST(EnvSwitch, DefaultOnIsOffOnlyForZero) {
    ::unsetenv(kVar);
    EnvSwitch unset(kVar, true);
    EXPECT_TRUE(unset.on());
    ::setenv(kVar, "0", 1);
    EXPECT_TRUE(unset.on()) << "read once: a later change of the variable must not move the switch";
    EnvSwitch zero(kVar, true);
    EXPECT_FALSE(zero.on());
    ::setenv(kVar, "1", 1);
    EnvSwitch one(kVar, true);
    EXPECT_TRUE(one.on());
    ::setenv(kVar, "no", 1);
    EnvSwitch other(kVar, true);
    EXPECT_TRUE(other.on());
    ::unsetenv(kVar);
}

TEST(EnvSwitch, DefaultOffIsOnOnlyForOne) {
    ::unsetenv(kVar);
    EnvSwitch unset(kVar, false);
    EXPECT_FALSE(unset.on());
    ::setenv(kVar, "1", 1);
    EnvSwitch one(kVar, false);
    EXPECT_TRUE(one.on());
    ::setenv(kVar, "0", 1);
    EnvSwitch zero(kVar, false);
    EXPECT_FALSE(zero.on());
    ::unsetenv(kVar);
}

TEST(EnvSwitch, SetOverridesTheVariable) {
    ::setenv(kVar, "0", 1);
    EnvSwitch s(kVar, true);
    s.set(true);  // before the first read
    EXPECT_TRUE(s.on());
    s.set(false);
    EXPECT_FALSE(s.on());
    s.set(true);
    EXPECT_TRUE(s.on());
    ::unsetenv(kVar);
}

TEST(NumThreads, ParsesPositiveCountsAndRejectsTheRest) {
    EXPECT_EQ(parse_num_threads("4"), 4);
    EXPECT_EQ(parse_num_threads(" 12 "), 12);
    EXPECT_EQ(parse_num_threads("1"), 1);
    for (const char* bad : {"abc", "-3", "0", "4x", "", " ", "1e3", "99999999999", "+2"}) {
        try {
            parse_num_threads(bad);
            ADD_FAILURE() << "'" << bad << "' was accepted";
        } catch (const Error& e) {
            const std::string what = e.what();
            EXPECT_NE(what.find("[BURN_NUM_THREADS] '" + std::string(bad) + "'"), std::string::npos) << what;
            EXPECT_NE(what.find("positive integer"), std::string::npos) << what;
        }
    }
}

}  // namespace env_test
}  // namespace burn::platform
