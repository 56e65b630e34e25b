// Optimizer: applies a rule over a module's parameters (validation, clipping, groups, state, records).
#include "burn/optim/optimizer.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>

namespace burn::optim {

namespace {
constexpr const char* kGroupSchedule = "group_schedule.";
}  // namespace

std::string OptimizerRecord::key(ParamId id, const std::string& name) {
    return std::to_string(id.value()) + "." + name;
}

Optimizer Optimizer::with_grad_clipping(GradientClipping clipping) && {
    clipping_ = clipping;
    return std::move(*this);
}

Optimizer Optimizer::with_group(PathPredicate pred, GroupSettings settings) && {
    BURN_CHECK(pred != nullptr, "[Optimizer::with_group] the path predicate is empty");
    BURN_CHECK(std::isfinite(settings.lr_factor) && settings.lr_factor >= 0,
               "[Optimizer::with_group] lr_factor must be a finite non-negative number, got ",
               settings.lr_factor);
    BURN_CHECK(
        !settings.weight_decay || (std::isfinite(*settings.weight_decay) && *settings.weight_decay >= 0),
        "[Optimizer::with_group] weight_decay must be a finite non-negative number, got ",
        settings.weight_decay.value_or(0.0));
    groups_.push_back({std::move(pred), settings});
    return std::move(*this);
}

void Optimizer::set_momentum(double momentum) {
    BURN_CHECK(std::isfinite(momentum) && momentum >= 0 && momentum < 1,
               "[Optimizer::set_momentum] momentum must be in [0, 1), got ", momentum);
    std::shared_ptr<const Rule> r = rule_->with_momentum(momentum);
    BURN_CHECK(
        r != nullptr, "[Optimizer::set_momentum] the ", rule_->name(),
        " rule has no momentum to set; a schedule with cycle_momentum needs Sgd, RmsProp, Adam or AdamW "
        "(or turn cycle_momentum off)");
    rule_ = std::move(r);
}

Optimizer Optimizer::with_group(PathPredicate pred, const Optimizer& optimizer,
                                GroupSettings settings) const& {
    Optimizer out = Optimizer(*this).with_group(std::move(pred), std::move(settings));
    out.groups_.back().rule = optimizer.rule_;
    out.groups_.back().clipping = optimizer.clipping_;
    return out;
}

Optimizer Optimizer::with_group(const module::ParamGroup& group, const Optimizer& optimizer,
                                GroupSettings settings) const& {
    Optimizer out = with_group([](const std::string&) { return false; }, optimizer, std::move(settings));
    out.groups_.back().ids = group;
    return out;
}

std::size_t Optimizer::group_of(ParamId id, const std::string& path) const {
    for (std::size_t k = 0; k < groups_.size(); ++k)
        if (groups_[k].ids ? groups_[k].ids->matches(id, &path) : groups_[k].pred(path)) return k;
    return groups_.size();
}

namespace {

// A state tensor of another shape than its parameter comes from a record of another model.
void check_state(const ParamState& state, const Dims& shape, ParamId id, const char* rule) {
    for (const auto& [name, t] : state.tensors)
        BURN_CHECK_KIND(!t.defined() || t.shape() == shape, shape, "[Optimizer::step] ", rule, " state '",
                        name, "' of parameter ", id, " has shape ", t.shape(),
                        " but the parameter has shape ", shape,
                        "; was the optimizer record saved for another model?");
}

// The state follows its parameter: same device and dtype.
void align_state(ParamState& state, const TensorAny& param) {
    for (auto& [name, t] : state.tensors) {
        if (!t.defined()) continue;
        if (t.device() != param.device()) t = ops::to_device(std::move(t), param.device());
        if (t.dtype() != param.dtype()) t = ops::cast(std::move(t), param.dtype());
    }
}

}  // namespace

void Optimizer::apply(double lr, std::vector<Slot>& slots, GradientsParams& grads) {
    const char* name = rule_->name();
    BURN_CHECK(std::isfinite(lr) && lr >= 0, "[Optimizer::step] ", name,
               ": the learning rate must be a finite non-negative number, got ", lr);
    std::vector<ParamId> ids;
    ids.reserve(slots.size());
    for (const auto& s : slots) ids.push_back(s.id);
    grads.check_belongs(ids, "Optimizer::step");

    // Validate every gradient and state before consuming or changing any.
    std::vector<Slot*> active;
    std::vector<std::size_t> group;  // of each active slot
    for (auto& s : slots) {
        if (!s.trainable) continue;
        auto it = grads.items().find(s.id.value());
        if (it == grads.items().end()) continue;
        BURN_CHECK_KIND(it->second.shape() == s.value.shape(), shape, "[Optimizer::step] ", name,
                        ": gradient of shape ", it->second.shape(), " for parameter '", s.path, "' of shape ",
                        s.value.shape());
        BURN_CHECK_KIND(is_float(it->second.dtype()), dtype, "[Optimizer::step] ", name,
                        ": gradient of parameter '", s.path, "' is ", it->second.dtype(),
                        ", not a float dtype");
        const std::size_t k = group_of(s.id, s.path);
        rule_of(k).check_param(s.path, s.value.shape());
        auto state = states_.find(s.id.value());
        if (state != states_.end()) check_state(state->second, s.value.shape(), s.id, rule_of(k).name());
        active.push_back(&s);
        group.push_back(k);
    }

    std::vector<TensorAny> gs;
    std::vector<TensorAny> inner;
    gs.reserve(active.size());
    inner.reserve(active.size());
    for (Slot* s : active) {
        inner.push_back(ops::inner_of(s->value));
        TensorAny g = ops::inner_of(*grads.remove(s->id));
        if (g.device() != inner.back().device()) g = ops::to_device(std::move(g), inner.back().device());
        if (g.dtype() != inner.back().dtype()) g = ops::cast(std::move(g), inner.back().dtype());
        gs.push_back(std::move(g));
    }
    // Groups with their own clipping clip their gradients together; the others are clipped together.
    for (std::size_t k = 0; k <= groups_.size(); ++k) {
        const bool own = k < groups_.size() && groups_[k].clipping;
        if (k < groups_.size() && !own) continue;
        std::vector<std::size_t> members;
        for (std::size_t i = 0; i < gs.size(); ++i) {
            const bool has_own = group[i] < groups_.size() && groups_[group[i]].clipping;
            if (own ? group[i] == k : !has_own) members.push_back(i);
        }
        std::vector<TensorAny> part;
        for (std::size_t i : members) part.push_back(std::move(gs[i]));
        (own ? *groups_[k].clipping : clipping_).apply_all(part);
        for (std::size_t j = 0; j < members.size(); ++j) gs[members[j]] = std::move(part[j]);
    }

    // Every group schedule advances once per step, whether or not its parameters have gradients.
    std::vector<double> scheduled(groups_.size(), lr);
    for (std::size_t k = 0; k < groups_.size(); ++k)
        if (groups_[k].settings.lr_schedule) scheduled[k] = groups_[k].settings.lr_schedule->step();

    std::vector<StepItem> items(active.size());
    for (std::size_t i = 0; i < active.size(); ++i) {
        const std::size_t k = group[i];
        const GroupSettings* settings = k < groups_.size() ? &groups_[k].settings : nullptr;
        StepItem& it = items[i];
        it.lr = settings ? scheduled[k] * settings->lr_factor : lr;
        it.weight_decay =
            settings && settings->weight_decay ? *settings->weight_decay : rule_of(k).weight_decay();
        it.param = &inner[i];
        it.grad = std::move(gs[i]);
        it.state = &states_[active[i]->id.value()];  // references stay valid while the map grows
        align_state(*it.state, inner[i]);
    }
    bool multi = multi_tensor_ == MultiTensor::on;
    if (multi_tensor_ == MultiTensor::automatic)
        for (const StepItem& it : items) multi |= it.param->device().base() != Device::cpu();
    // One pass per distinct rule (the optimizer's, then each group's own), in order.
    std::vector<const Rule*> rules{rule_.get()};
    for (std::size_t i = 0; i < items.size(); ++i)
        if (std::find(rules.begin(), rules.end(), &rule_of(group[i])) == rules.end())
            rules.push_back(&rule_of(group[i]));
    for (const Rule* r : rules) {
        std::vector<std::size_t> members;
        for (std::size_t i = 0; i < items.size(); ++i)
            if (&rule_of(group[i]) == r) members.push_back(i);
        if (members.empty()) continue;
        if (multi) {
            std::vector<StepItem> part;
            for (std::size_t i : members) part.push_back(std::move(items[i]));
            r->step_many(part);
            for (std::size_t j = 0; j < members.size(); ++j) items[members[j]] = std::move(part[j]);
        } else {
            for (std::size_t i : members) {
                StepItem& it = items[i];
                it.updated = r->step(it.lr, it.weight_decay, *it.param, std::move(it.grad), *it.state);
            }
        }
    }
    for (std::size_t i = 0; i < active.size(); ++i)
        active[i]->updated = ops::to_device(std::move(items[i].updated), active[i]->value.device());
}

void Rule::step_many(std::span<StepItem> items) const {
    for (StepItem& it : items)
        it.updated = step(it.lr, it.weight_decay, *it.param, std::move(it.grad), *it.state);
}

OptimizerRecord Optimizer::to_record() const {
    OptimizerRecord record;
    for (const auto& [id, state] : states_) {
        for (const auto& [name, t] : state.tensors)
            if (t.defined()) record.tensors[OptimizerRecord::key(ParamId(id), name)] = t;
        for (const auto& [name, v] : state.scalars)
            record.scalars[OptimizerRecord::key(ParamId(id), name)] = v;
    }
    for (std::size_t k = 0; k < groups_.size(); ++k)
        if (groups_[k].settings.lr_schedule)
            for (const auto& [key, v] : groups_[k].settings.lr_schedule->to_record().scalars)
                record.scalars[std::string(kGroupSchedule) + std::to_string(k) + "." + key] = v;
    return record;
}

namespace {

// The group index and the schedule's key of a "group_schedule.<k>.<key>" record key.
std::pair<std::size_t, std::string> split_group_key(const std::string& key, std::size_t groups) {
    const std::string rest = key.substr(std::strlen(kGroupSchedule));
    auto dot = rest.find('.');
    bool ok = dot != std::string::npos && dot > 0 && dot < 10 && dot + 1 < rest.size();
    for (std::size_t i = 0; ok && i < dot; ++i) ok = rest[i] >= '0' && rest[i] <= '9';
    const std::size_t k = ok ? std::stoul(rest.substr(0, dot)) : groups;
    BURN_CHECK(
        k < groups, "[Optimizer::load_record] key '", key,
        "' names no group with a learning-rate schedule (expected 'group_schedule.<group index>.<key>' ",
        "for one of ", groups, " groups); add the same groups before loading");
    return {k, rest.substr(dot + 1)};
}

std::pair<uint64_t, std::string> split_key(const std::string& key) {
    auto dot = key.find('.');
    bool ok = dot != std::string::npos && dot > 0 && dot + 1 < key.size() && dot <= 20;
    for (std::size_t i = 0; ok && i < dot; ++i) ok = key[i] >= '0' && key[i] <= '9';
    BURN_CHECK(ok, "[Optimizer::load_record] key '", key, "' is not '<param id>.<state name>'");
    return {std::stoull(key.substr(0, dot)), key.substr(dot + 1)};
}

}  // namespace

void Optimizer::load_record(const OptimizerRecord& record) {
    std::vector<std::string> names = rule_->state_names();
    for (const Group& g : groups_)
        if (g.rule)
            for (const std::string& n : g.rule->state_names()) names.push_back(n);
    std::set<std::string> known(names.begin(), names.end());
    auto check_name = [&](const std::string& key, const std::string& name) {
        BURN_CHECK(known.empty() || known.count(name), "[Optimizer::load_record] ", rule_->name(),
                   " keeps no state named '", name, "' (key '", key,
                   "'); was the record saved by another optimizer?");
    };
    std::unordered_map<uint64_t, ParamState> states;
    std::vector<LrSchedulerRecord> schedules(groups_.size());
    for (const auto& [key, v] : record.scalars) {
        if (!key.starts_with(kGroupSchedule)) continue;
        auto [k, name] = split_group_key(key, groups_.size());
        BURN_CHECK(groups_[k].settings.lr_schedule.has_value(), "[Optimizer::load_record] key '", key,
                   "' is for a schedule of group ", k, ", which has none");
        schedules[k].scalars[name] = v;
    }
    std::vector<LrSchedulerAny> loaded;  // copies: a bad record changes nothing
    for (std::size_t k = 0; k < groups_.size(); ++k) {
        if (!groups_[k].settings.lr_schedule) continue;
        loaded.push_back(*groups_[k].settings.lr_schedule);
        if (!schedules[k].scalars.empty()) loaded.back().load_record(schedules[k]);
    }
    for (const auto& [key, t] : record.tensors) {
        auto [id, name] = split_key(key);
        check_name(key, name);
        BURN_CHECK(t.defined(), "[Optimizer::load_record] tensor '", key, "' is undefined");
        states[id].tensors[name] = ops::inner_of(t);
    }
    for (const auto& [key, v] : record.scalars) {
        if (key.starts_with(kGroupSchedule)) continue;
        auto [id, name] = split_key(key);
        check_name(key, name);
        states[id].scalars[name] = v;
    }
    states_ = std::move(states);
    std::size_t next = 0;
    for (auto& g : groups_)
        if (g.settings.lr_schedule) g.settings.lr_schedule = std::move(loaded[next++]);
}

void Optimizer::to_device(const Device& device) {
    for (auto& [id, state] : states_)
        for (auto& [name, t] : state.tensors)
            if (t.defined()) t = ops::to_device(std::move(t), device.inner());
}

}  // namespace burn::optim
