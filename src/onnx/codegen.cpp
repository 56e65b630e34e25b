// burn-onnx generate: the analysis (which values are weights, literals or locals, and their names) and
// the files (codegen.hpp). The text of the struct is written by codegen_write.cpp.
#include "onnx/codegen.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "burn/store/burnpack.hpp"
#include "onnx/codegen_unit.hpp"
#include "onnx/plan.hpp"
#include "onnx/proto.hpp"
#include "platform/files.hpp"

namespace burn::onnx::detail {

namespace {

constexpr std::size_t kMaxFields = 60;  // BURN_MODULE takes up to 63 fields

void reject_subgraphs(const Graph& g) {
    for (const Node& n : g.nodes)
        for (const auto& entry : n.attrs)
            BURN_CHECK(!entry.second.g && entry.second.graphs.empty(), node_label(n), ": has the subgraph '",
                       entry.first,
                       "'; burn-onnx generate does not write code for If, Loop and Scan yet: run ",
                       "this model with burn::onnx::Model (the runtime) instead");
}

class Namer {
  public:
    std::string take(const std::string& want) {
        std::string name = want;
        for (int k = 2; taken_.count(name); ++k) name = want + "_" + std::to_string(k);
        taken_.insert(name);
        return name;
    }

  private:
    std::set<std::string> taken_;
};

bool is_auto_name(const std::string& name) {
    return name.rfind("onnx::", 0) == 0 || name.find_first_not_of("0123456789") == std::string::npos;
}

/// Groups the fields so that no struct has more than kMaxFields: by the first word of their names
/// (a model's top-level modules: features, classifier), splitting larger groups in parts.
void lay_out(Unit& u) {
    if (u.fields.size() <= kMaxFields) return;
    std::vector<std::pair<std::string, std::vector<std::size_t>>> groups;
    for (std::size_t i = 0; i < u.fields.size(); ++i) {
        const std::string& n = u.fields[i].name;
        const std::string key = n.substr(0, n.find('_'));
        auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == key; });
        if (it == groups.end()) {
            groups.push_back({key, {}});
            it = groups.end() - 1;
        }
        it->second.push_back(i);
    }
    if (groups.size() > kMaxFields) {
        groups.clear();
        for (std::size_t i = 0; i < u.fields.size(); ++i) {
            if (i % kMaxFields == 0) groups.push_back({"part" + std::to_string(i / kMaxFields), {}});
            groups.back().second.push_back(i);
        }
    }
    Namer names;
    for (const auto& [key, members] : groups) {
        const std::size_t parts = (members.size() + kMaxFields - 1) / kMaxFields;
        for (std::size_t p = 0; p < parts; ++p) {
            Group g;
            g.member = names.take(sanitize(parts == 1 ? key : key + "_part" + std::to_string(p)));
            g.type = camel(g.member) + "Group";
            for (std::size_t k = p * kMaxFields; k < std::min(members.size(), (p + 1) * kMaxFields); ++k) {
                g.fields.push_back(members[k]);
                u.fields[members[k]].group = u.groups.size();
            }
            u.groups.push_back(std::move(g));
        }
    }
    BURN_CHECK(u.groups.size() <= kMaxFields, "[onnx] burn-onnx generate: ", u.fields.size(),
               " weight tensors do not fit in ", kMaxFields, " groups of ", kMaxFields, " fields");
}

}  // namespace

std::string Unit::access(const Field& f) const {
    return f.group == kNoGroup ? f.name : groups[f.group].member + "." + f.name;
}

