#pragma once
// Reading a serialized ModelProto into the runtime's graph (proto.cpp; the only protobuf user).
#include <string>

#include "onnx/graph.hpp"

namespace burn::onnx::detail {

/// Parses bytes (a serialized ModelProto). folder: where external data files live ("" forbids
/// external data); what: the model's name in errors. Throws burn::IoError / ShapeError / DTypeError
/// naming the tensor, node or field at fault.
ModelIr parse_model(const std::string& bytes, const std::string& folder, const std::string& what);

/// Parses a serialized TensorProto (the input_N.pb / output_N.pb files of ONNX's backend tests).
TensorData parse_tensor(const std::string& bytes, const std::string& what);

}  // namespace burn::onnx::detail
