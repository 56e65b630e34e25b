// onnx::Model: load (parse, order, check the ops, fold constants, drop dead nodes) and run.
#include "burn/onnx/model.hpp"

#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>

#include "onnx/plan.hpp"
#include "onnx/proto.hpp"
#include "platform/files.hpp"

namespace burn::onnx {

using namespace detail;

namespace {

ValueSpec spec_of(const ValueInfo& v) {
    ValueSpec s;
    s.name = v.name;
    s.dtype = v.dtype ? std::string(name(*v.dtype)) : onnx_type_name(v.onnx_type);
    if (v.shape) {
        s.has_shape = true;
        for (const Dim& d : *v.shape) {
            s.shape.push_back(d.size);
            s.names.push_back(d.param);
        }
    }
    return s;
}

void histogram(const Graph& g, std::map<std::string, int>& h) {
    for (const Node& n : g.nodes) {
        ++h[n.domain.empty() ? n.op_type : n.domain + "." + n.op_type];
        for (const auto& [_, a] : n.attrs) {
            if (a.g) histogram(*a.g, h);
            for (const auto& sg : a.graphs) histogram(*sg, h);
        }
    }
}

}  // namespace

struct Model::Impl {
    ModelIr ir;
    Device device;
    std::string what;
    std::vector<ValueSpec> inputs, outputs;
    std::shared_ptr<const Plan> plan;
    std::vector<NamedParam> params;  // the plan's trainable initializers