Unit analyse(const ModelIr& ir, const Plan& plan) {
    Unit u;
    u.plan = &plan;
    u.ir = &ir;
    const Graph& g = ir.graph;
    std::map<int, std::string> onnx_name;
    for (std::size_t i = 0; i < g.inputs.size(); ++i) onnx_name[plan.input_slots[i]] = g.inputs[i].name;
    for (const Step& st : plan.steps) {
        for (std::size_t k = 0; k < st.in.size(); ++k)
            if (st.in[k] >= 0) onnx_name.emplace(st.in[k], st.node->inputs[k]);
        for (std::size_t k = 0; k < st.out.size(); ++k)
            if (st.out[k] >= 0) onnx_name.emplace(st.out[k], st.node->outputs[k]);
    }
    for (std::size_t i = 0; i < g.outputs.size(); ++i)
        onnx_name.emplace(plan.output_slots[i], g.outputs[i].name);

    // Constants read at run time: weights (Param/Buffer fields) or literals. Weights are named after the
    // initializer when it has a real name, else after the module path of the node reading it and the
    // input's role; literals after their ONNX value (a Constant node's output).
    Namer fields;
    // compile() numbers the graph inputs' slots first, then the initializers' in name order
    std::vector<std::pair<int, std::string>> init_slots;
    for (const auto& entry : g.initializers)
        init_slots.emplace_back(static_cast<int>(g.inputs.size() + init_slots.size()), entry.first);
    auto add_constant = [&](int slot, const Node* reader, std::size_t index) {
        if (u.field_of.count(slot)) return;
        const TensorAny& v = plan.constants[static_cast<std::size_t>(slot)];
        // a value folded into the very tensor of another (Identity of a shared weight) reads that one
        for (std::size_t i = 0; i < u.fields_all.size(); ++i)
            if (u.fields_all[i].value->same(v)) {
                u.field_of[slot] = i;
                return;
            }
        std::string name = onnx_name.at(slot);
        bool init = g.initializers.count(name) != 0;
        for (std::size_t i = 0; i < init_slots.size() && !init; ++i)
            if (plan.constants[static_cast<std::size_t>(init_slots[i].first)].same(v)) {
                name = init_slots[i].second;
                init = true;
            }
        Field f;
        f.slot = slot;
        f.value = &v;
        f.onnx_name = name;
        f.initializer = init;
        if (init && is_float(v.dtype()) && v.rank() >= 1)
            f.kind = Field::Kind::param;
        else if (v.numel() <= 16 || v.rank() == 0)
            f.kind = Field::Kind::literal;
        else
            f.kind = Field::Kind::buffer;
        BURN_CHECK(v.rank() <= 8, "[onnx] burn-onnx generate: constant '", name, "' has rank ", v.rank());
        std::string want;
        if ((init && !is_auto_name(name)) || (!init && f.kind == Field::Kind::literal)) {
            want = sanitize(name);  // a named weight, or a Constant node's output
        } else if (reader) {
            const std::string path = module_path(reader->name);
            want = sanitize((path.empty() ? reader->name : path) + "_" + input_role(reader->op_type, index));
        } else {
            want = sanitize(name);
        }
        if (f.kind == Field::Kind::literal) {
            // equal small constants (every Clip's 0 and 6 in MobileNetV2) are written once
            const TensorData data = ops::into_data(v);
            for (std::size_t i : u.literals) {
                const TensorData other = ops::into_data(*u.fields_all[i].value);
                if (other.dtype() == data.dtype() && other.shape() == data.shape() &&
                    other.bytes() == data.bytes()) {
                    u.field_of[slot] = i;
                    return;
                }
            }
            f.name = want;  // a local: named with the locals below
            u.literals.push_back(u.fields_all.size());
        } else {
            f.name = fields.take(want);
            u.fields.push_back(f);
        }
        u.field_of[slot] = u.fields_all.size();
        u.fields_all.push_back(f);
    };
    for (const Step& st : plan.steps)
        for (std::size_t k = 0; k < st.in.size(); ++k)
            if (st.in[k] >= 0 && plan.constants[static_cast<std::size_t>(st.in[k])].defined())
                add_constant(st.in[k], st.node, k);
    for (int s : plan.output_slots)
        if (plan.constants[static_cast<std::size_t>(s)].defined()) add_constant(s, nullptr, 0);
    lay_out(u);

    // Locals: the top-level members' names are taken first, then inputs, literals and node outputs.
    Namer locals;
    if (u.groups.empty())
        for (const Field& f : u.fields) locals.take(f.name);
    for (const Group& gr : u.groups) locals.take(gr.member);
    for (std::size_t i = 0; i < g.inputs.size(); ++i) {
        const std::string n = locals.take(sanitize(g.inputs[i].name));
        u.inputs.push_back(n);
        u.expr[plan.input_slots[i]] = n;
    }
    for (std::size_t i : u.literals) {
        Field& f = u.fields_all[i];
        f.name = locals.take(f.name);
        u.expr[f.slot] = f.name;
    }
    for (const Field& f : u.fields) u.expr[f.slot] = u.access(f) + ".val().handle()";
    for (const auto& [slot, i] : u.field_of) u.expr[slot] = u.expr.at(u.fields_all[i].slot);
    for (const Step& st : plan.steps) {
        StepNames sn;
        sn.spec = locals.take(sanitize(st.node->name) + "_spec");
        for (std::size_t k = 0; k < st.out.size(); ++k) {
            if (st.out[k] < 0) continue;
            const std::string n = locals.take(sanitize(st.node->outputs[k]));
            u.expr[st.out[k]] = n;
            if (k > 0 || sn.outs.empty()) sn.outs.resize(k + 1);
            sn.outs[k] = n;
        }
        sn.all = locals.take(sanitize(st.node->name) + "_outs");
        u.steps.push_back(sn);
    }
    return u;
}

CodegenResult generate_code(const std::string& model_path, const std::string& out_dir,
                            const CodegenOptions& options) {
    const std::filesystem::path p(model_path);
    const ModelIr ir =
        parse_model(platform::read_file(model_path, "onnx"),
                    p.has_parent_path() ? p.parent_path().string() : ".", p.filename().string());
    reject_subgraphs(ir.graph);
    const Device cpu = Device::cpu();
    LoadOptions as_written;  // the generated code names and calls the file's own nodes
    as_written.fuse_ops = false;
    const auto plan = compile(ir.graph, ir, cpu, p.filename().string(), as_written, true);
    Unit u = analyse(ir, *plan);
    u.name = options.name.empty() ? camel(p.stem().string()) : options.name;
    BURN_CHECK(sanitize(u.name) == u.name, "[onnx] burn-onnx generate: --name '", u.name,
               "' is not a C++ identifier (try '", sanitize(u.name), "')");
    u.ns = options.ns;
    u.source = p.filename().string();

    CodegenResult r;
    r.name = u.name;
    std::filesystem::create_directories(out_dir);
    r.header = (std::filesystem::path(out_dir) / (u.name + ".hpp")).string();
    r.burnpack = (std::filesystem::path(out_dir) / (u.name + ".bpk")).string();
    std::vector<store::TensorSnapshot> snaps;
    for (const Field& f : u.fields) {
        const std::string path = f.group == kNoGroup ? f.name : u.groups[f.group].member + "." + f.name;
        snaps.push_back({path, *f.value, 0, f.kind == Field::Kind::buffer, ""});
        (f.kind == Field::Kind::param ? r.params : r.buffers)++;
    }
    r.literals = u.literals.size();
    store::BurnpackStore bpk(r.burnpack);
    bpk.metadata("burn.onnx.source", u.source);
    bpk.save(snaps);
    const std::string text = write_unit(u, r);
    platform::write_file_atomic(r.header, text, "burn-onnx generate");
    return r;
}

}  // namespace burn::onnx::detail
