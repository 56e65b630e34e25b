// OpContext (how an op entry reads its node) and the op table.
#include "onnx/op_table.hpp"

#include <algorithm>

namespace burn::onnx::detail {

// ---- OpContext

void OpContext::throw_node_error(const std::string& message) const {
    BURN_THROW(node_label(node_), ": ", message);
}

const TensorAny& OpContext::in(std::size_t i) const {
    check(has(i), "input ", i, " is required but the node omits it (it has ", in_.size(), " inputs)");
    return in_[i];
}

std::vector<int64_t> OpContext::ints_of(std::size_t i) const {
    const TensorAny& x = in(i);
    check(!is_float(x.dtype()) && x.dtype() != DType::boolean, "input ", i,
          " must be an integer tensor, got ", x.dtype(), " ", x.shape());
    check(x.rank() <= 1, "input ", i, " must be a scalar or a 1-D tensor, got shape ", x.shape());
    return ops::into_data(ops::cast(x, DType::i64)).to_vec<int64_t>();
}

std::vector<double> OpContext::doubles_of(std::size_t i) const {
    const TensorAny& x = in(i);
    check(x.rank() <= 1, "input ", i, " must be a scalar or a 1-D tensor, got shape ", x.shape());
    return ops::into_data(ops::cast(x, DType::f64)).to_vec<double>();
}

const Attribute* OpContext::find(const std::string& name, Attribute::Kind kind) const {
    auto it = node_.attrs.find(name);
    if (it == node_.attrs.end()) return nullptr;
    check(it->second.kind == kind, "attribute '", name, "' must be of type ", kind_name(kind), ", got ",
          kind_name(it->second.kind));
    return &it->second;
}

bool OpContext::has_attr(const std::string& name) const {
    return node_.attrs.count(name) != 0;
}

int64_t OpContext::attr_int(const std::string& name, int64_t def) const {
    const Attribute* a = find(name, Attribute::Kind::i);
    return a ? a->i : def;
}

int64_t OpContext::attr_int(const std::string& name) const {
    const Attribute* a = find(name, Attribute::Kind::i);
    check(a != nullptr, "the required attribute '", name, "' is missing");
    return a->i;
}

double OpContext::attr_float(const std::string& name, double def) const {
    const Attribute* a = find(name, Attribute::Kind::f);
    return a ? a->f : def;
}

std::string OpContext::attr_string(const std::string& name, const std::string& def) const {
    const Attribute* a = find(name, Attribute::Kind::s);
    return a ? a->s : def;
}

std::vector<int64_t> OpContext::attr_ints(const std::string& name, const std::vector<int64_t>& def) const {
    const Attribute* a = find(name, Attribute::Kind::ints);
    return a ? a->ints : def;
}

std::vector<double> OpContext::attr_floats(const std::string& name, const std::vector<double>& def) const {
    const Attribute* a = find(name, Attribute::Kind::floats);
    return a ? a->floats : def;
}

const TensorData& OpContext::attr_tensor(const std::string& name) const {
    const Attribute* a = find(name, Attribute::Kind::t);
    check(a != nullptr && a->t.has_value(), "the required tensor attribute '", name, "' is missing");
    return *a->t;
}

const Graph& OpContext::attr_graph(const std::string& name) const {
    const Attribute* a = find(name, Attribute::Kind::g);
    check(a != nullptr && a->g != nullptr, "the required graph attribute '", name, "' is missing");
    return *a->g;
}

std::vector<TensorAny> OpContext::run_graph(const std::string& attr, std::vector<TensorAny> inputs) const {
    (void)attr_graph(attr);
    check(subgraphs_ != nullptr, "subgraph '", attr, "' cannot run here (no runtime scope)");
    return subgraphs_->run(attr, std::move(inputs));
}

int64_t OpContext::axis(int64_t axis, int64_t rank) const {
    check(axis >= -rank && axis < rank, "axis ", axis, " is out of range for rank ", rank, " (valid: ", -rank,
          " to ", rank - 1, ")");
    return axis < 0 ? axis + rank : axis;
}

TensorAny OpContext::constant(const TensorData& data) const {
    return ops::from_data(data, device_);
}

// ---- the table

void OpTable::add(std::string op_type, int since, OpFn run, std::string domain) {
    entries_.push_back({std::move(domain), std::move(op_type), since, run, nullptr});
}

void OpTable::set_emitter(const std::string& op_type, EmitFn emit, const std::string& domain) {
    for (OpEntry& e : entries_)
        if (e.domain == domain && e.op_type == op_type) {
            e.emit = emit;
            return;
        }
    BURN_THROW("[onnx] an emitter for '", op_type, "', which the op table lacks: add the op first");
}

const OpEntry* OpTable::find(const std::string& domain, const std::string& op_type) const {
    const std::string d = domain == "ai.onnx" ? "" : domain;
    for (const OpEntry& e : entries_)
        if (e.domain == d && e.op_type == op_type) return &e;
    return nullptr;
}

std::vector<std::string> OpTable::names(const std::string& domain) const {
    std::vector<std::string> out;
    for (const OpEntry& e : entries_)
        if (e.domain == domain) out.push_back(e.op_type);
    std::sort(out.begin(), out.end());
    return out;
}

const OpTable& op_table() {
    static const OpTable table = [] {
        OpTable t;
        add_elementwise_ops(t);
        add_math_ops(t);
        add_nn_ops(t);
        add_shape_ops(t);
        add_reduce_ops(t);
        add_loss_ops(t);
        add_resize_ops(t);
        add_index_ops(t);
        add_rnn_ops(t);
        add_quant_ops(t);
        add_signal_ops(t);
        add_training_ops(t);
        add_vision_ops(t);
        add_norm_ops(t);
        add_reorder_ops(t);
        add_random_ops(t);
        add_control_ops(t);
        add_fused_ops(t);
        add_emitters(t);
        return t;
    }();
    return table;
}

}  // namespace burn::onnx::detail
