// onnx::Model: load (parse, order, check the ops, fold constants, drop dead nodes) and run.
#include "burn/onnx/model.hpp"

#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>

#include "onnx/op_table.hpp"
#include "onnx/proto.hpp"
#include "platform/files.hpp"

namespace burn::onnx {

using namespace detail;

namespace {

/// One node to run: its entry, and the value slots it reads and writes (-1: omitted).
struct Step {
    const Node* node = nullptr;
    const OpEntry* entry = nullptr;
    int64_t opset = 0;
    std::vector<int> in, out;
    std::vector<int> release;  // slots whose last reader is this step
};

[[noreturn]] void throw_labelled(ErrorKind kind, const std::string& label, const char* what) {
    const std::string m = what;
    ::burn::detail::throw_error(static_cast<int>(kind), m.rfind("[onnx]", 0) == 0 ? m : label + m);
}

/// Rethrows the error in flight with the node's label in front, keeping its kind.
[[noreturn]] void rethrow_in(const Node& node) {
    const std::string label = node_label(node) + ": ";
    auto again = [&](ErrorKind kind, const char* what) { throw_labelled(kind, label, what); };
    try {
        throw;
    } catch (const ShapeError& e) {
        again(ErrorKind::shape, e.what());
    } catch (const DTypeError& e) {
        again(ErrorKind::dtype, e.what());
    } catch (const DeviceError& e) {
        again(ErrorKind::device, e.what());
    } catch (const IndexError& e) {
        again(ErrorKind::index, e.what());
    } catch (const IoError& e) {
        again(ErrorKind::io, e.what());
    } catch (const Error& e) {
        again(ErrorKind::generic, e.what());
    }
    throw;  // not a burn::Error: unchanged
}

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

/// Every (domain, op type) of graph and its subgraphs that the table lacks, with one node of each.
void collect_missing(const Graph& g, const ModelIr& ir, std::map<std::string, std::string>& missing) {
    for (const Node& n : g.nodes) {
        if (!op_table().find(n.domain, n.op_type)) {
            const std::string op = n.domain.empty() ? n.op_type : n.domain + "." + n.op_type;
            missing.emplace(op, "opset " + std::to_string(ir.opset(n.domain)) + ", node " + n.name);
        }
        for (const auto& [_, a] : n.attrs) {
            if (a.g) collect_missing(*a.g, ir, missing);
            for (const auto& sg : a.graphs) collect_missing(*sg, ir, missing);
        }
    }
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

std::vector<std::string> describe_missing(const std::map<std::string, std::string>& missing) {
    std::vector<std::string> out;
    for (const auto& [op, where] : missing) out.push_back(op + " (" + where + ")");
    return out;
}

bool is_random(const std::string& op) {
    return op.rfind("Random", 0) == 0 || op == "Bernoulli" || op == "Multinomial" || op == "Dropout";
}

}  // namespace

struct Model::Impl {
    ModelIr ir;
    Device device;
    std::string what;
    std::vector<ValueSpec> inputs, outputs;
    std::vector<int> input_slots, output_slots;
    std::vector<TensorAny> constants;  // per slot: defined for initializers and folded values
    std::vector<Step> steps;
    std::size_t num_slots = 0;

