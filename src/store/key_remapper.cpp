#include "burn/store/key_remapper.hpp"

#include <cstddef>
#include <cstdint>
#include <set>

#include "burn/core/error.hpp"

namespace burn::store {

namespace {
std::regex compile(const std::string& pattern, const char* op) {
    try {
        return std::regex(pattern, std::regex::ECMAScript);
    } catch (const std::regex_error& e) {
        BURN_THROW("[", op, "] invalid regex '", pattern, "': ", e.what());
    }
}
}  // namespace

KeyRemapper& KeyRemapper::add_pattern(const std::string& pattern, std::string replacement) {
    rules_.push_back({pattern, compile(pattern, "KeyRemapper"), std::move(replacement)});
    return *this;
}

std::string KeyRemapper::apply(const std::string& path) const {
    std::string s = path;
    for (const auto& r : rules_) s = std::regex_replace(s, r.regex, r.replacement);
    return s;
}

PathFilter& PathFilter::with_regex(const std::string& pattern) {
    regexes_.push_back(compile(pattern, "PathFilter"));
    return *this;
}

PathFilter& PathFilter::with_full_path(std::string path) {
    paths_.push_back(std::move(path));
    return *this;
}

PathFilter& PathFilter::with_predicate(std::function<bool(const std::string&)> pred) {
    preds_.push_back(std::move(pred));
    return *this;
}

bool PathFilter::accepts(const std::string& path) const {
    if (empty()) return true;
    for (const auto& r : regexes_)
        if (std::regex_search(path, r)) return true;
    for (const auto& p : paths_)
        if (p == path) return true;
    for (const auto& f : preds_)
        if (f(path)) return true;
    return false;
}

namespace {

std::vector<std::string> split_path(const std::string& path) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (;;) {
        const std::size_t dot = path.find('.', start);
        parts.push_back(path.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
        if (dot == std::string::npos) return parts;
        start = dot + 1;
    }
}

/// Whether s is an index: digits only, short enough to compare as a number.
bool is_index(const std::string& s) {
    if (s.empty() || s.size() > 18) return false;
    for (char c : s)
        if (c < '0' || c > '9') return false;
    return true;
}

}  // namespace

std::map<std::string, std::string> map_indices_contiguous(const std::vector<std::string>& paths) {
    // The indices seen after each original prefix ("fc", "blocks.1.layers"), in numeric order.
    std::map<std::string, std::set<int64_t>> seen;
    std::vector<std::vector<std::string>> split;
    split.reserve(paths.size());
    for (const auto& p : paths) {
        split.push_back(split_path(p));
        std::string prefix;
        for (const auto& part : split.back()) {
            if (is_index(part)) seen[prefix].insert(std::stoll(part));
            prefix += (prefix.empty() ? "" : ".") + part;
        }
    }
    std::map<std::string, std::string> out;
    for (std::size_t i = 0; i < paths.size(); ++i) {
        std::string prefix, renamed;
        for (const auto& part : split[i]) {
            std::string piece = part;
            if (is_index(part)) {
                const auto& indices = seen[prefix];
                piece = std::to_string(std::distance(indices.begin(), indices.find(std::stoll(part))));
            }
            renamed += (renamed.empty() && prefix.empty() ? "" : ".") + piece;
            prefix += (prefix.empty() ? "" : ".") + part;
        }
        out[paths[i]] = renamed;
    }
    return out;
}

}  // namespace burn::store
