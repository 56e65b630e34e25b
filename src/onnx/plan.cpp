// Compiling an ONNX graph into a Plan (order, check, fold, drop dead nodes, free values early) and
// running it, subgraphs included.
#include "onnx/plan.hpp"

#include <algorithm>
#include <set>
#include <sstream>

#include "onnx/fuse.hpp"

namespace burn::onnx::detail {

namespace {

[[noreturn]] void throw_labelled(ErrorKind kind, const std::string& label, const char* what) {
    const std::string m = what;
    ::burn::detail::throw_error(static_cast<int>(kind), m.rfind("[onnx]", 0) == 0 ? m : label + m);
}

bool is_random(const std::string& op) {
    return op.rfind("Random", 0) == 0 || op == "Bernoulli" || op == "Multinomial" || op == "Dropout";
}

std::set<std::string> free_names(const Graph& g);

/// The names node n reads: its inputs, and the outer values of its subgraphs.
std::vector<std::string> node_reads(const Node& n) {
    std::vector<std::string> out;
    for (const std::string& in : n.inputs)
        if (!in.empty()) out.push_back(in);
    for (const auto& entry : n.attrs)
        if (entry.second.g)
            for (const std::string& f : free_names(*entry.second.g)) out.push_back(f);
    return out;
}

/// The names g reads without defining them (its outer values).
std::set<std::string> free_names(const Graph& g) {
    std::set<std::string> defined, reads;
    for (const ValueInfo& v : g.inputs) defined.insert(v.name);
    for (const auto& entry : g.initializers) defined.insert(entry.first);
    for (const Node& n : g.nodes) {
        for (const std::string& o : n.outputs) defined.insert(o);
        for (const std::string& r : node_reads(n)) reads.insert(r);
    }
    for (const ValueInfo& v : g.outputs) reads.insert(v.name);
    std::set<std::string> out;
    for (const std::string& r : reads)
        if (!defined.count(r)) out.insert(r);
    return out;
}

/// Runs the subgraphs of one step with the outer values it captured.
class StepRunner final : public SubgraphRunner {
  public:
    StepRunner(const Step& st, const std::vector<TensorAny>& captured) : st_(st), captured_(captured) {}

    std::vector<TensorAny> run(const std::string& attr, std::vector<TensorAny> inputs) const override {
        auto it = st_.subgraphs.find(attr);
        BURN_CHECK(it != st_.subgraphs.end(), node_label(*st_.node), ": no compiled subgraph '", attr, "'");
        const Plan& sub = *it->second;
        std::vector<TensorAny> outer;
        for (const std::string& name : sub.outer) {
            auto pos = std::lower_bound(st_.capture_names.begin(), st_.capture_names.end(), name);
            outer.push_back(captured_[static_cast<std::size_t>(pos - st_.capture_names.begin())]);
        }
        return sub.run(std::move(inputs), outer);
    }