    void plan(const LoadOptions& options);
    std::vector<TensorAny> execute(std::vector<TensorAny> values) const;
    void check_input(const ValueSpec& spec, const TensorAny& x, std::map<std::string, int64_t>& named) const;
};

void Model::Impl::plan(const LoadOptions& options) {
    const Graph& g = ir.graph;
    std::map<std::string, int> slot;
    auto define = [&](const std::string& name, const std::string& by) {
        BURN_CHECK_KIND(!name.empty(), io, "[onnx] ", what, ": ", by, " defines a value with an empty name");
        BURN_CHECK_KIND(!slot.count(name), io, "[onnx] ", what, ": value '", name,
                        "' is defined twice (again by ", by, "); ONNX values are assigned once");
        const int s = static_cast<int>(slot.size());
        slot[name] = s;
        return s;
    };
    for (const ValueInfo& v : g.inputs) input_slots.push_back(define(v.name, "graph input"));
    std::vector<std::pair<int, const TensorData*>> inits;
    for (const auto& [name, data] : g.initializers) inits.emplace_back(define(name, "an initializer"), &data);

    // Order the nodes (exporters should write them sorted; some do not): Kahn's algorithm on names.
    std::map<std::string, std::size_t> producer;
    for (std::size_t i = 0; i < g.nodes.size(); ++i)
        for (const std::string& o : g.nodes[i].outputs)
            if (!o.empty()) {
                BURN_CHECK_KIND(!producer.count(o) && !slot.count(o), io, "[onnx] ", what, ": value '", o,
                                "' is defined twice (again by ", node_label(g.nodes[i]), ")");
                producer[o] = i;
            }
    std::vector<int> pending(g.nodes.size(), 0);
    std::vector<std::vector<std::size_t>> users(g.nodes.size());
    for (std::size_t i = 0; i < g.nodes.size(); ++i)
        for (const std::string& in : g.nodes[i].inputs) {
            if (in.empty() || slot.count(in)) continue;
            auto p = producer.find(in);
            BURN_CHECK_KIND(p != producer.end(), io, node_label(g.nodes[i]), " in ", what, ": input '", in,
                            "' is not a graph input, an initializer or any node's output");
            ++pending[i];
            users[p->second].push_back(i);
        }
    std::vector<std::size_t> order, ready;
    for (std::size_t i = g.nodes.size(); i-- > 0;)
        if (!pending[i]) ready.push_back(i);
    while (!ready.empty()) {
        const std::size_t i = ready.back();
        ready.pop_back();
        order.push_back(i);
        for (std::size_t u : users[i])
            if (--pending[u] == 0) ready.push_back(u);
    }
    if (order.size() != g.nodes.size()) {
        for (std::size_t i = 0; i < g.nodes.size(); ++i)
            BURN_CHECK_KIND(pending[i] == 0, io, "[onnx] ", what, ": the graph has a cycle through ",
                            node_label(g.nodes[i]));
    }
    // Unsupported ops: all of them in one message.
    std::map<std::string, std::string> missing;
    collect_missing(g, ir, missing);
    if (!missing.empty()) {
        std::ostringstream os;
        os << "[onnx] " << what << " needs " << missing.size() << " op" << (missing.size() == 1 ? "" : "s")
           << " this build lacks:";
        bool first = true;
        for (const std::string& m : describe_missing(missing)) {
            os << (first ? " " : ", ") << m;
            first = false;
        }
        os << "; docs/onnx.md lists the supported ops";
        BURN_THROW(os.str());
    }
    // Which nodes the outputs need (dead-node removal).
    for (const ValueInfo& v : g.outputs)
        BURN_CHECK_KIND(slot.count(v.name) || producer.count(v.name), io, "[onnx] ", what, ": graph output '",
                        v.name, "' is not produced by any node, input or initializer");
    std::vector<bool> live(g.nodes.size(), false);
    std::vector<std::string> stack;
    for (const ValueInfo& v : g.outputs) stack.push_back(v.name);
    while (!stack.empty()) {
        const std::string v = stack.back();
        stack.pop_back();
        auto p = producer.find(v);
        if (p == producer.end() || live[p->second]) continue;
        live[p->second] = true;
        for (const std::string& in : g.nodes[p->second].inputs)
            if (!in.empty()) stack.push_back(in);
        // A subgraph reads values of the outer scope by name.
        for (const auto& [_, a] : g.nodes[p->second].attrs)
            if (a.g)
                for (const Node& sn : a.g->nodes)
                    for (const std::string& in : sn.inputs)
                        if (!in.empty()) stack.push_back(in);
    }
    for (std::size_t i : order)
        for (const std::string& o : g.nodes[i].outputs)
            if (!o.empty()) define(o, node_label(g.nodes[i]));
    num_slots = slot.size();
    constants.assign(num_slots, TensorAny());
    for (const auto& [s, data] : inits)
        constants[static_cast<std::size_t>(s)] = ops::from_data(*data, device);

    // Steps, folding the ones whose inputs are all constants.
    for (std::size_t i : order) {
        if (!live[i]) continue;
        const Node& n = g.nodes[i];
        Step st;
        st.node = &n;
        st.entry = op_table().find(n.domain, n.op_type);
        st.opset = ir.opset(n.domain);
        bool all_const = !is_random(n.op_type);
        for (const std::string& in : n.inputs) {
            st.in.push_back(in.empty() ? -1 : slot.at(in));
            if (!in.empty() && !constants[static_cast<std::size_t>(slot.at(in))].defined()) all_const = false;
        }
        for (const std::string& o : n.outputs) st.out.push_back(o.empty() ? -1 : slot.at(o));
        bool has_subgraph = false;
        for (const auto& [_, a] : n.attrs) has_subgraph |= a.g != nullptr || !a.graphs.empty();
        if (options.fold_constants && all_const && !has_subgraph) {
            std::vector<TensorAny> ins;
            for (int s : st.in) ins.push_back(s < 0 ? TensorAny() : constants[static_cast<std::size_t>(s)]);
            std::vector<TensorAny> outs;
            try {
                outs = st.entry->run(OpContext(n, st.opset, device, ins));
            } catch (const Error&) {
                rethrow_in(n);
            }
            for (std::size_t k = 0; k < st.out.size() && k < outs.size(); ++k)
                if (st.out[k] >= 0) constants[static_cast<std::size_t>(st.out[k])] = outs[k];
            continue;
        }
        steps.push_back(std::move(st));
    }
    for (const ValueInfo& v : g.outputs) output_slots.push_back(slot.at(v.name));
    // Free each value after its last reader.
    std::vector<int> last(num_slots, -1);
    for (std::size_t k = 0; k < steps.size(); ++k)
        for (int s : steps[k].in)
            if (s >= 0) last[static_cast<std::size_t>(s)] = static_cast<int>(k);
    for (int s : output_slots) last[static_cast<std::size_t>(s)] = -2;  // kept
    for (std::size_t s = 0; s < num_slots; ++s)
        if (last[s] >= 0 && !constants[s].defined())
            steps[static_cast<std::size_t>(last[s])].release.push_back(int(s));
    for (const ValueInfo& v : g.inputs) inputs.push_back(spec_of(v));
    for (const ValueInfo& v : g.outputs) outputs.push_back(spec_of(v));
}

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
    std::vector<TensorAny> values = constants;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        TensorAny x = std::move(given[i]);
        if (x.device() != device) x = ops::to_device(std::move(x), device);
        values[static_cast<std::size_t>(input_slots[i])] = std::move(x);
    }
    std::vector<TensorAny> ins;
    for (const Step& st : steps) {
        ins.clear();
        for (int s : st.in) ins.push_back(s < 0 ? TensorAny() : values[static_cast<std::size_t>(s)]);
        std::vector<TensorAny> outs;
        try {
            outs = st.entry->run(OpContext(*st.node, st.opset, device, ins));
        } catch (const Error&) {
            rethrow_in(*st.node);
        }
        for (std::size_t k = 0; k < st.out.size(); ++k) {
            if (st.out[k] < 0) continue;
            BURN_CHECK(k < outs.size() && outs[k].defined(), node_label(*st.node), ": output ", k,
                       " is not computed by this importer");
            values[static_cast<std::size_t>(st.out[k])] = std::move(outs[k]);
        }
        for (int s : st.release) values[static_cast<std::size_t>(s)] = TensorAny();
    }
    std::vector<TensorAny> out;
    for (int s : output_slots) out.push_back(values[static_cast<std::size_t>(s)]);
    return out;
}

Model::Model(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Model::Model(Model&&) noexcept = default;
Model& Model::operator=(Model&&) noexcept = default;
Model::~Model() = default;

Model Model::from_bytes(const std::string& bytes, const Device& device, const std::string& folder,
                        const std::string& what, const LoadOptions& options) {
    auto impl = std::make_unique<Impl>(
        Impl{parse_model(bytes, folder, what), device, what, {}, {}, {}, {}, {}, {}, 0});
    impl->plan(options);
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
    return impl_->steps.size();
}
std::size_t Model::num_file_nodes() const {
    return impl_->ir.graph.nodes.size();
}
std::map<std::string, int> Model::op_histogram() const {
    std::map<std::string, int> h;
    histogram(impl_->ir.graph, h);
    return h;
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
