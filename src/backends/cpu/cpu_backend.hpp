#pragma once
#include "backends/cpu/kernels.hpp"

namespace burn::cpu {

/// The always-built CPU backend: eager, multi-threaded, strided views without copies.
class CpuBackend final : public Backend {
  public:
    static CpuBackend& instance();
    std::string_view name() const override { return "cpu"; }
    TensorRef from_host(const TensorData& data, const Device& device) override;
    TensorData to_host(const TensorRef& tensor) override;
    bool supports(const OpCall& call, const TensorRefs& inputs) const override;
    TensorRefs execute(const OpCall& call, TensorRefs inputs) override;
    void sync() override {}
    /// Frees the allocator's cached blocks (empty_cache).
    void memory_cleanup(const Device& device) override;
    /// The dtypes this build has kernels for (BURN_CPU_DTYPES).
    bool supports_dtype(const Device& device, DType dtype) const override;
    /// The caching allocator's bytes (live tensors, and live plus cached).
    DeviceStats stats(const Device& device) override;
    /// Whether the op has a kernel (for the coverage test).
    bool has_kernel(OpId op) const { return table_[static_cast<std::size_t>(op)] != nullptr; }

  private:
    CpuBackend();
    KernelTable table_;
};

}  // namespace burn::cpu
