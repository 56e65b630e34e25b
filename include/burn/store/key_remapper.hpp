#pragma once
/// Renaming and selecting tensors by path: KeyRemapper (regex patterns with $1 replacements) and
/// PathFilter (regexes, exact paths, predicates).
#include <functional>
#include <map>
#include <memory>
#include <regex>
#include <string>
#include <utility>
#include <vector>

namespace burn::store {

/// Renames tensor paths with ECMAScript regexes, applied in the order added; each replacement may use
/// $1, $2, ... for capture groups. KeyRemapper().add_pattern("^backbone\\.(.*)$", "encoder.$1").
class KeyRemapper {
  public:
    /// Throws burn::Error naming the pattern when it is not a valid regex.
    KeyRemapper& add_pattern(const std::string& pattern, std::string replacement);
    /// The renamed path (every pattern replaces all of its matches, in order).
    std::string apply(const std::string& path) const;
    bool empty() const { return rules_.empty(); }

  private:
    struct Rule {
        std::string pattern;
        std::regex regex;
        std::string replacement;
    };
    std::vector<Rule> rules_;
};

/// Renumbers the index segments of paths so that the indices under each parent run 0, 1, 2, ... in
/// numeric order (burn's map_indices_contiguous). PyTorch numbers an nn.Sequential's children by
/// position, layers without parameters included, so a file holds fc.0, fc.2, fc.4 where a module's list
/// of three Linears has fc.0, fc.1, fc.2:
///     map_indices_contiguous({"fc.0.weight", "fc.2.weight", "fc.4.bias"})
///         == {{"fc.0.weight", "fc.0.weight"}, {"fc.2.weight", "fc.1.weight"}, {"fc.4.bias", "fc.2.bias"}}
/// A segment is an index when it is all digits; each level is renumbered among the indices that follow
/// the same (original) prefix, so blocks.1.layers.3 and blocks.4.layers.3 are counted apart. Returns the
/// new name of every path given (already contiguous indices map to themselves).
std::map<std::string, std::string> map_indices_contiguous(const std::vector<std::string>& paths);

/// Selects module paths. An empty filter accepts everything; otherwise a path is accepted when any
/// regex matches part of it (std::regex_search), it equals one of the full paths, or a predicate
/// returns true. Loads report rejected paths as `skipped`; saves leave them out.
class PathFilter {
  public:
    PathFilter& with_regex(const std::string& pattern);
    PathFilter& with_full_path(std::string path);
    PathFilter& with_predicate(std::function<bool(const std::string&)> pred);
    bool accepts(const std::string& path) const;
    bool empty() const { return regexes_.empty() && paths_.empty() && preds_.empty(); }

  private:
    std::vector<std::regex> regexes_;
    std::vector<std::string> paths_;
    std::vector<std::function<bool(const std::string&)>> preds_;
};

}  // namespace burn::store
