// BURN_DEFAULT_DEVICE (burn's BURN_DEVICE): the variable picks what Device() means. Device() reads it once
// per process, so each case runs in a fresh copy of the test program (a "threadsafe" death test re-executes
// the binary) that inherits the variable; the parent's value is restored afterwards.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

#include "burn/burn.hpp"

using namespace burn;

// File-local names in a namespace named after the file (a unity batch shares one translation unit).
namespace default_device_env_test {

constexpr const char* kVar = "BURN_DEFAULT_DEVICE";

/// Sets the variable for the scope and restores the previous value (or its absence) afterwards.
class ScopedEnv {
  public:
    ScopedEnv(const char* name, const char* value) : name_(name) {
        if (const char* old = std::getenv(name)) old_ = old;
        ::setenv(name, value, 1);
    }
    ~ScopedEnv() {
        if (old_)
            ::setenv(name_, old_->c_str(), 1);
        else
            ::unsetenv(name_);
    }
    ScopedEnv(const ScopedEnv&) = delete;
    ScopedEnv& operator=(const ScopedEnv&) = delete;

  private:
    const char* name_;
    std::optional<std::string> old_;
};

/// Death tests in "threadsafe" style (the child re-executes the program, so its Device() starts unread)
/// for the scope; the previous style is restored afterwards.
class ThreadsafeDeathTests {
  public:
    ThreadsafeDeathTests() : old_(GTEST_FLAG_GET(death_test_style)) {
        GTEST_FLAG_SET(death_test_style, "threadsafe");
    }
    ~ThreadsafeDeathTests() { GTEST_FLAG_SET(death_test_style, old_); }
    ThreadsafeDeathTests(const ThreadsafeDeathTests&) = delete;
    ThreadsafeDeathTests& operator=(const ThreadsafeDeathTests&) = delete;

  private:
    std::string old_;
};

/// In the child: exit 0 when Device() and a tensor made without a device are on `want`, else print why
/// and exit 1.
[[noreturn]] void expect_default(const Device& want) {
    const Device got = Device();
    const Device tensor_device = Tensor<1>::zeros({2}).device();
    std::fprintf(stderr, "default: %s, tensor on: %s\n", detail::to_text(got).c_str(),
                 detail::to_text(tensor_device).c_str());
    std::exit(got == want && tensor_device == want ? 0 : 1);
}

/// In the child: Device() must fail with a burn::Error. The message reaches stderr either from here or, when
/// something in the program's start-up asked for Device() first, from std::terminate ("what(): ...");
/// the caller's regex checks it, whatever the exit status.
[[noreturn]] void expect_default_error() {
    try {
        (void)Device();
    } catch (const Error& e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        std::exit(0);
    }
    std::fprintf(stderr, "Device() did not throw\n");
    std::exit(1);
}

/// Any exit status: the message is what is checked.
bool any_status(int) {
    return true;
}

TEST(DefaultDeviceEnv, TheVariablePicksTheDefaultDevice) {
#if !GTEST_HAS_DEATH_TEST
    GTEST_SKIP() << "no death tests (fresh processes) on this platform";
#else
    ThreadsafeDeathTests style;
    {
        // A decorated CPU: the lazy decorator, then autodiff over it.
        ScopedEnv env(kVar, "autodiff(lazy(cpu))");
        EXPECT_EXIT(expect_default(Device::cpu().lazy().autodiff()), ::testing::ExitedWithCode(0),
                    "default: autodiff\\(lazy\\(cpu\\)\\), tensor on: autodiff\\(lazy\\(cpu\\)\\)");
    }
    {
        ScopedEnv env(kVar, "lazy(cpu)");
        EXPECT_EXIT(expect_default(Device::cpu().lazy()), ::testing::ExitedWithCode(0),
                    "default: lazy\\(cpu\\)");
    }
    {
        ScopedEnv env(kVar, "cpu");
        EXPECT_EXIT(expect_default(Device::cpu()), ::testing::ExitedWithCode(0), "default: cpu");
    }
    {
        // Empty is the same as unset: the CPU.
        ScopedEnv env(kVar, "");
        EXPECT_EXIT(expect_default(Device::cpu()), ::testing::ExitedWithCode(0), "default: cpu");
    }
#endif
}

TEST(DefaultDeviceEnv, ABadValueIsAnErrorNamingTheVariable) {
#if !GTEST_HAS_DEATH_TEST
    GTEST_SKIP() << "no death tests (fresh processes) on this platform";
#else
    ThreadsafeDeathTests style;
    {
        ScopedEnv env(kVar, "nosuchbackend:0");
        EXPECT_EXIT(expect_default_error(), any_status,
                    "BURN_DEFAULT_DEVICE='nosuchbackend:0': .*no backend named 'nosuchbackend'");
    }
    {
        ScopedEnv env(kVar, "cpu:x");
        EXPECT_EXIT(expect_default_error(), any_status,
                    "BURN_DEFAULT_DEVICE='cpu:x': 'cpu:x' is not a device");
    }
#endif
}

}  // namespace default_device_env_test
