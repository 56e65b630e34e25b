#pragma once
/// A set of a module's parameters named by id, path or predicate (burn's ParamGroup), for
/// freeze_group / unfreeze_group (module.hpp):
///
///     auto head = module::ParamGroup::from_predicate("head");   // paths containing "head"
///     head.exclude(module::ParamGroup::from_path("head.bias"));
///     model = model.freeze_group(module::ParamGroup::all()).unfreeze_group(head);
///
/// Groups fuse (either matches) and exclude (neither the excluded group). A path matcher never
/// matches a parameter whose path is not known (matches(id, nullptr)).
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "burn/module/param.hpp"

namespace burn::module {

class ParamGroup {
  public:
    /// Every parameter.
    static ParamGroup all();
    /// The parameters with these ids (ids_from_module collects a module's).
    static ParamGroup from_ids(std::vector<ParamId> ids);
    /// Exactly this path / one of these paths ("encoder.0.weight").
    static ParamGroup from_path(std::string path);
    static ParamGroup from_paths(std::vector<std::string> paths);
    /// Paths containing the text / containing every one of the texts (AND).
    static ParamGroup from_predicate(std::string text);
    static ParamGroup from_predicates(std::vector<std::string> texts);
    /// Paths containing any of the texts (OR).
    static ParamGroup from_any_predicates(const std::vector<std::string>& texts);
    /// Paths the callable accepts.
    static ParamGroup where(std::function<bool(const std::string&)> pred);

    /// Either group (burn's fuse); each side keeps its own excludes.
    ParamGroup fuse(const ParamGroup& other) const;
    /// Removes other's parameters from this group.
    ParamGroup& exclude(const ParamGroup& other);

    bool matches(ParamId id, const std::string* path) const;
    bool matches(ParamId id, const std::string& path) const { return matches(id, &path); }

  private:
    using Matcher = std::function<bool(ParamId, const std::string*)>;
    explicit ParamGroup(Matcher m) : matcher_(std::move(m)) {}
    Matcher matcher_;
    std::vector<Matcher> excludes_;
};

}  // namespace burn::module
