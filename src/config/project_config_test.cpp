// burn.toml: the TOML subset, the variable names, errors naming the line, and env_var's fallback.
#include "burn/config/project_config.hpp"

#include <gtest/gtest.h>

#include <cstdlib>

#include "burn/core/error.hpp"
#include "platform/env.hpp"

using burn::config::ProjectConfig;

TEST(ProjectConfig, ParsesTheSubsetIntoVariableNames) {
    const auto c = ProjectConfig::parse(R"(# settings
default_device = "cuda:1"   # a comment after a value
num_threads = 1_000
detect_anomaly = true

[cpu]
cache = 'C:\burn\cache'
dnnl = false
winograd-min = -2.5e3
[cuda.cudnn]
benchmark = "say \"yes\"\tnow"
)");
    const std::map<std::string, std::string> want{{"BURN_DEFAULT_DEVICE", "cuda:1"},
                                                  {"BURN_NUM_THREADS", "1000"},
                                                  {"BURN_DETECT_ANOMALY", "1"},
                                                  {"BURN_CPU_CACHE", "C:\\burn\\cache"},
                                                  {"BURN_CPU_DNNL", "0"},
                                                  {"BURN_CPU_WINOGRAD_MIN", "-2.5e3"},
                                                  {"BURN_CUDA_CUDNN_BENCHMARK", "say \"yes\"\tnow"}};
    EXPECT_EQ(c.variables(), want);
    EXPECT_EQ(c.get("BURN_CPU_DNNL"), "0");
    EXPECT_EQ(c.get("BURN_TUI"), std::nullopt);
}

TEST(ProjectConfig, ErrorsNameTheLineAndTheFix) {
    auto message = [](const std::string& text) {
        try {
            ProjectConfig::parse(text, "proj/burn.toml");
        } catch (const burn::Error& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_NE(message("a = 1\nb = [1, 2]").find("proj/burn.toml line 2: arrays"), std::string::npos);
    EXPECT_NE(message("a = 1\na = 2").find("line 2: 'a' is set twice (BURN_A)"), std::string::npos);
    EXPECT_NE(message("name = cpu").find("quote text (\"cpu\")"), std::string::npos);
    EXPECT_NE(message("[cpu\nx = 1").find("line 1: a table header without"), std::string::npos);
    EXPECT_NE(message("x = \"open").find("closing"), std::string::npos);
    EXPECT_NE(message("x = \"a\" b").find("unexpected 'b'"), std::string::npos);
    EXPECT_NE(message("x = 1 2").find("'1 2' is not a string, number or boolean"), std::string::npos);
    EXPECT_NE(message("\"quoted key\" = 1").find("bare keys"), std::string::npos);
    EXPECT_NE(message("[[bin]]").find("arrays of tables"), std::string::npos);
}

TEST(ProjectConfig, EnvVarFallsBackToTheFileAndTheEnvironmentWins) {
    ProjectConfig::set_current(std::make_shared<const ProjectConfig>(
        ProjectConfig::parse("[project_config_test]\nfrom_file = 7\nboth = \"file\"\n")));
    ::setenv("BURN_PROJECT_CONFIG_TEST_BOTH", "env", 1);
    EXPECT_EQ(burn::platform::env_var("BURN_PROJECT_CONFIG_TEST_FROM_FILE"), "7");
    EXPECT_EQ(burn::platform::env_var("BURN_PROJECT_CONFIG_TEST_BOTH"), "env");
    EXPECT_EQ(burn::platform::env_var("BURN_PROJECT_CONFIG_TEST_NONE"), std::nullopt);
    ::unsetenv("BURN_PROJECT_CONFIG_TEST_BOTH");
    ProjectConfig::set_current(nullptr);
    EXPECT_EQ(burn::platform::env_var("BURN_PROJECT_CONFIG_TEST_FROM_FILE"), std::nullopt);
}
