// module::ParamGroup (burn/module/param_group.hpp): matchers over (id, path).
#include "burn/module/param_group.hpp"

#include <algorithm>

namespace burn::module {

namespace {
bool contains(const std::string* path, const std::string& text) {
    return path && path->find(text) != std::string::npos;
}
}  // namespace

ParamGroup ParamGroup::all() {
    return ParamGroup([](ParamId, const std::string*) { return true; });
}

ParamGroup ParamGroup::from_ids(std::vector<ParamId> ids) {
    return ParamGroup([ids = std::move(ids)](ParamId id, const std::string*) {
        return std::find(ids.begin(), ids.end(), id) != ids.end();
    });
}

ParamGroup ParamGroup::from_path(std::string path) {
    return from_paths({std::move(path)});
}

ParamGroup ParamGroup::from_paths(std::vector<std::string> paths) {
    return ParamGroup([paths = std::move(paths)](ParamId, const std::string* p) {
        return p && std::find(paths.begin(), paths.end(), *p) != paths.end();
    });
}

ParamGroup ParamGroup::from_predicate(std::string text) {
    return from_predicates({std::move(text)});
}

ParamGroup ParamGroup::from_predicates(std::vector<std::string> texts) {
    return ParamGroup([texts = std::move(texts)](ParamId, const std::string* p) {
        return p &&
               std::all_of(texts.begin(), texts.end(), [&](const std::string& t) { return contains(p, t); });
    });
}

ParamGroup ParamGroup::from_any_predicates(const std::vector<std::string>& texts) {
    return ParamGroup([texts](ParamId, const std::string* p) {
        return std::any_of(texts.begin(), texts.end(), [&](const std::string& t) { return contains(p, t); });
    });
}

ParamGroup ParamGroup::where(std::function<bool(const std::string&)> pred) {
    return ParamGroup([pred = std::move(pred)](ParamId, const std::string* p) { return p && pred(*p); });
}

ParamGroup ParamGroup::fuse(const ParamGroup& other) const {
    return ParamGroup([a = *this, b = other](ParamId id, const std::string* p) {
        return a.matches(id, p) || b.matches(id, p);
    });
}

ParamGroup& ParamGroup::exclude(const ParamGroup& other) {
    excludes_.push_back([other](ParamId id, const std::string* p) { return other.matches(id, p); });
    return *this;
}

bool ParamGroup::matches(ParamId id, const std::string* path) const {
    if (!matcher_(id, path)) return false;
    return std::none_of(excludes_.begin(), excludes_.end(), [&](const Matcher& m) { return m(id, path); });
}

}  // namespace burn::module
