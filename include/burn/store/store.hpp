#pragma once
/// The machinery shared by every store: options (filters, key remapping, adapters, partial loads,
/// dtype policy, limits) and the load/save pipeline that produces an ApplyResult.
///
/// Load: read the file's entries -> rename with the KeyRemapper -> load adapter -> match module paths.
/// A path the filter rejects is `skipped`; a path with no entry is `missing`; an entry matching no
/// path is `unused`; shape and dtype disagreements and unreadable tensors are `errors`. Tensors are
/// read only when the match is clean, and the module applies nothing unless the load succeeded.
/// Save: the module's snapshots -> filter -> save adapter -> rename -> the format's writer.
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "burn/store/adapter.hpp"
#include "burn/store/key_remapper.hpp"
#include "burn/store/module_store.hpp"
#include "burn/store/record.hpp"
#include "burn/store/tensor_entry.hpp"

namespace burn::store {

/// What a load does when the file's dtype differs from the module's. Every conversion is checked: a
/// value the module's dtype cannot hold (out of an integer's range, a finite float that becomes inf,
/// a non-integral float into an int, anything but 0/1 into bool) fails the load, naming the tensor and
/// the element. Rounding to the nearest representable value (f64 -> f32 -> f16, i64 -> f32) is accepted.
enum class DTypePolicy {
    cast_same_kind,  // float <-> float and int <-> int convert to the module's dtype (the default)
    cast_any,        // any conversion; a value that changes (a non-integral float into an int) is an error
    strict,          // any difference is an error
};

struct StoreOptions {
    PathFilter filter;
    KeyRemapper remapper;
    std::shared_ptr<const Adapter> load_adapter;  // null: no adaptation
    std::shared_ptr<const Adapter> save_adapter;
    bool allow_partial = false;
    bool allow_empty = false;  // a load that applies no tensor of a non-empty file is an error otherwise
    bool mmap = false;         // read through a memory map (the file must not change while it is read)
    DTypePolicy dtype_policy = DTypePolicy::cast_same_kind;
    Limits limits;
    /// The file keeps Linear weights as Rust burn does, [d_input, d_output] (this project and PyTorch
    /// keep [d_output, d_input]): loads and saves transpose them. BurnpackStore turns it on by itself
    /// for files Rust burn wrote.
    bool burn_linear_layout = false;
    /// Loads renumber index segments so they run 0, 1, 2, ... under each parent (map_indices_contiguous,
    /// after the key remapping): a PyTorch nn.Sequential's fc.0, fc.2, fc.4 load into a list of three.
    bool map_indices_contiguous = false;
    /// Shape validation (burn's validate). Off: a file tensor whose shape differs from the module's (of
    /// the same rank) is applied with the file's shape, e.g. an embedding whose vocabulary grew. Names,
    /// ranks and dtypes are still checked.
    bool validate = true;
};

class StoreBase : public ModuleStore {
  public:
    void save(const std::vector<TensorSnapshot>& snapshots) override;
    std::pair<ApplyResult, std::vector<LoadedTensor>> load(const std::vector<TensorSlot>& slots) override;
    bool partial_allowed() const override { return opts_.allow_partial; }

    /// The names of the tensors in the source, after key remapping (before adapters, which need the
    /// module's paths).
    std::vector<std::string> keys();
    /// The source's tensors as host data, after key remapping; for tools and tests.
    std::vector<TensorEntry> entries();
    const StoreOptions& options() const { return opts_; }

  protected:
    StoreBase() = default;
    /// The source's tensors (names as in the file). Throws burn::Error when the source is unreadable.
    virtual std::vector<TensorEntry> read_entries() = 0;
    /// Writes entries (already filtered, adapted and renamed). Must leave no partial file behind.
    virtual void write_entries(std::vector<TensorEntry> entries) = 0;
    /// The op name used in error messages ("BurnpackStore").
    virtual const char* store_name() const = 0;
    /// Whether the source says its Linear weights are Rust burn's [d_input, d_output] (a Burnpack file
    /// Rust burn wrote); loads then transpose them without burn_linear_layout(true).
    virtual bool file_has_burn_linear_layout() { return false; }

    StoreOptions opts_;
};

/// Builder methods shared by the stores; each returns the store itself for chaining.
template <class Derived>
class StoreBuilder : public StoreBase {
  public:
    /// Accept loads where some module tensors have nothing in the file (they keep their values).
    Derived& allow_partial(bool on = true) {
        opts_.allow_partial = on;
        return self();
    }
    /// Accept a load that applies no tensor at all although the file has tensors (by default that is
    /// an error: a wrong file, a filter that matches nothing, a module whose tensors the walk misses).
    Derived& allow_empty(bool on = true) {
        opts_.allow_empty = on;
        return self();
    }
    /// Read the file through a memory map instead of ordinary reads. Only for files nothing
    /// truncates or rewrites while the store reads them: a file that shrinks under a map kills the
    /// process with SIGBUS. The default (false) reads with read calls and reports a file that
    /// changed size as a burn::Error.
    Derived& mmap(bool on = true) {
        opts_.mmap = on;
        return self();
    }
    /// Only paths matching this regex (or another filter) are loaded or saved.
    Derived& with_regex(const std::string& pattern) {
        opts_.filter.with_regex(pattern);
        return self();
    }
    Derived& with_full_path(std::string path) {
        opts_.filter.with_full_path(std::move(path));
        return self();
    }
    Derived& with_predicate(std::function<bool(const std::string&)> pred) {
        opts_.filter.with_predicate(std::move(pred));
        return self();
    }
    Derived& with_filter(PathFilter filter) {
        opts_.filter = std::move(filter);
        return self();
    }
    /// Renames file names (on load) and module paths (on save): regex with $1 replacements.
    Derived& with_key_remapping(const std::string& pattern, std::string replacement) {
        opts_.remapper.add_pattern(pattern, std::move(replacement));
        return self();
    }
    Derived& remap(KeyRemapper remapper) {
        opts_.remapper = std::move(remapper);
        return self();
    }
    Derived& with_load_adapter(std::shared_ptr<const Adapter> adapter) {
        opts_.load_adapter = std::move(adapter);
        return self();
    }
    Derived& with_save_adapter(std::shared_ptr<const Adapter> adapter) {
        opts_.save_adapter = std::move(adapter);
        return self();
    }
    /// Linear weights in the file are Rust burn's [d_input, d_output] (transposed on load and save).
    Derived& burn_linear_layout(bool on = true) {
        opts_.burn_linear_layout = on;
        return self();
    }
    /// On load, renumber the index segments of the file's names so that they run 0, 1, 2, ... under
    /// each parent (burn's map_indices_contiguous; off by default, see docs/store.md).
    Derived& map_indices_contiguous(bool on = true) {
        opts_.map_indices_contiguous = on;
        return self();
    }
    /// Off: shape mismatches of the same rank load the file's tensor as it is (see StoreOptions::validate).
    Derived& validate(bool on = true) {
        opts_.validate = on;
        return self();
    }
    Derived& dtype_policy(DTypePolicy policy) {
        opts_.dtype_policy = policy;
        return self();
    }
    Derived& limits(Limits limits) {
        opts_.limits = limits;
        return self();
    }

  private:
    Derived& self() { return static_cast<Derived&>(*this); }
};

}  // namespace burn::store
