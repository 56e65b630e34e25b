#pragma once
// The graph writer of ONNX export: names values, writes nodes and initializers (protobuf), and gives
// the row mappings (export_rows_*.cpp) what they read of the recorded call being written.
#include <onnx/onnx_pb.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "burn/tensor/data.hpp"
#include "onnx/export/trace_backend.hpp"

namespace burn::onnx::exporter {

/// One ONNX attribute: an int, a float, ints or a string (kind picks the field that is set).
struct Attr {
    enum class Kind { i, f, ints, s } kind = Kind::i;
    std::string name;
    int64_t i = 0;
    float f = 0;
    std::vector<int64_t> ints{};
    std::string s{};
};
inline Attr attr_i(std::string name, int64_t v) {
    return Attr{Attr::Kind::i, std::move(name), v};
}
inline Attr attr_f(std::string name, double v) {
    return Attr{Attr::Kind::f, std::move(name), 0, static_cast<float>(v)};
}
inline Attr attr_ints(std::string name, std::vector<int64_t> v) {
    return Attr{Attr::Kind::ints, std::move(name), 0, 0, std::move(v)};
}
inline Attr attr_s(std::string name, std::string v) {
    return Attr{Attr::Kind::s, std::move(name), 0, 0, {}, std::move(v)};
}

inline std::vector<int64_t> vec(const Dims& d) {
    return std::vector<int64_t>(d.begin(), d.end());
}

/// ONNX's element type of a burn dtype.
int onnx_elem_type(DType dtype);

class Emitter {
  public:
    Emitter(const Recording& rec, bool dynamic_batch);

    // ---- the graph's values
    /// Names value id: a graph input or output name, a parameter's path, or "v<id>". A value no call
    /// produced becomes an initializer (its data read back from the device) the first time it is named.
    std::string name(int64_t id);
    void set_name(int64_t id, std::string name);
    void mark_input(int64_t id);
    /// The dim of value id that carries the batch (-1 when none, or when the batch is not dynamic).
    int batch_dim(int64_t id) const;
    void set_batch_dim(int64_t id, int dim);
    bool dynamic() const { return dynamic_; }

    // ---- the call being written (set by begin())
    void begin(const TracedNode& node);
    const OpCall& call() const { return node_->call; }
    std::size_t num_inputs() const { return node_->in.size(); }
    std::string in(std::size_t i) { return name(node_->in[i]); }
    const TensorMeta& in_meta(std::size_t i) const;
    int in_batch(std::size_t i) const { return batch_dim(node_->in[i]); }
    std::string out(std::size_t i) { return name(node_->out[i]); }
    TensorMeta out_meta(std::size_t i) const { return node_->call.output(i); }
    /// Whether output i is read by a later node or is a graph output.
    bool out_used(std::size_t i) const;
    /// Every input's name; for the broadcasting ops (Add, Where, ...), an input made by expand is
    /// replaced by the tensor it expands when ONNX's broadcasting gives the same output shape.
    std::vector<std::string> broadcast_inputs();
    /// MatMul's two inputs, skipping an expand that only broadcast batch dims.
    std::vector<std::string> matmul_inputs();
    /// Throws burn::Error: export lacks this call (the row, the inputs and why).
    [[noreturn]] void lacks(const std::string& why) const;

    // ---- writing
    /// A node of op_type; outputs "" get fresh names. Returns the first output's name.
    std::string op(const std::string& op_type, const std::vector<std::string>& inputs,
                   std::vector<std::string> outputs, const std::vector<Attr>& attrs = {});
    /// One output: `out` (a fresh name when "").
    std::string op1(const std::string& op_type, const std::vector<std::string>& inputs,
                    const std::string& out = "", const std::vector<Attr>& attrs = {});
    std::string fresh();
    /// Initializers: an int64 vector (1-D) or scalar (rank 0), a scalar of dtype, any data.
    std::string const_i64(const std::vector<int64_t>& v, bool scalar = false);
    std::string const_scalar(double v, DType dtype);
    std::string const_data(const TensorData& data, const std::string& name = "");

    /// Writes the nodes that the outputs need (and their initializers) into graph.
    void finish(::onnx::GraphProto& graph, const std::vector<std::string>& outputs);

    const Recording& recording() const { return rec_; }
    /// Ids named so far, and ids that a live node (one the outputs need) or a graph output reads.
    std::set<int64_t> used, live;
    /// For the reshape being written: the target dim to write as -1 (it carries the batch), or -1.
    int reshape_free = -1;

  private:
    std::string producer_expand_source(int64_t id, int64_t* source) const;

    const Recording& rec_;
    bool dynamic_;
    const TracedNode* node_ = nullptr;
    std::map<int64_t, std::string> names_;
    std::set<int64_t> inputs_, inits_done_;
    std::map<int64_t, int> batch_;
    std::vector<::onnx::NodeProto> nodes_;
    std::vector<::onnx::TensorProto> inits_;
    int64_t fresh_ = 0;
};

/// Writes the recorded call e.call() as ONNX nodes (export_rows.cpp); throws through e.lacks().
void emit_row(Emitter& e);
void emit_elementwise(Emitter& e);  // export_elementwise.cpp: the rows of elementwise.def
void emit_nn(Emitter& e);           // export_nn.cpp: conv, pools, interpolate, layer_norm
bool can_export_nn(const OpCall& call, const std::vector<TensorMeta>& inputs);
bool can_export_elementwise(OpId op, DType dtype);
/// The batch dims of a node's outputs from its inputs' (export_batch.cpp); for reshape also the target
/// dim written as -1 (or -1 for none).
std::vector<int> propagate_batch(const TracedNode& node, const std::vector<TensorMeta>& in_metas,
                                 const std::vector<int>& in_batch, int* reshape_free_dim);

}  // namespace burn::onnx::exporter
