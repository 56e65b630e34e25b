#include <algorithm>
#include <ostream>

#include "burn/core/text.hpp"
#include "burn/store/module_store.hpp"

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

bool ends_with_path(const std::string& s, const std::string& tail) {
    return s.size() > tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0 &&
           s[s.size() - tail.size() - 1] == '.';
}

constexpr std::size_t kListed = 40;  // longer lists are cut, with a count

}  // namespace

std::string ApplyResult::summary() const {
    ::burn::detail::Text os;
    os << "applied " << applied.size() << ", skipped " << skipped.size() << ", missing " << missing.size()
       << ", unused " << unused.size() << ", errors " << errors.size();
    for (const auto& e : errors) {
        os << "\n  error: ";
        if (!e.path.empty()) os << e.path << ": ";
        os << e.message;
    }
    std::string prefix_hint;
    std::size_t n = 0;
    for (const auto& m : missing) {
        if (n++ == kListed) {
            os << "\n  ... and " << missing.size() - kListed << " more missing";
            break;
        }
        os << "\n  missing: " << m;
        // A drifted field name (edit distance) or a file nested under a prefix ("state_dict.fc.weight").
        const std::string* best = nullptr;
        std::size_t best_d = m.size() / 2 + 2;
        for (const auto& u : unused) {
            if (ends_with_path(u, m)) {
                best = &u;
                if (prefix_hint.empty()) prefix_hint = u.substr(0, u.size() - m.size());
                break;
            }
            std::size_t d = edit_distance(m, u);
            if (d < best_d) {
                best_d = d;
                best = &u;
            }
        }
        if (best) os << " (did you mean '" << *best << "' in the file?)";
    }
    n = 0;
    for (const auto& u : unused) {
        if (n++ == kListed) {
            os << "\n  ... and " << unused.size() - kListed << " more unused";
            break;
        }
        os << "\n  unused: " << u;
    }
    if (!prefix_hint.empty())
        os << "\n  hint: the file's names carry the prefix '" << prefix_hint
           << "': PytorchStore::with_top_level_key or a KeyRemapper (\"^"
           << prefix_hint.substr(0, prefix_hint.size() - 1) << "\\\\.\" -> \"\") removes it";
    return os.str();
}

std::ostream& operator<<(std::ostream& os, const ApplyResult& r) {
    return os << r.summary();
}

}  // namespace burn::store
