#include <map>

#include "burn/store/store.hpp"
#include "burn/tensor/ops.hpp"
#include "store/convert.hpp"
#include "store/gate_fusion.hpp"

namespace burn::store {

namespace {

bool same_kind(DType a, DType b) {
    return (is_float(a) && is_float(b)) || (is_int(a) && is_int(b)) || (is_bool(a) && is_bool(b));
}

std::string describe(const TensorEntry& e) {
    return burn::detail::msg(e.dtype, " ", e.shape);
}

/// A Linear layer's weight: the matrix Rust burn keeps as [d_input, d_output].
bool is_linear_weight(const std::string& module_type, const std::string& path) {
    return module_type == "Linear" &&
           (path == "weight" || (path.size() > 7 && path.compare(path.size() - 7, 7, ".weight") == 0));
}

}  // namespace

std::vector<std::string> StoreBase::keys() {
    std::vector<std::string> out;
    for (const auto& e : entries()) out.push_back(e.name);
    return out;
}

std::vector<TensorEntry> StoreBase::entries() {
    auto entries = read_entries();
    for (auto& e : entries) e.name = opts_.remapper.apply(e.name);
    if (opts_.map_indices_contiguous) {
        std::vector<std::string> names;
        names.reserve(entries.size());
        for (const auto& e : entries) names.push_back(e.name);
        const auto renamed = store::map_indices_contiguous(names);
        for (auto& e : entries) e.name = renamed.at(e.name);
    }
    return entries;
}

std::pair<ApplyResult, std::vector<LoadedTensor>> StoreBase::load(const std::vector<TensorSlot>& slots) {
    ApplyResult result;
    std::vector<TensorEntry> source = entries();
    const std::size_t file_tensors = source.size();
    std::set<std::string> paths;
    for (const auto& s : slots) paths.insert(s.path);
    if (opts_.load_adapter) source = opts_.load_adapter->adapt_load(std::move(source), paths, result);
    const bool in_out = opts_.burn_linear_layout || file_has_burn_linear_layout();
    source = fuse_gate_linears(std::move(source), paths, in_out, result);  // Rust burn's LSTM/GRU gates
    if (in_out) {
        std::set<std::string> linear;
        for (const auto& s : slots)
            if (is_linear_weight(s.module_type, s.path)) linear.insert(s.path);
        for (auto& e : source)
            if (e.shape.rank() == 2 && linear.count(e.name)) e = transposed(std::move(e));
    }

    std::map<std::string, std::size_t> by_name;
    for (std::size_t i = 0; i < source.size(); ++i) {
        auto [it, fresh] = by_name.emplace(source[i].name, i);
        if (!fresh)
            result.errors.push_back({source[i].name,
                                     "two tensors of the file map to this name (check the key "
                                     "remapping and the adapter)"});
    }

    // Match first; read tensors only when everything fits, so a failed load costs no I/O.
    std::vector<bool> used(source.size(), false);
    std::vector<std::pair<std::size_t, std::size_t>> matches;  // slot, entry
    for (std::size_t i = 0; i < slots.size(); ++i) {
        const TensorSlot& slot = slots[i];
        auto it = by_name.find(slot.path);
        if (it != by_name.end()) used[it->second] = true;
        if (!opts_.filter.accepts(slot.path)) {
            result.skipped.push_back(slot.path);
            continue;
        }
        if (it == by_name.end()) {
            result.missing.push_back(slot.path);
            continue;
        }
        const TensorEntry& e = source[it->second];
        if (!e.unsupported.empty()) {
            result.errors.push_back({slot.path, "cannot load: " + e.unsupported});
        } else if (e.shape != slot.shape && (opts_.validate || e.shape.rank() != slot.shape.rank())) {
            result.errors.push_back(
                {slot.path, burn::detail::msg("shape mismatch: the module expects ", slot.shape,
                                              ", the file has ", describe(e),
                                              e.shape.rank() == slot.shape.rank()
                                                  ? " (validate(false) on the store applies the file's shape)"
                                                  : "")});
        } else if (e.dtype != slot.dtype &&
                   (opts_.dtype_policy == DTypePolicy::strict ||
                    (opts_.dtype_policy == DTypePolicy::cast_same_kind && !same_kind(e.dtype, slot.dtype)))) {
            result.errors.push_back(
                {slot.path,
                 burn::detail::msg("dtype mismatch: the module expects ", slot.dtype, ", the file has ",
                                   e.dtype, " (dtype_policy(DTypePolicy::cast_any) converts)")});
        } else {
            matches.emplace_back(i, it->second);
            result.applied.push_back(slot.path);
        }
    }
    for (std::size_t j = 0; j < source.size(); ++j)
        if (!used[j]) result.unused.push_back(source[j].name);

    // A load that would apply nothing from a file that has tensors is almost always a wrong file, a
    // wrong filter or a module the walk cannot see into: an error unless asked for.
    if (result.applied.empty() && file_tensors > 0 && !opts_.allow_empty && result.errors.empty())
        result.errors.push_back(
            {"", burn::detail::msg("nothing would be applied although the file has ", file_tensors,
                                   " tensors (check the file, the filters and the key remapping; "
                                   "allow_empty(true) on the store accepts such a load)")});

    std::vector<LoadedTensor> values;
    bool load_ok = result.errors.empty() && (opts_.allow_partial || result.missing.empty());
    if (!load_ok) return {std::move(result), std::move(values)};
    for (auto [i, j] : matches) {
        const TensorSlot& slot = slots[i];
        TensorData d;
        try {
            d = source[j].read();
            BURN_CHECK(d.shape() == source[j].shape && d.dtype() == source[j].dtype, "the data reads as ",
                       d.dtype(), " ", d.shape(), " instead of ", describe(source[j]));
        } catch (const Error& e) {
            result.errors.push_back({slot.path, std::string("cannot read the tensor: ") + e.what()});
            continue;
        }
        try {
            // Never silently: a value the module's dtype cannot hold fails the whole load.
            if (d.dtype() != slot.dtype) d = detail::convert_checked(d, slot.dtype, slot.path);
            values.push_back({i, ops::from_data(d, slot.device), source[j].param_id});
        } catch (const Error& e) {
            result.errors.push_back({slot.path, e.what()});
        }
    }
    if (!result.errors.empty()) {
        values.clear();
        std::vector<std::string> failed;
        for (const auto& e : result.errors) failed.push_back(e.path);
        std::erase_if(result.applied, [&](const std::string& p) {
            return std::find(failed.begin(), failed.end(), p) != failed.end();
        });
    }
    return {std::move(result), std::move(values)};
}

void StoreBase::save(const std::vector<TensorSnapshot>& snapshots) {
    std::vector<TensorEntry> entries;
    for (const auto& s : snapshots) {
        if (!opts_.filter.accepts(s.path) || !s.tensor.defined()) continue;
        TensorEntry e;
        e.name = s.path;
        e.dtype = s.tensor.dtype();
        e.shape = s.tensor.shape();
        e.param_id = s.param_id;
        e.read = [t = s.tensor] { return ops::into_data(t); };
        if (opts_.burn_linear_layout && e.shape.rank() == 2 && is_linear_weight(s.module_type, s.path))
            e = transposed(std::move(e));
        if (opts_.burn_linear_layout) {  // Rust burn's LSTM/GRU: one Linear per gate
            for (auto& part : split_gate_linears(std::move(e), s.module_type))
                entries.push_back(std::move(part));
            continue;
        }
        entries.push_back(std::move(e));
    }
    if (opts_.save_adapter) entries = opts_.save_adapter->adapt_save(std::move(entries));
    std::set<std::string> names;
    for (auto& e : entries) {
        e.name = opts_.remapper.apply(e.name);
        BURN_CHECK(names.insert(e.name).second, "[", store_name(), "] two tensors would be saved as '",
                   e.name, "' (check the key remapping)");
    }
    write_entries(std::move(entries));
}

}  // namespace burn::store
