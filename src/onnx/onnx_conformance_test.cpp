// ONNX's own backend node tests (generated from Debian's python3-onnx 1.12 by scripts/onnx_node_data.sh
// into the folder BURN_ONNX_NODE_DIR names; scripts/test.sh does it): every case the checked-in list
// tests/fixtures/onnx/node_cases.txt marks as passing must pass, and the pass rate over the cases not
// excluded there (each exclusion with its reason) is printed. Skips when the data is absent.
#include <gtest/gtest.h>

#include <burn/burn.hpp>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "burn/onnx/conformance.hpp"
#include "fixture_root.hpp"
#include "platform/env.hpp"

namespace burn::onnx::conformance_test {
namespace {

struct Expectations {
    std::set<std::string> passing;
    std::vector<std::pair<std::regex, std::string>> excluded;  // pattern, reason
};

Expectations read_expectations() {
    Expectations e;
    std::ifstream in(burn::testing::fixture_root() / "onnx" / "node_cases.txt");
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream ls(line);
        std::string kind, what;
        ls >> kind >> what;
        if (kind == "pass") e.passing.insert(what);
        if (kind == "exclude") {
            std::string reason;
            std::getline(ls, reason);
            e.excluded.emplace_back(std::regex(what), reason);
        }
    }
    return e;
}

TEST(OnnxConformance, NodeCases) {
    const std::string dir = platform::env_var("BURN_ONNX_NODE_DIR").value_or("");
    if (dir.empty())
        GTEST_SKIP() << "BURN_ONNX_NODE_DIR is not set (scripts/onnx_node_data.sh makes the cases)";
    const auto cases = find_backend_cases({dir});
    if (cases.empty()) GTEST_SKIP() << "no ONNX node cases under " << dir;
    const Expectations want = read_expectations();
    ASSERT_GT(want.passing.size(), 500u) << "tests/fixtures/onnx/node_cases.txt lists too few passing cases";
    int passed = 0, counted = 0, excluded = 0;
    std::vector<std::string> newly;
    std::set<std::string> seen;
    for (const std::string& path : cases) {
        const CaseResult r = run_backend_case(path, Device::cpu());
        seen.insert(r.name);
        bool is_excluded = false;
        for (const auto& [re, reason] : want.excluded) is_excluded |= std::regex_search(r.name, re);
        const bool ok = r.status == CaseResult::Status::passed;
        if (want.passing.count(r.name)) {
            EXPECT_TRUE(ok) << r.name << " passed before: " << r.message;
        }
        if (is_excluded) {
            ++excluded;
            continue;
        }
        ++counted;
        passed += ok;
        if (ok && !want.passing.count(r.name)) newly.push_back(r.name);
    }
    for (const std::string& name : want.passing)
        EXPECT_TRUE(seen.count(name)) << name << " is missing from " << dir;
    std::cout << "[  NOTE    ] ONNX node cases: " << cases.size() << " generated, " << excluded
              << " excluded, " << passed << " of " << counted << " pass ("
              << (counted ? 100.0 * passed / counted : 0.0) << "%)\n";
    if (!newly.empty()) {
        std::cout << "[  NOTE    ] passing but not listed in node_cases.txt (add them):";
        for (const auto& n : newly) std::cout << ' ' << n;
        std::cout << '\n';
    }
}

}  // namespace
}  // namespace burn::onnx::conformance_test
