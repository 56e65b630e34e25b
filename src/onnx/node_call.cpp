// burn::onnx::NodeSpec and call(): one node through the op table, outside a graph (generated code).
#include "burn/onnx/node_call.hpp"

#include "onnx/op_table.hpp"
#include "onnx/plan.hpp"

namespace burn::onnx {

using namespace detail;

NodeSpec::NodeSpec(std::string op_type, int64_t opset, std::string name, std::string domain)
    : node_(std::make_shared<Node>()), opset_(opset) {
    node_->op_type = std::move(op_type);
    node_->domain = domain == "ai.onnx" ? "" : std::move(domain);
    node_->name = name.empty() ? node_->op_type : std::move(name);
    node_->outputs = {node_->name + "_output_0"};
    entry_ = op_table().find(node_->domain, node_->op_type);
}

const OpEntry& NodeSpec::entry() const {
    BURN_CHECK(entry_ != nullptr, node_label(*node_), ": this build has no op '",
               node_->domain.empty() ? node_->op_type : node_->domain + "." + node_->op_type,
               "'; docs/onnx.md lists the supported ops");
    return *entry_;
}

namespace {
Attribute& put_attr(Node& n, const std::string& name, Attribute::Kind kind) {
    Attribute& a = n.attrs[name];
    a = Attribute();
    a.kind = kind;
    return a;
}
}  // namespace

NodeSpec& NodeSpec::i(const std::string& attr, int64_t value) {
    put_attr(*node_, attr, Attribute::Kind::i).i = value;
    return *this;
}
NodeSpec& NodeSpec::f(const std::string& attr, double value) {
    put_attr(*node_, attr, Attribute::Kind::f).f = value;
    return *this;
}
NodeSpec& NodeSpec::s(const std::string& attr, std::string value) {
    put_attr(*node_, attr, Attribute::Kind::s).s = std::move(value);
    return *this;
}
NodeSpec& NodeSpec::t(const std::string& attr, TensorData value) {
    put_attr(*node_, attr, Attribute::Kind::t).t = std::move(value);
    return *this;
}
NodeSpec& NodeSpec::ints(const std::string& attr, std::vector<int64_t> values) {
    put_attr(*node_, attr, Attribute::Kind::ints).ints = std::move(values);
    return *this;
}
NodeSpec& NodeSpec::floats(const std::string& attr, std::vector<double> values) {
    put_attr(*node_, attr, Attribute::Kind::floats).floats = std::move(values);
    return *this;
}
NodeSpec& NodeSpec::strings(const std::string& attr, std::vector<std::string> values) {
    put_attr(*node_, attr, Attribute::Kind::strings).strings = std::move(values);
    return *this;
}
NodeSpec& NodeSpec::outputs(std::vector<std::string> names) {
    node_->outputs = std::move(names);
    return *this;
}

std::vector<TensorAny> call(const NodeSpec& spec, std::vector<TensorAny> inputs, const Device& device) {
    const OpEntry& entry = spec.entry();
    for (TensorAny& x : inputs)
        if (x.defined() && x.device() != device) x = ops::to_device(std::move(x), device);
    std::vector<TensorAny> outs;
    try {
        outs = entry.run(OpContext(spec.node(), spec.opset(), device, inputs));
    } catch (const Error&) {
        rethrow_in(spec.node());
    }
    const auto& names = spec.node().outputs;
    for (std::size_t k = 0; k < names.size(); ++k)
        BURN_CHECK(names[k].empty() || (k < outs.size() && outs[k].defined()), node_label(spec.node()),
                   ": output ", k, " is not computed by this importer");
    return outs;
}

TensorData data_of_ints(DType dtype, const std::vector<int64_t>& shape, const std::vector<int64_t>& values) {
    const TensorData data(values, Dims::from(shape.data(), static_cast<int>(shape.size())));
    return dtype == DType::i64 ? data : data.convert(dtype);
}

TensorData data_of_floats(DType dtype, const std::vector<int64_t>& shape, const std::vector<double>& values) {
    const TensorData data(values, Dims::from(shape.data(), static_cast<int>(shape.size())));
    return dtype == DType::f64 ? data : data.convert(dtype);
}

TensorAny literal_ints(DType dtype, const std::vector<int64_t>& shape, const std::vector<int64_t>& values,
                       const Device& device) {
    return ops::from_data(data_of_ints(dtype, shape, values), device);
}

TensorAny literal_floats(DType dtype, const std::vector<int64_t>& shape, const std::vector<double>& values,
                         const Device& device) {
    return ops::from_data(data_of_floats(dtype, shape, values), device);
}

}  // namespace burn::onnx