  private:
    const Step& st_;
    const std::vector<TensorAny>& captured_;
};

}  // namespace

void rethrow_in(const Node& node) {
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

void collect_missing(const Graph& g, const ModelIr& ir, std::map<std::string, std::string>& missing) {
    for (const Node& n : g.nodes) {
        if (!op_table().find(n.domain, n.op_type)) {
            const std::string op = n.domain.empty() ? n.op_type : n.domain + "." + n.op_type;
            missing.emplace(op, "opset " + std::to_string(ir.opset(n.domain)) + ", node " + n.name);
        }
        for (const auto& entry : n.attrs) {
            if (entry.second.g) collect_missing(*entry.second.g, ir, missing);
            for (const auto& sg : entry.second.graphs) collect_missing(*sg, ir, missing);
        }
    }
}

std::vector<std::string> describe_missing(const std::map<std::string, std::string>& missing) {
    std::vector<std::string> out;
    for (const auto& entry : missing) out.push_back(entry.first + " (" + entry.second + ")");
    return out;
}

std::shared_ptr<Plan> compile(const Graph& g, const ModelIr& ir, const Device& device,
                              const std::string& what, const LoadOptions& options, bool top) {
    auto plan = std::make_shared<Plan>();
    plan->what = what;
    plan->device = device;
    const std::string where = top ? what : what + ", subgraph '" + g.name + "'";
    std::map<std::string, int> slot;
    auto define = [&](const std::string& name, const std::string& by) {
        BURN_CHECK_KIND(!name.empty(), io, "[onnx] ", where, ": ", by, " defines a value with an empty name");
        BURN_CHECK_KIND(!slot.count(name), io, "[onnx] ", where, ": value '", name,
                        "' is defined twice (again by ", by, "); ONNX values are assigned once");
        const int s = static_cast<int>(slot.size());
        slot[name] = s;
        return s;
    };
    for (const ValueInfo& v : g.inputs) plan->input_slots.push_back(define(v.name, "graph input"));
    std::vector<std::pair<int, const std::pair<const std::string, TensorData>*>> inits;  // by name
    for (const auto& entry : g.initializers)
        inits.emplace_back(define(entry.first, "an initializer"), &entry);

    // Order the nodes (exporters should write them sorted; some do not): Kahn's algorithm on names.
    std::map<std::string, std::size_t> producer;
    for (std::size_t i = 0; i < g.nodes.size(); ++i)
        for (const std::string& o : g.nodes[i].outputs)
            if (!o.empty()) {
                BURN_CHECK_KIND(!producer.count(o) && !slot.count(o), io, "[onnx] ", where, ": value '", o,
                                "' is defined twice (again by ", node_label(g.nodes[i]), ")");
                producer[o] = i;
            }
    std::vector<std::vector<std::string>> reads(g.nodes.size());
    std::vector<int> pending(g.nodes.size(), 0);
    std::vector<std::vector<std::size_t>> users(g.nodes.size());
    std::set<std::string> outer;
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        reads[i] = node_reads(g.nodes[i]);
        for (const std::string& in : reads[i]) {
            if (slot.count(in)) continue;
            auto p = producer.find(in);
            if (p == producer.end()) {
                BURN_CHECK_KIND(!top, io, node_label(g.nodes[i]), " in ", where, ": input '", in,
                                "' is not a graph input, an initializer or any node's output");
                outer.insert(in);
                continue;
            }
            ++pending[i];
            users[p->second].push_back(i);
        }
    }
    for (const ValueInfo& v : g.outputs)
        if (!slot.count(v.name) && !producer.count(v.name)) {
            BURN_CHECK_KIND(!top, io, "[onnx] ", where, ": graph output '", v.name,
                            "' is not produced by any node, input or initializer");
            outer.insert(v.name);
        }
    for (const std::string& name : outer) {
        plan->outer.push_back(name);
        plan->outer_slots.push_back(define(name, "the outer scope"));
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
            BURN_CHECK_KIND(pending[i] == 0, io, "[onnx] ", where, ": the graph has a cycle through ",
                            node_label(g.nodes[i]));
    }
    // Unsupported ops, subgraphs included: all of them in one message.
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
    std::vector<bool> live(g.nodes.size(), false);
    std::vector<std::string> stack;
    for (const ValueInfo& v : g.outputs) stack.push_back(v.name);
    while (!stack.empty()) {
        const std::string v = stack.back();
        stack.pop_back();
        auto p = producer.find(v);
        if (p == producer.end() || live[p->second]) continue;
        live[p->second] = true;
        for (const std::string& in : reads[p->second]) stack.push_back(in);
    }
    for (std::size_t i : order)
        for (const std::string& o : g.nodes[i].outputs)
            if (!o.empty()) define(o, node_label(g.nodes[i]));
    plan->num_slots = slot.size();
    std::vector<TensorAny>& constants = plan->constants;
    constants.assign(plan->num_slots, TensorAny());
    const bool train = top && options.train_initializers && device.is_autodiff();
    for (const auto& init : inits) {
        TensorAny value = ops::from_data(init.second->second, device);
        if (train && is_float(value.dtype())) {  // a parameter: not a constant, so nothing folds it away
            plan->param_names.push_back(init.second->first);
            plan->param_slots.push_back(init.first);
            plan->param_values.push_back(std::move(value));
        } else {
            constants[static_cast<std::size_t>(init.first)] = std::move(value);
        }
    }

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
        std::set<std::string> captured;
        for (const auto& entry : n.attrs) {
            if (!entry.second.g) continue;
            try {
                auto sub = compile(*entry.second.g, ir, device, what, options, false);
                captured.insert(sub->outer.begin(), sub->outer.end());
                st.subgraphs[entry.first] = std::move(sub);
            } catch (const Error&) {
                rethrow_in(n);
            }
        }
        st.capture_names.assign(captured.begin(), captured.end());
        for (const std::string& name : st.capture_names) st.captures.push_back(slot.at(name));
        if (options.fold_constants && all_const && st.subgraphs.empty()) {
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
        plan->steps.push_back(std::move(st));
    }
    for (const ValueInfo& v : g.outputs) plan->output_slots.push_back(slot.at(v.name));
    // Conv chains into FusedConv where the fused row has a kernel: the CPU and CUDA (autodiff records
    // the separate ops anyway; another backend would run conv_fused's decomposition)
    const std::string backend(device.backend_name());
    if (options.fuse_ops && !device.is_autodiff() && (backend == "cpu" || backend == "cuda"))
        fuse_conv_chains(*plan);
    // Free each value after its last reader.
    std::vector<int> last(plan->num_slots, -1);
    for (std::size_t k = 0; k < plan->steps.size(); ++k) {
        for (int s : plan->steps[k].in)
            if (s >= 0) last[static_cast<std::size_t>(s)] = static_cast<int>(k);
        for (int s : plan->steps[k].captures) last[static_cast<std::size_t>(s)] = static_cast<int>(k);
    }
    for (int s : plan->output_slots) last[static_cast<std::size_t>(s)] = -2;  // kept
    for (std::size_t s = 0; s < plan->num_slots; ++s)
        if (last[s] >= 0 && !constants[s].defined())
            plan->steps[static_cast<std::size_t>(last[s])].release.push_back(int(s));
    return plan;
}

std::vector<TensorAny> Plan::run(std::vector<TensorAny> inputs, const std::vector<TensorAny>& outer_values,
                                 const std::vector<TensorAny>& params) const {
    BURN_CHECK(inputs.size() == input_slots.size(), "[onnx] ", what, ": a graph takes ", input_slots.size(),
               " inputs, got ", inputs.size());
    BURN_CHECK(params.size() == param_slots.size(), "[onnx] ", what, ": the graph has ", param_slots.size(),
               " trainable initializers, got ", params.size(), " values");
    std::vector<TensorAny> values = constants;
    for (std::size_t i = 0; i < params.size(); ++i)
        values[static_cast<std::size_t>(param_slots[i])] = params[i];
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        TensorAny x = std::move(inputs[i]);
        if (x.defined() && x.device() != device) x = ops::to_device(std::move(x), device);
        values[static_cast<std::size_t>(input_slots[i])] = std::move(x);
    }
    for (std::size_t i = 0; i < outer_slots.size() && i < outer_values.size(); ++i)
        values[static_cast<std::size_t>(outer_slots[i])] = outer_values[i];
    std::vector<TensorAny> ins, captured;
    for (const Step& st : steps) {
        ins.clear();
        for (int s : st.in) ins.push_back(s < 0 ? TensorAny() : values[static_cast<std::size_t>(s)]);
        captured.clear();
        for (int s : st.captures) captured.push_back(values[static_cast<std::size_t>(s)]);
        const StepRunner runner(st, captured);
        std::vector<TensorAny> outs;
        try {
            outs = st.entry->run(
                OpContext(*st.node, st.opset, device, ins, st.subgraphs.empty() ? nullptr : &runner));
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

}  // namespace burn::onnx::detail
