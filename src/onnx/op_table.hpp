#pragma once
// The ONNX op table: one entry per (domain, op type), shared by the runtime and the code generator.
// An entry's function reads its node through an OpContext (inputs, typed attributes with ONNX's
// defaults, host reads of shape tensors) and returns the node's outputs, computed with the burn::ops
// frontend, so every op runs on every device and differentiates on an autodiff device. Adding an op
// is one entry in the ops_*.cpp file of its family.
#include <string>
#include <vector>

#include "burn/tensor/ops.hpp"
#include "onnx/graph.hpp"

namespace burn::onnx::detail {

/// Runs a node's subgraphs (If's branches, Loop's and Scan's bodies): given by the runtime.
class SubgraphRunner {
  public:
    virtual ~SubgraphRunner() = default;
    /// Runs the graph in attribute attr with the graph's inputs; returns its outputs in order.
    virtual std::vector<TensorAny> run(const std::string& attr, std::vector<TensorAny> inputs) const = 0;
};

class OpContext {
  public:
    OpContext(const Node& node, int64_t opset, const Device& device, const std::vector<TensorAny>& inputs,
              const SubgraphRunner* subgraphs = nullptr)
        : node_(node), opset_(opset), device_(device), in_(inputs), subgraphs_(subgraphs) {}

    const Node& node() const { return node_; }
    int64_t opset() const { return opset_; }
    const Device& device() const { return device_; }

    // ---- inputs ("" in the node, or beyond its list: omitted)
    std::size_t num_inputs() const { return in_.size(); }
    bool has(std::size_t i) const { return i < in_.size() && in_[i].defined(); }
    /// Input i; throws naming the node when it is omitted.
    const TensorAny& in(std::size_t i) const;
    /// Input i as host integers (a shape tensor, axes, pads: small int tensors).
    std::vector<int64_t> ints_of(std::size_t i) const;
    /// Input i as host doubles (a scalar parameter such as Clip's min).
    std::vector<double> doubles_of(std::size_t i) const;

    // ---- attributes, with the op's default when absent
    bool has_attr(const std::string& name) const;
    int64_t attr_int(const std::string& name, int64_t def) const;
    int64_t attr_int(const std::string& name) const;  // required
    double attr_float(const std::string& name, double def) const;
    std::string attr_string(const std::string& name, const std::string& def) const;
    std::vector<int64_t> attr_ints(const std::string& name, const std::vector<int64_t>& def = {}) const;
    std::vector<double> attr_floats(const std::string& name, const std::vector<double>& def = {}) const;
    const TensorData& attr_tensor(const std::string& name) const;
    const Graph& attr_graph(const std::string& name) const;
    /// Runs the subgraph in graph attribute attr (it reads outer values by name, as ONNX scopes them).
    std::vector<TensorAny> run_graph(const std::string& attr, std::vector<TensorAny> inputs) const;

    /// axis in [-rank, rank) normalised to [0, rank); throws naming the node otherwise.
    int64_t axis(int64_t axis, int64_t rank) const;
    /// A host constant on the model's device.
    TensorAny constant(const TensorData& data) const;

    /// Throws burn::Error "[onnx] node 'name' (Op): <parts>".
    template <class... Parts>
    [[noreturn]] void fail(const Parts&... parts) const {
        throw_node_error(::burn::detail::msg(parts...));
    }
    template <class... Parts>
    void check(bool ok, const Parts&... parts) const {
        if (!ok) fail(parts...);
    }

  private:
    [[noreturn]] void throw_node_error(const std::string& message) const;
    const Attribute* find(const std::string& name, Attribute::Kind kind) const;

    const Node& node_;
    int64_t opset_;
    const Device& device_;
    const std::vector<TensorAny>& in_;
    const SubgraphRunner* subgraphs_;
};

using OpFn = std::vector<TensorAny> (*)(const OpContext&);

/// What an emitter (below) sees of a node when `burn-onnx generate` writes code for it.
struct EmitContext {
    const OpContext& op;                  // the node's attributes, with the op's defaults (no inputs)
    std::vector<std::string> in;          // C++ expressions (burn::TensorAny) of the inputs; "" = omitted
    std::vector<const TensorAny*> known;  // input i's value when it is a constant, else nullptr
};
/// Writes a direct burn call (a C++ expression of type burn::TensorAny) computing the node's single
/// output exactly as the entry's run does, or returns "" to leave the node to burn::onnx::call.
using EmitFn = std::string (*)(const EmitContext&);

struct OpEntry {
    std::string domain;   // "" for ai.onnx
    std::string op_type;  // "Conv"
    int since = 1;        // the oldest opset whose semantics the function implements
    OpFn run = nullptr;
    EmitFn emit = nullptr;  // optional: generated code calls burn directly (codegen_emit.cpp)
};

class OpTable {
  public:
    void add(std::string op_type, int since, OpFn run, std::string domain = "");
    /// Gives the (existing) entry of op_type an emitter for generated code.
    void set_emitter(const std::string& op_type, EmitFn emit, const std::string& domain = "");
    /// The entry for op_type in domain, or nullptr.
    const OpEntry* find(const std::string& domain, const std::string& op_type) const;
    std::vector<std::string> names(const std::string& domain = "") const;

  private:
    std::vector<OpEntry> entries_;
};

/// The table of every op this build runs.
const OpTable& op_table();

// Each family adds its entries (ops_*.cpp).
void add_elementwise_ops(OpTable& t);
void add_math_ops(OpTable& t);
void add_nn_ops(OpTable& t);
void add_shape_ops(OpTable& t);
void add_reduce_ops(OpTable& t);
void add_loss_ops(OpTable& t);
void add_resize_ops(OpTable& t);
void add_index_ops(OpTable& t);
void add_rnn_ops(OpTable& t);
void add_quant_ops(OpTable& t);
void add_signal_ops(OpTable& t);
void add_training_ops(OpTable& t);
void add_vision_ops(OpTable& t);
void add_norm_ops(OpTable& t);
void add_reorder_ops(OpTable& t);
void add_random_ops(OpTable& t);
void add_control_ops(OpTable& t);
void add_fused_ops(OpTable& t);  // com.microsoft FusedConv (ops_fused.cpp)
// Direct-call emitters for the code generator (codegen_emit.cpp).
void add_emitters(OpTable& t);

}  // namespace burn::onnx::detail