    std::vector<TensorAny> execute(std::vector<TensorAny> values) const;
    void check_input(const ValueSpec& spec, const TensorAny& x, std::map<std::string, int64_t>& named) const;
};

void Model::Impl::check_input(const ValueSpec& spec, const TensorAny& x,
                              std::map<std::string, int64_t>& named) const {
    BURN_CHECK(x.defined(), "[onnx] ", what, ": input '", spec.name, "' is an undefined tensor");
    BURN_CHECK_KIND(spec.dtype == name(x.dtype()), dtype, "[onnx] ", what, ": input '", spec.name,
                    "' must be ", spec.dtype, ", got ", x.dtype(), " ", x.shape(), "; cast it first");
    if (!spec.has_shape) return;
    BURN_CHECK_KIND(static_cast<std::size_t>(x.rank()) == spec.shape.size(), shape, "[onnx] ", what,
                    ": input '", spec.name, "' must have rank ", spec.shape.size(), ", got shape ",
                    x.shape());
    for (std::size_t i = 0; i < spec.shape.size(); ++i) {
        const int64_t have = x.shape()[static_cast<int>(i)];
        BURN_CHECK_KIND(spec.shape[i] < 0 || spec.shape[i] == have, shape, "[onnx] ", what, ": input '",
                        spec.name, "' must have size ", spec.shape[i], " in dim ", i, ", got shape ",
                        x.shape());
        if (spec.names[i].empty()) continue;
        auto [it, fresh] = named.emplace(spec.names[i], have);
        BURN_CHECK_KIND(fresh || it->second == have, shape, "[onnx] ", what, ": dim '", spec.names[i],
                        "' is ", it->second, " in an earlier input but ", have, " in input '", spec.name,
                        "' (shape ", x.shape(), ")");
    }
}

std::vector<TensorAny> Model::Impl::execute(std::vector<TensorAny> given) const {
    std::map<std::string, int64_t> named;
    for (std::size_t i = 0; i < inputs.size(); ++i) check_input(inputs[i], given[i], named);
    std::vector<TensorAny> values;
    values.reserve(params.size());
    for (const NamedParam& p : params) values.push_back(p.param.val());
    return plan->run(std::move(given), {}, values);
}

Model::Model(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Model::Model(Model&&) noexcept = default;
Model& Model::operator=(Model&&) noexcept = default;
Model::~Model() = default;

Model Model::from_bytes(const std::string& bytes, const Device& device, const std::string& folder,
                        const std::string& what, const LoadOptions& options) {
    auto impl =
        std::make_unique<Impl>(Impl{parse_model(bytes, folder, what), device, what, {}, {}, nullptr, {}});
    auto plan = compile(impl->ir.graph, impl->ir, device, what, options, true);
    for (std::size_t i = 0; i < plan->param_slots.size(); ++i)
        impl->params.push_back({plan->param_names[i], Param<TensorAny>(std::move(plan->param_values[i]))});
    plan->param_values.clear();
    impl->plan = std::move(plan);
    for (const ValueInfo& v : impl->ir.graph.inputs) impl->inputs.push_back(spec_of(v));
    for (const ValueInfo& v : impl->ir.graph.outputs) impl->outputs.push_back(spec_of(v));
    return Model(std::move(impl));
}

Model Model::load(const std::string& path, const Device& device, const LoadOptions& options) {
    const std::string bytes = platform::read_file(path, "onnx");
    const std::filesystem::path p(path);
    const std::string folder = p.has_parent_path() ? p.parent_path().string() : ".";
    return from_bytes(bytes, device, folder, p.filename().string(), options);
}

std::map<std::string, TensorAny> Model::run(const std::map<std::string, TensorAny>& named) const {
    std::vector<TensorAny> given;
    for (const ValueSpec& s : impl_->inputs) {
        auto it = named.find(s.name);
        BURN_CHECK(it != named.end(), "[onnx] ", impl_->what, ": input '", s.name, "' is missing from run()",
                   impl_->inputs.size() > 1 ? "; the model's inputs are listed by Model::inputs()" : "");
        given.push_back(it->second);
    }
    for (const auto& entry : named) {
        const std::string& name = entry.first;
        const bool known = std::any_of(impl_->inputs.begin(), impl_->inputs.end(),
                                       [&](const ValueSpec& s) { return s.name == name; });
        BURN_CHECK(
            known, "[onnx] ", impl_->what, ": run() got an input named '", name,
            "', which the model does not have (inputs: ",
            [&] {
                std::string all;
                for (const ValueSpec& s : impl_->inputs) all += (all.empty() ? "'" : ", '") + s.name + "'";
                return all;
            }(),
            ")");
    }
    std::vector<TensorAny> outs = impl_->execute(std::move(given));
    std::map<std::string, TensorAny> out;
    for (std::size_t i = 0; i < outs.size(); ++i) out[impl_->outputs[i].name] = outs[i];
    return out;
}

std::vector<TensorAny> Model::run(const std::vector<TensorAny>& inputs) const {
    BURN_CHECK(inputs.size() == impl_->inputs.size(), "[onnx] ", impl_->what, ": the model takes ",
               impl_->inputs.size(), " inputs, run() got ", inputs.size());
    return impl_->execute(inputs);
}

const std::vector<ValueSpec>& Model::inputs() const {
    return impl_->inputs;
}
const std::vector<ValueSpec>& Model::outputs() const {
    return impl_->outputs;
}
const Device& Model::device() const {
    return impl_->device;
}
int64_t Model::opset() const {
    return impl_->ir.opset("");
}
int64_t Model::ir_version() const {
    return impl_->ir.ir_version;
}
const std::string& Model::producer() const {
    return impl_->ir.producer;
}
std::size_t Model::num_nodes() const {
    return impl_->plan->steps.size();
}
std::size_t Model::num_file_nodes() const {
    return impl_->ir.graph.nodes.size();
}
std::map<std::string, int> Model::op_histogram() const {
    std::map<std::string, int> h;
    histogram(impl_->ir.graph, h);
    return h;
}
std::vector<NamedParam>& Model::params() {
    return impl_->params;
}
const std::vector<NamedParam>& Model::params() const {
    return impl_->params;
}

ModelInfo inspect(const std::string& path) {
    const std::filesystem::path p(path);
    const ModelIr ir =
        parse_model(platform::read_file(path, "onnx"), p.has_parent_path() ? p.parent_path().string() : ".",
                    p.filename().string());
    ModelInfo info;
    info.ir_version = ir.ir_version;
    info.opset = ir.opset("");
    info.producer = ir.producer;
    for (const ValueInfo& v : ir.graph.inputs) info.inputs.push_back(spec_of(v));
    for (const ValueInfo& v : ir.graph.outputs) info.outputs.push_back(spec_of(v));
    info.num_nodes = ir.graph.nodes.size();
    histogram(ir.graph, info.op_histogram);
    std::map<std::string, std::string> missing;
    collect_missing(ir.graph, ir, missing);
    info.unsupported = describe_missing(missing);
    return info;
}

std::vector<std::string> supported_ops() {
    return op_table().names();
}

}  // namespace burn::onnx
