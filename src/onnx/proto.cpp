// ModelProto -> ModelIr through protobuf (Debian's libonnx onnx-ml.pb.h, onnx.proto 1.12): the
// generated classes decode, proto_convert.hpp checks and converts. Builds without protobuf
// (WebAssembly) use proto_wire.cpp's decoder instead, with the same conversion.
#include "onnx/proto.hpp"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <onnx/onnx_pb.h>

#include <climits>

#include "onnx/proto_convert.hpp"

namespace burn::onnx::detail {

TensorData parse_tensor(const std::string& bytes, const std::string& what) {
    ::onnx::TensorProto t;
    BURN_CHECK_KIND(t.ParseFromString(bytes), io, "[onnx] ", what, " is not a valid TensorProto");
    return convert::tensor_of(t, convert::Reader{"", what}, what);
}

ModelIr parse_model(const std::string& bytes, const std::string& folder, const std::string& what) {
    ::onnx::ModelProto m;
    google::protobuf::io::ArrayInputStream raw(
        bytes.data(), static_cast<int>(std::min<std::size_t>(bytes.size(), INT_MAX)));
    google::protobuf::io::CodedInputStream in(&raw);
    in.SetTotalBytesLimit(INT_MAX);
    in.SetRecursionLimit(256);
    BURN_CHECK_KIND(bytes.size() < std::size_t(INT_MAX), io, "[onnx] ", what, " is ", bytes.size(),
                    " bytes; a protobuf file is at most 2 GiB (store large weights as external data)");
    BURN_CHECK_KIND(
        m.ParseFromCodedStream(&in) && in.ConsumedEntireMessage(), io, "[onnx] ", what,
        " is not a valid ONNX model (the protobuf does not parse: truncated or not an .onnx file)");
    return convert::model_of(m, folder, what);
}

}  // namespace burn::onnx::detail
