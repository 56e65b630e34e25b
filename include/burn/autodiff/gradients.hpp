#pragma once
/// Gradients returned by backward(), and the thread-local no-grad guard.
#include <cstdint>
#include <optional>
#include <unordered_map>

#include "burn/tensor/tensor_any.hpp"

namespace burn {

/// Gradients of a backward pass, keyed by the leaf tensors that required them. Look them up with
/// x.grad(gradients); they live on the inner (non-autodiff) device.
class Gradients {
  public:
    std::optional<TensorAny> get(uint64_t id) const;
    void set(uint64_t id, TensorAny grad);
    std::optional<TensorAny> remove(uint64_t id);
    std::size_t size() const { return grads_.size(); }
    bool empty() const { return grads_.empty(); }
    /// Every (leaf id, gradient) pair.
    const std::unordered_map<uint64_t, TensorAny>& items() const { return grads_; }

  private:
    std::unordered_map<uint64_t, TensorAny> grads_;
};

/// While alive, ops on this thread record no graph (inference inside a training program).
class NoGrad {
  public:
    NoGrad();
    ~NoGrad();
    NoGrad(const NoGrad&) = delete;
    NoGrad& operator=(const NoGrad&) = delete;

  private:
    bool previous_;
};

/// Whether ops on this thread record a graph (false inside a NoGrad scope).
bool grad_enabled();

/// Anomaly detection: when on, every forward and backward result on an autodiff device is checked
/// for NaN/Inf and the first op producing one throws, naming it. Also on with BURN_DETECT_ANOMALY=1.
void set_detect_anomaly(bool on);
bool detect_anomaly();

}  // namespace burn
