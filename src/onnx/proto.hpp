#pragma once
// Reading a serialized ModelProto into the runtime's graph: proto.cpp through protobuf, proto_wire.cpp
// without it; both convert through proto_convert.hpp.
#include <string>

#include "onnx/graph.hpp"

namespace burn::onnx::detail {

/// Parses bytes (a serialized ModelProto). folder: where external data files live ("" forbids
/// external data); what: the model's name in errors. Throws burn::IoError / ShapeError / DTypeError
/// naming the tensor, node or field at fault.
ModelIr parse_model(const std::string& bytes, const std::string& folder, const std::string& what);

/// Parses a serialized TensorProto (the input_N.pb / output_N.pb files of ONNX's backend tests).
TensorData parse_tensor(const std::string& bytes, const std::string& what);

/// The same two through the built-in wire-format decoder (proto_wire.cpp), which builds without
/// protobuf use (BURN_ONNX=WIRE: WebAssembly); with protobuf, the tests compare the two.
ModelIr parse_model_wire(const std::string& bytes, const std::string& folder, const std::string& what);
TensorData parse_tensor_wire(const std::string& bytes, const std::string& what);

}  // namespace burn::onnx::detail
