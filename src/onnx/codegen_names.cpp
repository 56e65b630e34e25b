// Names and literals for generated code (codegen.hpp).
#include <cctype>
#include <cmath>
#include <cstdio>
#include <set>

#include "onnx/codegen.hpp"

namespace burn::onnx::detail {

std::string sanitize(const std::string& name) {
    static const std::set<std::string> reserved = {
        "alignas",   "alignof", "and",     "asm",      "auto",     "bool",    "break",     "case",
        "catch",     "char",    "class",   "const",    "continue", "default", "delete",    "do",
        "double",    "else",    "enum",    "explicit", "export",   "extern",  "false",     "float",
        "for",       "friend",  "goto",    "if",       "inline",   "int",     "long",      "mutable",
        "namespace", "new",     "not",     "operator", "or",       "private", "protected", "public",
        "register",  "return",  "short",   "signed",   "sizeof",   "static",  "struct",    "switch",
        "template",  "this",    "throw",   "true",     "try",      "typedef", "typename",  "union",
        "unsigned",  "using",   "virtual", "void",     "volatile", "while",   "xor",       "device",
        "burn",      "std",     "load",    "forward",  "m"};
    std::string out;
    for (const char ch : name) {
        const auto c = static_cast<unsigned char>(ch);
        if (std::isalnum(c))
            out += ch;
        else if (!out.empty() && out.back() != '_')
            out += '_';
    }
    while (!out.empty() && out.back() == '_') out.pop_back();
    if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0]))) out = "v_" + out;
    if (reserved.count(out) || out.rfind("burn_", 0) == 0) out += "_";
    return out;
}

std::string module_path(const std::string& node_name) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (start <= node_name.size()) {
        const std::size_t slash = node_name.find('/', start);
        const std::string seg =
            node_name.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
        if (!seg.empty()) parts.push_back(seg);
        if (slash == std::string::npos) break;
        start = slash + 1;
    }
    if (parts.size() < 2) return "";
    parts.pop_back();  // the node's own name ("Conv", "Add_1")
    std::vector<std::string> path;
    for (const std::string& p : parts) {
        // PyTorch scopes repeat their parent: /layer1/layer1.0/conv1 -> layer1.0, conv1
        if (!path.empty() && p.rfind(path.back() + ".", 0) == 0)
            path.back() = p;
        else
            path.push_back(p);
    }
    std::string out;
    for (const std::string& p : path) out += (out.empty() ? "" : ".") + p;
    return out;
}

std::string input_role(const std::string& op, std::size_t i) {
    if (op == "Conv" || op == "ConvTranspose" || op == "Gemm" || op == "LayerNormalization" ||
        op == "InstanceNormalization" || op == "GroupNormalization") {
        if (i == 1) return "weight";
        if (i == 2) return "bias";
    }
    if (op == "BatchNormalization") {
        static const char* const names[] = {"x", "weight", "bias", "running_mean", "running_var"};
        if (i < 5) return names[i];
    }
    if (op == "MatMul" && i == 1) return "weight";
    if (op == "Add" && i == 1) return "bias";
    if (op == "LSTM" || op == "GRU" || op == "RNN") {
        static const char* const names[] = {"x",         "w",         "r", "b", "sequence_lens",
                                            "initial_h", "initial_c", "p"};
        if (i < 8) return names[i];
    }
    return "in" + std::to_string(i);
}

std::string camel(const std::string& stem) {
    std::string out;
    bool up = true;
    for (const char ch : stem) {
        const auto c = static_cast<unsigned char>(ch);
        if (!std::isalnum(c)) {
            up = true;
            continue;
        }
        out += up ? static_cast<char>(std::toupper(c)) : ch;
        up = false;
    }
    if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0]))) out = "Model" + out;
    return out;
}

std::string quote(const std::string& s) {
    std::string out = "\"";
    for (const char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        if (ch == '"' || ch == '\\') {
            out += '\\';
            out += ch;
        } else if (c < 0x20 || c >= 0x7f) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\%03o", c);
            out += buf;
        } else {
            out += ch;
        }
    }
    return out + "\"";
}

std::string double_literal(double v) {
    if (std::isnan(v)) return "std::numeric_limits<double>::quiet_NaN()";
    if (std::isinf(v))
        return v > 0 ? "std::numeric_limits<double>::infinity()" : "-std::numeric_limits<double>::infinity()";
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    std::string s = buf;
    if (s.find_first_of(".en") == std::string::npos) s += ".0";
    return s;
}

std::string dtype_expr(DType d) {
    return d == DType::boolean ? "burn::DType::boolean" : "burn::DType::" + std::string(name(d));
}

}  // namespace burn::onnx::detail
