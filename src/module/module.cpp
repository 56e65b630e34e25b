#include <algorithm>
#include <atomic>
#include <ostream>
#include <sstream>

#include "burn/module/module.hpp"

namespace burn {

ParamId ParamId::create() {
    // Unique within the process and unlikely to collide with ids loaded from files (high bits random
    // per process start, low bits a counter).
    static std::atomic<uint64_t> counter{0};
    static const uint64_t base = [] {
        uint64_t x = reinterpret_cast<uintptr_t>(&counter) ^ 0x9E3779B97F4A7C15ull;
        x ^= x >> 33;
        x *= 0xff51afd7ed558ccdull;
        x ^= x >> 33;
        return x & 0xFFFFFFFF00000000ull;
    }();
    return ParamId(base | (counter.fetch_add(1) + 1));
}

std::ostream& operator<<(std::ostream& os, ParamId id) { return os << "ParamId(" << id.value() << ")"; }

}  // namespace burn

namespace burn::store {

namespace {
std::size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j)
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
        std::swap(prev, cur);
    }
    return prev[b.size()];
}
}  // namespace

std::string ApplyResult::summary() const {
    std::ostringstream os;
    os << "applied " << applied.size() << ", skipped " << skipped.size() << ", missing " << missing.size()
       << ", unused " << unused.size() << ", errors " << errors.size();
    for (const auto& e : errors) os << "\n  error: " << e.path << ": " << e.message;
    for (const auto& m : missing) {
        os << "\n  missing: " << m;
        // Suggest the closest unused name: drifted field names are the usual cause.
        const std::string* best = nullptr;
        std::size_t best_d = m.size() / 2 + 2;
        for (const auto& u : unused) {
            std::size_t d = edit_distance(m, u);
            if (d < best_d) {
                best_d = d;
                best = &u;
            }
        }
        if (best) os << " (did you mean '" << *best << "' in the file?)";
    }
    for (const auto& u : unused) os << "\n  unused: " << u;
    return os.str();
}

std::ostream& operator<<(std::ostream& os, const ApplyResult& r) { return os << r.summary(); }

}  // namespace burn::store

namespace burn::module {

void check_load(const store::ApplyResult& result, bool partial_allowed) {
    if (!result.errors.empty() || (!partial_allowed && !result.missing.empty()))
        BURN_THROW("[load_from] the load failed and nothing was applied: ", result.summary(),
                   result.errors.empty() ? "\n  (allow_partial(true) on the store accepts missing tensors)" : "");
}

}  // namespace burn::module
