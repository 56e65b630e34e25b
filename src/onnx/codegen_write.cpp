// burn-onnx generate: the text of the generated header (codegen_unit.hpp says what it holds).
#include <sstream>

#include "onnx/codegen_unit.hpp"

namespace burn::onnx::detail {

namespace {

std::string dims_text(const Dims& d) {
    std::string s = "{";
    for (int i = 0; i < d.rank(); ++i) s += (i ? ", " : "") + std::to_string(d[i]);
    return s + "}";
}

std::string field_tensor_type(const TensorAny& v) {
    const std::string r = std::to_string(v.rank());
    if (is_float(v.dtype())) return "burn::Tensor<" + r + ">";
    if (v.dtype() == DType::boolean) return "burn::Tensor<" + r + ", burn::Bool>";
    return "burn::Tensor<" + r + ", burn::Int>";
}

/// The values of data as literal arguments: "burn::DType::i64, {2}, {1, -1}" (ints or doubles, exact).
std::string literal_args(const TensorData& data, bool& floats) {
    std::ostringstream os;
    os << dtype_expr(data.dtype()) << ", " << dims_text(data.shape()) << ", {";
    floats = is_float(data.dtype());
    if (floats) {
        const auto v = data.convert(DType::f64).to_vec<double>();
        for (std::size_t i = 0; i < v.size(); ++i) os << (i ? ", " : "") << double_literal(v[i]);
    } else {
        const auto v = data.convert(DType::i64).to_vec<int64_t>();
        for (std::size_t i = 0; i < v.size(); ++i) os << (i ? ", " : "") << v[i];
    }
    os << "}";
    return os.str();
}

std::string attr_text(const Node& n, const std::string& key, const Attribute& a) {
    std::ostringstream os;
    const std::string k = quote(key);
    auto join = [](const auto& v, auto fmt) {
        std::string s = "{";
        for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + fmt(v[i]);
        return s + "}";
    };
    switch (a.kind) {
        case Attribute::Kind::i:
            return ".i(" + k + ", " + std::to_string(a.i) + ")";
        case Attribute::Kind::f:
            return ".f(" + k + ", " + double_literal(a.f) + ")";
        case Attribute::Kind::s:
            return ".s(" + k + ", " + quote(a.s) + ")";
        case Attribute::Kind::ints:
            return ".ints(" + k + ", " + join(a.ints, [](int64_t v) { return std::to_string(v); }) + ")";
        case Attribute::Kind::floats:
            return ".floats(" + k + ", " + join(a.floats, double_literal) + ")";
        case Attribute::Kind::strings:
            return ".strings(" + k + ", " + join(a.strings, quote) + ")";
        case Attribute::Kind::t: {
            BURN_CHECK(a.t && a.t->numel() <= 4096, node_label(n), ": tensor attribute '", key,
                       "' is too large to write as a literal (", a.t ? a.t->numel() : 0,
                       " elements); burn-onnx generate writes tensor attributes up to 4096 elements");
            bool floats = false;
            const std::string args = literal_args(*a.t, floats);
            return ".t(" + k + ", burn::onnx::data_of_" + (floats ? "floats(" : "ints(") + args + "))";
        }
        default:
            BURN_THROW(node_label(n), ": attribute '", key, "' of type ", kind_name(a.kind),
                       " cannot be written by burn-onnx generate");
    }
}

std::string value_doc(const ValueInfo& v) {
    std::string s = v.name + ": " + (v.dtype ? std::string(name(*v.dtype)) : onnx_type_name(v.onnx_type));
    if (!v.shape) return s;
    s += " [";
    for (std::size_t i = 0; i < v.shape->size(); ++i) {
        const Dim& d = (*v.shape)[i];
        s += (i ? ", " : "") + (d.size >= 0 ? std::to_string(d.size) : d.param.empty() ? "?" : d.param);
    }
    return s + "]";
}

void write_field(std::ostringstream& os, const Field& f, const std::string& indent) {
    const std::string type = field_tensor_type(*f.value);
    os << indent << (f.kind == Field::Kind::param ? "burn::Param<" : "burn::Buffer<") << type << "> "
       << f.name << ";  // " << name(f.value->dtype()) << " " << f.value->shape()
       << (f.initializer ? " <- " : " <- folded ") << f.onnx_name << "\n";
}

std::string module_macro(const std::string& type, const std::vector<std::string>& fields) {
    std::string s = "BURN_MODULE(" + type;
    for (const std::string& f : fields) s += ", " + f;
    return s + ")";
}

/// One step's statement(s); counts direct calls in r.
void write_step(std::ostringstream& os, const Unit& u, const Step& st, const StepNames& sn,
                CodegenResult& r) {
    const Node& n = *st.node;
    os << "        // " << n.name << " (" << (n.domain.empty() ? "" : n.domain + ".") << n.op_type << ")\n";
    std::vector<std::string> in;
    std::vector<const TensorAny*> known;
    for (int s : st.in) {
        in.push_back(s < 0 ? "" : u.expr.at(s));
        const bool is_const = s >= 0 && u.plan->constants[static_cast<std::size_t>(s)].defined();
        known.push_back(is_const ? &u.plan->constants[static_cast<std::size_t>(s)] : nullptr);
    }
    ++r.nodes;
    const bool single = st.out.size() == 1 && st.out[0] >= 0;
    if (st.entry->emit && single) {
        const std::vector<TensorAny> none;
        const OpContext op(n, st.opset, Device::cpu(), none);
        const std::string e = st.entry->emit(EmitContext{op, in, known});
        if (!e.empty()) {
            os << "        burn::TensorAny " << sn.outs[0] << " = " << e << ";\n";
            ++r.direct;
            return;
        }
    }
    os << "        static const burn::onnx::NodeSpec " << sn.spec << " = burn::onnx::NodeSpec("
       << quote(n.op_type) << ", " << st.opset << ", " << quote(n.name)
       << (n.domain.empty() ? "" : ", " + quote(n.domain)) << ")";
    for (const auto& [key, a] : n.attrs) os << "\n            " << attr_text(n, key, a);
    if (!single) {
        os << "\n            .outputs({";
        for (std::size_t k = 0; k < n.outputs.size(); ++k) os << (k ? ", " : "") << quote(n.outputs[k]);
        os << "})";
    }
    os << ";\n";
    std::string args = "{";
    for (std::size_t k = 0; k < in.size(); ++k)
        args += (k ? ", " : "") + (in[k].empty() ? "burn::TensorAny()" : in[k]);
    args += "}";
    if (single) {
        os << "        burn::TensorAny " << sn.outs[0] << " = burn::onnx::call(" << sn.spec << ", " << args
           << ", device)[0];\n";
        return;
    }
    os << "        std::vector<burn::TensorAny> " << sn.all << " = burn::onnx::call(" << sn.spec << ", "
       << args << ", device);\n";
    for (std::size_t k = 0; k < sn.outs.size(); ++k)
        if (!sn.outs[k].empty())
            os << "        burn::TensorAny " << sn.outs[k] << " = " << sn.all << "[" << k << "];\n";
}

}  // namespace

std::string write_unit(const Unit& u, CodegenResult& r) {
    const Graph& g = u.ir->graph;
    std::ostringstream body;
    for (std::size_t i = 0; i < u.plan->steps.size(); ++i)
        write_step(body, u, u.plan->steps[i], u.steps[i], r);

    std::ostringstream os;
    os << "// Generated by `burn-onnx generate` from " << u.source << " (opset " << u.ir->opset("")
       << (u.ir->producer.empty() ? "" : ", " + u.ir->producer) << "): do not edit.\n"
       << "// " << g.nodes.size() << " nodes in the file -> " << r.nodes << " statements (" << r.direct
       << " direct burn calls, " << r.nodes - r.direct
       << " through burn::onnx::call, which runs the runtime's op\n"
       << "// table entry); " << u.fields.size() << " weight tensors in " << u.name << ".bpk, "
       << u.literals.size() << " small constants written inline.\n"
       << "#pragma once\n#include <array>\n#include <limits>\n#include <optional>\n#include <string>\n"
       << "#include <vector>\n\n#include <burn/burn.hpp>\n#include <burn/onnx/node_call.hpp>\n"
       << "#include <burn/store/burnpack.hpp>\n\n";
    if (!u.ns.empty()) os << "namespace " << u.ns << " {\n\n";
    os << "struct " << u.name << " {\n";
    std::vector<std::string> members;
    if (u.groups.empty()) {
        for (const Field& f : u.fields) {
            write_field(os, f, "    ");
            members.push_back(f.name);
        }
    } else {
        for (const Group& gr : u.groups) {
            os << "    struct " << gr.type << " {\n";
            std::vector<std::string> names;
            for (std::size_t i : gr.fields) {
                write_field(os, u.fields[i], "        ");
                names.push_back(u.fields[i].name);
            }
            os << "        " << module_macro(gr.type, names) << "\n    };\n";
        }
        for (const Group& gr : u.groups) {
            os << "    " << gr.type << " " << gr.member << ";\n";
            members.push_back(gr.member);
        }
    }
    if (members.empty()) {
        os << "    int burn_no_weights = 0;\n";
        members.push_back("burn_no_weights");
    }
    os << "    " << module_macro(u.name, members) << "\n\n";
    os << "    /// The weights file burn-onnx generate wrote beside this header.\n"
       << "    static constexpr const char* burnpack_file = " << quote(u.name + ".bpk") << ";\n\n"
       << "    /// Reads the weights (" << u.name << ".bpk) onto device.\n"
       << "    static " << u.name << " load(const std::string& bpk, const burn::Device& device) {\n"
       << "        " << u.name << " m;\n";
    if (!u.fields.empty())
        os << "        auto empty = [&](burn::Dims shape, burn::DType dtype) { return "
              "burn::ops::empty(shape, dtype, "
              "device); };\n";
    for (const Field& f : u.fields)
        os << "        m." << u.access(f) << " = " << field_tensor_type(*f.value) << "(empty("
           << dims_text(f.value->shape()) << ", " << dtype_expr(f.value->dtype()) << "));\n";
    os << "        burn::store::BurnpackStore store(bpk);\n"
       << "        m.load_from(store);\n"
       << "        return m;\n    }\n\n";
    os << "    /// Inputs: ";
    for (std::size_t i = 0; i < g.inputs.size(); ++i) os << (i ? "; " : "") << value_doc(g.inputs[i]);
    os << ".\n    /// Returns: ";
    for (std::size_t i = 0; i < g.outputs.size(); ++i) os << (i ? "; " : "") << value_doc(g.outputs[i]);
    os << ".\n    std::vector<burn::TensorAny> forward(";
    for (std::size_t i = 0; i < u.inputs.size(); ++i)
        os << (i ? ", " : "") << "burn::TensorAny " << u.inputs[i];
    os << ") const {\n";
    const bool generic = r.direct < r.nodes;
    if (!u.inputs.empty() || !u.literals.empty() || generic) {
        os << "        const burn::Device device = ";
        if (!u.fields.empty())
            os << u.access(u.fields[0]) << ".val().device();\n";
        else if (!u.inputs.empty())
            os << u.inputs[0] << ".device();\n";
        else
            os << "burn::Device();\n";
        for (const std::string& in : u.inputs)
            os << "        " << in << " = burn::ops::to_device(" << in << ", device);\n";
    }
    for (std::size_t i : u.literals) {
        const Field& f = u.fields_all[i];
        bool floats = false;
        const std::string args = literal_args(ops::into_data(*f.value), floats);
        os << "        const burn::TensorAny " << f.name << " = burn::onnx::literal_"
           << (floats ? "floats(" : "ints(") << args << ", device);  // " << f.onnx_name << "\n";
    }
    os << body.str();
    os << "        return {";
    for (std::size_t i = 0; i < u.plan->output_slots.size(); ++i)
        os << (i ? ", " : "") << u.expr.at(u.plan->output_slots[i]);
    os << "};\n    }\n};\n";
    if (!u.ns.empty()) os << "\n}  // namespace " << u.ns << "\n";
    return os.str();
}

}  // namespace burn::onnx::detail
