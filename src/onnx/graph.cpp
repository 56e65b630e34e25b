// The graph's small helpers: ONNX dtype codes, attribute kind names, opsets, node labels.
#include "onnx/graph.hpp"

namespace burn::onnx::detail {

// ---- dtype codes (TensorProto.DataType)

namespace {

struct TypeCode {
    int32_t code;
    const char* name;
    std::optional<DType> dtype;
};

const TypeCode kTypes[] = {
    {0, "UNDEFINED", std::nullopt},   {1, "FLOAT", DType::f32},      {2, "UINT8", DType::u8},
    {3, "INT8", DType::i8},           {4, "UINT16", std::nullopt},   {5, "INT16", DType::i16},
    {6, "INT32", DType::i32},         {7, "INT64", DType::i64},      {8, "STRING", std::nullopt},
    {9, "BOOL", DType::boolean},      {10, "FLOAT16", DType::f16},   {11, "DOUBLE", DType::f64},
    {12, "UINT32", std::nullopt},     {13, "UINT64", std::nullopt},  {14, "COMPLEX64", std::nullopt},
    {15, "COMPLEX128", std::nullopt}, {16, "BFLOAT16", DType::bf16},
};

}  // namespace

std::string onnx_type_name(int32_t code) {
    for (const TypeCode& t : kTypes)
        if (t.code == code) return t.name;
    return "type " + std::to_string(code);
}

std::optional<DType> dtype_of_onnx(int32_t code) {
    for (const TypeCode& t : kTypes)
        if (t.code == code) return t.dtype;
    return std::nullopt;
}

int32_t onnx_of_dtype(DType dtype) {
    for (const TypeCode& t : kTypes)
        if (t.dtype == dtype) return t.code;
    return 0;
}

const char* kind_name(Attribute::Kind k) {
    static const char* const names[] = {"float",  "int",  "string",  "tensor",  "graph",
                                        "floats", "ints", "strings", "tensors", "graphs"};
    return names[static_cast<int>(k)];
}

int64_t ModelIr::opset(const std::string& domain) const {
    auto it = opsets.find(domain == "ai.onnx" ? "" : domain);
    return it == opsets.end() ? 0 : it->second;
}

std::string node_label(const Node& node) {
    std::string op =
        node.domain.empty() || node.domain == "ai.onnx" ? node.op_type : node.domain + "." + node.op_type;
    return "[onnx] node '" + node.name + "' (" + op + ")";
}

}  // namespace burn::onnx::detail
