#pragma once
/// Adapters translate between a file's layout and the module's: names (PyTorch's norm weight/bias
/// versus gamma/beta), fused tensors (LSTM/GRU gates, attention in_proj) and bookkeeping tensors
/// (num_batches_tracked). A load-side adapter sees the module's paths and only rewrites an entry when
/// the rewritten name exists in the module, so it never disturbs files that already match.
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "burn/store/module_store.hpp"
#include "burn/store/tensor_entry.hpp"

namespace burn::store {

class Adapter {
public:
    virtual ~Adapter() = default;
    virtual const char* name() const = 0;
    /// Load direction: rewrites the file's entries toward module_paths. Entries dropped on purpose go
    /// to report.skipped; entries that cannot be adapted go to report.errors.
    virtual std::vector<TensorEntry> adapt_load(std::vector<TensorEntry> entries,
                                                const std::set<std::string>& module_paths,
                                                ApplyResult& report) const;
    /// Save direction: rewrites the module's entries into the file's layout.
    virtual std::vector<TensorEntry> adapt_save(std::vector<TensorEntry> entries) const;
};

/// Changes nothing.
class IdentityAdapter : public Adapter {
public:
    const char* name() const override { return "identity"; }
};

/// PyTorch state dicts into this project's modules, with no configuration:
/// - Linear: PyTorch's [out, in] weight is this project's layout; nothing to do.
/// - BatchNorm/LayerNorm/GroupNorm: `weight`/`bias` become `gamma`/`beta`; `num_batches_tracked` is
///   skipped when the module has no such buffer. Running statistics load by name.
/// - LSTM: `weight_ih_l{k}`, `weight_hh_l{k}`, `bias_ih_l{k}`, `bias_hh_l{k}` (gate order i, f, g, o)
///   split into `{input,forget,cell,output}_gate.{input,hidden}_transform.{weight,bias}`; GRU (order
///   r, z, n) into `{reset,update,new}_gate...`. Layer k > 0 goes to `layers.k.`, `_reverse` to
///   `reverse.`, layer 0 also to `layers.0.` and `forward.` when those are the module's paths.
/// - MultiheadAttention: `in_proj_weight`/`in_proj_bias` split into `query`, `key`, `value`;
///   `out_proj` becomes `output`.
class PytorchAdapter : public Adapter {
public:
    const char* name() const override { return "pytorch"; }
    std::vector<TensorEntry> adapt_load(std::vector<TensorEntry> entries, const std::set<std::string>& module_paths,
                                        ApplyResult& report) const override;
    /// Saving with this adapter writes PyTorch's names (see BurnToPytorchAdapter).
    std::vector<TensorEntry> adapt_save(std::vector<TensorEntry> entries) const override;
};

/// This project's modules into PyTorch's state-dict layout (for SafeTensors files that PyTorch's
/// load_state_dict accepts): gamma/beta become weight/bias, BatchNorm gains num_batches_tracked (0),
/// LSTM/GRU gates and attention query/key/value are concatenated into PyTorch's fused tensors, and
/// attention `output` becomes `out_proj`.
class BurnToPytorchAdapter : public Adapter {
public:
    const char* name() const override { return "burn-to-pytorch"; }
    std::vector<TensorEntry> adapt_save(std::vector<TensorEntry> entries) const override;
};

/// Runs adapters in order (load and save alike).
class ChainAdapter : public Adapter {
public:
    explicit ChainAdapter(std::vector<std::shared_ptr<const Adapter>> adapters) : adapters_(std::move(adapters)) {}
    const char* name() const override { return "chain"; }
    std::vector<TensorEntry> adapt_load(std::vector<TensorEntry> entries, const std::set<std::string>& module_paths,
                                        ApplyResult& report) const override;
    std::vector<TensorEntry> adapt_save(std::vector<TensorEntry> entries) const override;

private:
    std::vector<std::shared_ptr<const Adapter>> adapters_;
};

}  // namespace burn::store
