#pragma once
// The autodiff decorator's data: tensors wrapping an inner tensor and the graph node that made it.
#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "burn/autodiff/custom_op.hpp"
#include "burn/backend/backend.hpp"
#include "burn/tensor/tensor_any.hpp"

namespace burn::autodiff {

struct Node;
using NodeRef = std::shared_ptr<Node>;

/// One recorded op (or a leaf that requires grad).
struct Node {
    Node();
    ~Node();  // releases parent chains iteratively: long graphs must not overflow the stack
    Node(const Node&) = delete;
    Node& operator=(const Node&) = delete;

    uint64_t id;
    bool leaf = false;
    bool freed = false;  // backward() ran through it and released what it saved
    OpCall call;         // the forward op (unused for leaves and custom ops)
    const CustomOp* custom = nullptr;
    std::shared_ptr<CustomOp> custom_owned;
    std::vector<TensorAny> inputs;   // saved inner inputs
    std::vector<TensorAny> outputs;  // saved inner outputs
    std::vector<NodeRef> parents;    // per input; null when that input needs no gradient
    std::vector<int> parent_output;  // which output of the parent fed the input

    std::string op_name() const;
};

/// An autodiff device's tensor: the inner tensor plus where it came from.
struct AdTensor final : TensorImpl {
    AdTensor(TensorRef inner_, const Device& device_, NodeRef node_, int output_, const char* blocked_by_)
        : TensorImpl(inner_->shape, inner_->dtype, device_),
          inner(std::move(inner_)),
          node(std::move(node_)),
          output(output_),
          blocked_by(blocked_by_) {}
    TensorRef inner;
    NodeRef node;                      // null: not tracked
    int output = 0;                    // which output of node this is
    const char* blocked_by = nullptr;  // the non-differentiable op that cut tracking, for messages
};

const AdTensor* as_ad(const TensorImpl& t);

/// The decorator over one inner device.
class AutodiffBackend final : public Backend {
  public:
    explicit AutodiffBackend(const Device& inner);
    std::string_view name() const override { return "autodiff"; }
    TensorRef from_host(const TensorData& data, const Device& device) override;
    TensorData to_host(const TensorRef& tensor) override;
    bool supports(const OpCall& call, const TensorRefs& inputs) const override;
    TensorRefs execute(const OpCall& call, TensorRefs inputs) override;
    void sync() override { inner_.backend().sync(); }
    TensorRef unwrap(const TensorRef& t) const override;
    TensorRef wrap(TensorRef inner, const Device& device) override;

    const Device& device() const { return device_; }

  private:
    Device inner_;
    Device device_;
};

/// The decorator's backend for an autodiff device (its outermost decorator is autodiff).
AutodiffBackend& backend_for(const Device& device);

/// Gradient rules: input grads from (call, inputs, outputs, output grads), written with frontend ops.
struct VjpContext {
    const OpCall& call;
    const std::vector<TensorAny>& x;
    const std::vector<TensorAny>& y;
    const std::vector<TensorAny>& g;
    const std::vector<bool>& needs;
    /// Per input, a wider float dtype its gradient may be given in (null: none). backward() offers it
    /// where the input is the only use of a cast from that dtype (autocast's casts of float32
    /// activations and weights to bf16/f16): a rule whose products can write it directly (matmul_widen)
    /// then skips the cast back and the rounding through the low dtype; the cast's own rule passes a
    /// gradient of its source dtype through. Rules that ignore it stay correct.
    const std::vector<DType>* widen = nullptr;
    /// The dtype to give input i's gradient in: widen's where offered, else the input's own.
    DType grad_dtype(std::size_t i) const { return widen && i < widen->size() ? (*widen)[i] : x[i].dtype(); }
};
using VjpRule = std::vector<TensorAny> (*)(const VjpContext& ctx);

/// The rule of op, or null when it is not differentiable.
VjpRule vjp_rule(OpId op);
bool is_differentiable(OpId op);

/// Throws when t (an output of op) holds NaN or Inf and anomaly detection is on.
void check_anomaly(const TensorAny& t, const std::string& what);

}  // namespace burn::autodiff
