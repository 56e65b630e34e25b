// Coverage: every OpId of the op tables (elementwise.def + ops.def) must have an op-database entry,
// and every primitive row a CPU kernel. The failure lists every op that lacks one, so a new table row cannot
// be forgotten (the run-time twin of the count static_asserts).
#include <gtest/gtest.h>

#include <iostream>
#include <set>
#include <sstream>

#include "backends/cpu/cpu_backend.hpp"
#include "op_db.hpp"
#include "ops/decompose.hpp"

namespace burn::opdb {
namespace {

// A derived row may go without a CPU kernel: the CPU then runs its decomposition (decompose.hpp),
// which DecomposeOpDb checks. Every primitive needs one.
TEST(Coverage, EveryPrimitiveHasACpuKernel) {
    std::ostringstream missing, decomposed;
    int n = 0;
    for (int i = 0; i < kNumOps; ++i) {
        const auto id = static_cast<OpId>(i);
        if (cpu::CpuBackend::instance().has_kernel(id)) continue;
        if (!ops::is_primitive(id)) {
            decomposed << ' ' << op_info(id).name;
            continue;
        }
        missing << "\n  " << op_info(id).name << " (family " << op_info(id).family << ")";
        ++n;
    }
    EXPECT_EQ(n, 0) << n << " primitive rows lack a CPU kernel:" << missing.str();
    if (!decomposed.str().empty())
        std::cout << "[  NOTE    ] derived rows the CPU runs decomposed:" << decomposed.str() << "\n";
}

TEST(Coverage, EveryOpHasAnOpDbEntry) {
    std::set<int> covered;
    for (const OpEntry& e : op_db())
        for (OpId id : e.ops) covered.insert(static_cast<int>(id));
    std::ostringstream missing;
    int n = 0;
    for (int i = 0; i < kNumOps; ++i) {
        if (covered.count(i)) continue;
        const auto id = static_cast<OpId>(i);
        missing << "\n  " << op_info(id).name << " (family " << op_info(id).family << ")";
        ++n;
    }
    EXPECT_EQ(n, 0) << n << " of " << kNumOps
                    << " ops lack an op-db entry (tests/op_db*.cpp):" << missing.str();
}

TEST(Coverage, OpInfoMatchesTheTables) {
    std::set<std::string_view> names;
    for (int i = 0; i < kNumOps; ++i) {
        const OpInfo& info = op_info(static_cast<OpId>(i));
        EXPECT_FALSE(info.name.empty()) << "op " << i;
        EXPECT_TRUE(names.insert(info.name).second) << "duplicate op name " << info.name;
        EXPECT_GE(info.outputs, 1) << info.name;
    }
    EXPECT_THROW(op_info(static_cast<OpId>(kNumOps)), burn::Error);
}

}  // namespace
}  // namespace burn::opdb
