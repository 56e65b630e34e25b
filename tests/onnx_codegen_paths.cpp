// Where burn_onnx_generate wrote the fixture models' code for burn_tests (tests/CMakeLists.txt): only
// this file carries the path, so the other test objects stay identical between checkouts.
#include <string>

namespace burn::testing {

std::string onnx_generated_bpk(const std::string& name) {
    return std::string(BURN_ONNX_GENERATED_DIR) + "/" + name + "/" + name + ".bpk";
}

}  // namespace burn::testing
