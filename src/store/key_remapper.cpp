#include "burn/store/key_remapper.hpp"

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

}  // namespace burn::store
