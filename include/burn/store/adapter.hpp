#pragma once
/// Adapters translate between a file's layout and the module's: names (PyTorch's norm weight/bias
/// versus gamma/beta), fused tensors (LSTM/GRU gates, attention in_proj) and bookkeeping tensors
/// (num_batches_tracked). A load-side adapter sees the module's paths and only rewrites an entry when
/// the rewritten name exists in the module, so it never disturbs files that already match.
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "burn/core/dtype.hpp"
#include "burn/store/key_remapper.hpp"
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
/// - Linear, Conv, Embedding: PyTorch's layouts are this project's; nothing to do.
/// - BatchNorm/LayerNorm/GroupNorm: `weight`/`bias` become `gamma`/`beta`; `num_batches_tracked` is
///   skipped when the module has no such buffer. Running statistics load by name.
/// - LSTM/GRU: `weight_ih_l0` becomes `weight_ih` (this project's fused layers, nn/rnn.hpp);
///   `_reverse` goes to `reverse_lstm.` and layer 0 also to `forward_lstm.` (BiLstm), layer k > 0 to
///   `layers.k.`. Modules with one Linear per gate (burn's layout) get the fused tensors split:
///   `{input,forget,cell,output}_gate.{input,hidden}_transform.{weight,bias}` (order i, f, g, o) or
///   `{reset,update,new}_gate...` (order r, z, n).
/// - MultiheadAttention: `in_proj_weight`/`in_proj_bias` split into `query`, `key`, `value`;
///   `out_proj` becomes `output`.
/// - TransformerEncoder/DecoderLayer: `self_attn` -> `mha` (encoder), `multihead_attn` -> `cross_attn`,
///   `linear1`/`linear2` -> `pwff.linear_inner`/`pwff.linear_outer`, `norm1` -> `norm_1`, ...
/// Every rewrite is used only when its result is one of the module's paths.
class PytorchAdapter : public Adapter {
  public:
    const char* name() const override { return "pytorch"; }
    std::vector<TensorEntry> adapt_load(std::vector<TensorEntry> entries,
                                        const std::set<std::string>& module_paths,
                                        ApplyResult& report) const override;
    /// Saving with this adapter writes PyTorch's names (see BurnToPytorchAdapter).
    std::vector<TensorEntry> adapt_save(std::vector<TensorEntry> entries) const override;
};

/// This project's modules into PyTorch's state-dict layout (for SafeTensors files that PyTorch's
/// load_state_dict accepts): the reverse of PytorchAdapter. gamma/beta become weight/bias, BatchNorm
/// gains num_batches_tracked (0), recurrent tensors get PyTorch's `_l0` / `_l0_reverse` names (per-gate
/// Linears are concatenated), attention query/key/value become in_proj_weight/in_proj_bias and
/// `output` becomes `out_proj`, and transformer layers get PyTorch's submodule names.
class BurnToPytorchAdapter : public Adapter {
  public:
    const char* name() const override { return "burn-to-pytorch"; }
    std::vector<TensorEntry> adapt_save(std::vector<TensorEntry> entries) const override;
};

/// Half-precision files (burn's HalfPrecisionAdapter): saves write float32 tensors as `half` (f16 by
/// default, or bf16), half the bytes; loads read `half` tensors back as float32, so a float32 module
/// loads them under every dtype policy, DTypePolicy::strict included. Only the paths the filter accepts
/// are converted (an empty filter: every float32 tensor). Values never change silently: a float32 value
/// beyond f16's range (65504) fails the save with the tensor's name, the element and the value;
/// rounding to the nearest half value is the point.
class HalfPrecisionAdapter : public Adapter {
  public:
    explicit HalfPrecisionAdapter(DType half = DType::f16, PathFilter filter = {});
    const char* name() const override { return "half-precision"; }
    std::vector<TensorEntry> adapt_load(std::vector<TensorEntry> entries,
                                        const std::set<std::string>& module_paths,
                                        ApplyResult& report) const override;
    std::vector<TensorEntry> adapt_save(std::vector<TensorEntry> entries) const override;

  private:
    DType half_;
    PathFilter filter_;
};

/// Float tensors cast to one float dtype (burn's FloatCastAdapter), on save and on load: every float
/// entry the filter accepts (an empty filter: all) whose dtype differs becomes `to`. Integer and bool
/// tensors are left alone. Saving a float32 model as float64 or bfloat16, or loading an f16 file into
/// a float32 model under DTypePolicy::strict, are what it is for. Casts are checked as the dtype
/// policy's are: a finite value that overflows `to` fails with the tensor's name and the element.
class FloatCastAdapter : public Adapter {
  public:
    explicit FloatCastAdapter(DType to, PathFilter filter = {});
    const char* name() const override { return "float-cast"; }
    std::vector<TensorEntry> adapt_load(std::vector<TensorEntry> entries,
                                        const std::set<std::string>& module_paths,
                                        ApplyResult& report) const override;
    std::vector<TensorEntry> adapt_save(std::vector<TensorEntry> entries) const override;

  private:
    DType to_;
    PathFilter filter_;
};

/// Runs adapters in order (load and save alike).
class ChainAdapter : public Adapter {
  public:
    explicit ChainAdapter(std::vector<std::shared_ptr<const Adapter>> adapters)
        : adapters_(std::move(adapters)) {}
    const char* name() const override { return "chain"; }
    std::vector<TensorEntry> adapt_load(std::vector<TensorEntry> entries,
                                        const std::set<std::string>& module_paths,
                                        ApplyResult& report) const override;
    std::vector<TensorEntry> adapt_save(std::vector<TensorEntry> entries) const override;

  private:
    std::vector<std::shared_ptr<const Adapter>> adapters_;
};

}  // namespace burn::store
