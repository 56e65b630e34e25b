#pragma once
// The ONNX graph as the runtime and the code generator see it: plain structs, decoupled from
// protobuf (proto.cpp is the one file that reads ModelProto). Names follow onnx.proto.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "burn/tensor/data.hpp"

namespace burn::onnx::detail {

struct Graph;

/// One attribute of a node (AttributeProto): exactly one of the fields is meaningful, per kind.
struct Attribute {
    enum class Kind { f, i, s, t, g, floats, ints, strings, tensors, graphs };
    Kind kind = Kind::i;
    double f = 0;
    int64_t i = 0;
    std::string s;
    std::optional<TensorData> t;
    std::shared_ptr<Graph> g;
    std::vector<double> floats;
    std::vector<int64_t> ints;
    std::vector<std::string> strings;
    std::vector<TensorData> tensors;
    std::vector<std::shared_ptr<Graph>> graphs;
};

const char* kind_name(Attribute::Kind k);

struct Node {
    std::string name;                  // may be empty in the file; the loader fills "<op_type>_<index>"
    std::string op_type;               // "Conv"
    std::string domain;                // "" (ai.onnx) or "com.microsoft", ...
    std::vector<std::string> inputs;   // "" = an omitted optional input
    std::vector<std::string> outputs;  // "" = an omitted optional output
    std::map<std::string, Attribute> attrs;
};

/// A dim of a declared shape: a size, a symbolic name ("batch"), or unknown.
struct Dim {
    int64_t size = -1;  // >= 0 when known
    std::string param;  // dim_param
};

/// A declared value (graph input, output or value_info): element type and shape when given.
struct ValueInfo {
    std::string name;
    std::optional<DType> dtype;  // nullopt: not a tensor or a type this build cannot hold
    int32_t onnx_type = 0;       // TensorProto.DataType as declared (for messages)
    std::optional<std::vector<Dim>> shape;
};

struct Graph {
    std::string name;
    std::vector<Node> nodes;
    std::vector<ValueInfo> inputs;  // graph inputs that are not initializers
    std::vector<ValueInfo> outputs;
    std::map<std::string, ValueInfo> value_info;
    std::map<std::string, TensorData> initializers;
};

/// The model: the main graph and the opset of each domain it imports.
struct ModelIr {
    int64_t ir_version = 0;
    std::map<std::string, int64_t> opsets;  // "" -> default-domain opset
    std::string producer;                   // "pytorch 1.13.1"
    Graph graph;

    int64_t opset(const std::string& domain) const;
};

/// Prefix for errors about a node: "[onnx] node '/conv1/Conv' (Conv)".
std::string node_label(const Node& node);

/// The ONNX name of a TensorProto.DataType code ("FLOAT", "INT64", ...; "type 42" when unknown).
std::string onnx_type_name(int32_t code);
/// The burn dtype of a TensorProto.DataType code, or nullopt (string, complex, uint16, ...).
std::optional<DType> dtype_of_onnx(int32_t code);
/// The TensorProto.DataType code of a burn dtype.
int32_t onnx_of_dtype(DType dtype);

}  // namespace burn::onnx::detail
