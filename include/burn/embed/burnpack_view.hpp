#pragma once
/// Burnpack bytes already in memory, read without copying: the weights that `burn-embed model.bpk`
/// puts in flash as a const array (docs/embedded.md). Parsing validates the whole pack (magic, version,
/// header length, each tensor's dtype, shape, byte range and alignment) and reports anything malformed
/// through burn's errors (the error handler without exceptions); tensors are then views of the pack's
/// own bytes (ops::from_external): read-only, never copied into RAM. Part of burn_core (no files).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "burn/tensor/ops.hpp"
#include "burn/tensor/tensor.hpp"

namespace burn::embed {

class BurnpackView {
  public:
    struct Entry {
        std::string name;
        DType dtype = DType::f32;
        Dims shape;
        const uint8_t* data = nullptr;  // inside the pack
        std::size_t bytes = 0;
    };

    /// Parses the `size` bytes at `data` (kept, not copied: they must outlive the view and its
    /// tensors). `what` names the pack in errors ("model_weights").
    BurnpackView(const void* data, std::size_t size, std::string_view what = "burnpack");

    const std::vector<Entry>& entries() const { return entries_; }
    /// The entry of that name, or nullptr.
    const Entry* find(std::string_view name) const;
    /// The named tensor as a read-only CPU tensor over the pack's bytes; an error when it is missing.
    TensorAny tensor(std::string_view name) const;
    /// The same, checked to be a Tensor<D, K> of the given shape (an empty shape: any shape of rank D).
    template <int D, class K = Float>
    Tensor<D, K> get(std::string_view name, const Dims& shape = Dims()) const {
        TensorAny t = tensor(name);
        check_shape_of(name, t, D, shape);
        return Tensor<D, K>(std::move(t));
    }

  private:
    void check_shape_of(std::string_view name, const TensorAny& t, int rank, const Dims& shape) const;
    std::string what_;
    std::vector<Entry> entries_;
};

}  // namespace burn::embed
