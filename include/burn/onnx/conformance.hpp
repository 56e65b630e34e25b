#pragma once
/// ONNX's backend test cases (onnx/backend/test/data/node/<case>/: model.onnx and test_data_set_N/
/// with input_K.pb and output_K.pb): run one case and compare with its expected outputs, as
/// `burn-onnx check DIR...` does (docs/onnx.md).
#include <string>
#include <vector>

#include "burn/core/device.hpp"
#include "burn/tensor/data.hpp"

namespace burn::onnx {

struct CaseResult {
    enum class Status { passed, failed, unsupported, error };
    std::string name;  // the case folder's name ("test_add")
    Status status = Status::error;
    std::string message;  // why it failed: the first mismatch, or the load/run error
};

const char* status_name(CaseResult::Status s);

/// Runs the case in folder dir on device: every test_data_set_N, outputs compared in float64 with
/// |got - want| <= atol + rtol * |want| (NaN matches NaN; integer and bool outputs exactly).
CaseResult run_backend_case(const std::string& dir, const Device& device, double rtol = 1e-3,
                            double atol = 1e-6);

/// The case folders under each path (a path that holds model.onnx is a case itself), sorted.
std::vector<std::string> find_backend_cases(const std::vector<std::string>& paths);

/// A serialized TensorProto file (input_0.pb) as data.
TensorData read_tensor_pb(const std::string& path);

}  // namespace burn::onnx
