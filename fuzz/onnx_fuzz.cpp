// libFuzzer target: ONNX models as users load them: Model::from_bytes parses the protobuf (tensors,
// attributes, subgraphs, value infos), checks and orders the graph and lists missing ops. Constant
// folding is off: running ops on arbitrary graphs would measure allocation limits, not the loader.
// The same bytes also go through the wire-format decoder of builds without protobuf (proto_wire.cpp).
#include <cstddef>
#include <cstdint>
#include <string>

#include "burn/core/error.hpp"
#include "burn/onnx/model.hpp"
#include "onnx/proto.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
    burn::onnx::LoadOptions options;
    options.fold_constants = false;
    try {
        auto model = burn::onnx::Model::from_bytes(std::string(reinterpret_cast<const char*>(data), size),
                                                   burn::Device::cpu(), "", "fuzz.onnx", options);
        (void)model.inputs();
        (void)model.op_histogram();
    } catch (const burn::Error&) {
    }
    try {
        (void)burn::onnx::detail::parse_model_wire(std::string(reinterpret_cast<const char*>(data), size), "",
                                                   "fuzz.onnx");
    } catch (const burn::Error&) {
    }
    return 0;
}
