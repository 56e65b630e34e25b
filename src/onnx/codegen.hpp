#pragma once
// `burn-onnx generate`: an ONNX model as a C++ BURN_MODULE struct (a header) plus a Burnpack of its
// weights. The generator compiles the graph as the runtime does (order, fold constants, drop dead
// nodes: plan.hpp), then writes one statement per remaining node: a direct burn call where the op's
// table entry has an emitter (codegen_emit.cpp), burn::onnx::call through the same entry otherwise.
#include <cstddef>
#include <string>
#include <vector>

#include "onnx/graph.hpp"

namespace burn::onnx::detail {

struct CodegenOptions {
    std::string name;  // the struct's name; "" = from the file name (resnet18.onnx -> Resnet18)
    std::string ns;    // a namespace around it ("" = none; "a::b" nests)
};

struct CodegenResult {
    std::string name, header, burnpack;  // the struct's name and the files written
    std::size_t nodes = 0, direct = 0;   // statements written, and how many of them are direct calls
    std::size_t params = 0, buffers = 0, literals = 0;
};

/// Reads model_path and writes out_dir/<Name>.hpp and out_dir/<Name>.bpk. Throws burn::Error naming
/// the node for what generated code cannot express (subgraphs: If, Loop, Scan).
CodegenResult generate_code(const std::string& model_path, const std::string& out_dir,
                            const CodegenOptions& options);

// ---- naming helpers (codegen_names.cpp)

/// A C++ identifier from any name: [A-Za-z0-9_] kept, runs of others become one '_', a leading digit
/// or a C++ keyword gets a prefix/suffix.
std::string sanitize(const std::string& name);
/// The PyTorch module path in a node name: "/layer1/layer1.0/conv1/Conv" -> "layer1.0.conv1"
/// ("" when the name has no scope).
std::string module_path(const std::string& node_name);
/// What input i of an op is called in a field name: Conv 1 -> "weight", 2 -> "bias"; else "in<i>".
std::string input_role(const std::string& op_type, std::size_t i);
/// "resnet18_opset13" -> "Resnet18Opset13".
std::string camel(const std::string& stem);
/// A C++ string literal.
std::string quote(const std::string& s);
/// A C++ double literal that reads back as exactly v (infinities and NaN included).
std::string double_literal(double v);
/// The C++ spelling of a dtype ("burn::DType::f32").
std::string dtype_expr(DType d);

}  // namespace burn::onnx::detail
