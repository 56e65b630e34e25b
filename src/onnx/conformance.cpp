// ONNX backend test cases: load model.onnx, run every test_data_set_N, compare with output_K.pb.
#include "burn/onnx/conformance.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <sstream>

#include "burn/onnx/model.hpp"
#include "burn/tensor/ops.hpp"
#include "onnx/proto.hpp"
#include "platform/files.hpp"

namespace burn::onnx {

namespace fs = std::filesystem;

namespace {

std::vector<fs::path> numbered(const fs::path& dir, const std::string& prefix, const std::string& suffix) {
    std::vector<fs::path> out;
    for (int i = 0;; ++i) {
        fs::path p = dir / (prefix + std::to_string(i) + suffix);
        if (!fs::exists(p)) break;
        out.push_back(p);
    }
    return out;
}

/// "" when got matches want, else the first difference.
std::string compare(const TensorData& got, const TensorData& want, double rtol, double atol) {
    std::ostringstream os;
    if (got.dtype() != want.dtype()) {
        os << "dtype " << got.dtype() << ", expected " << want.dtype();
        return os.str();
    }
    if (got.shape() != want.shape()) {
        os << "shape " << got.shape() << ", expected " << want.shape();
        return os.str();
    }
    const bool exact = !is_float(want.dtype());
    for (int64_t i = 0; i < want.numel(); ++i) {
        const double g = got.value_as_double(i), w = want.value_as_double(i);
        const bool ok = exact ? g == w
                              : (std::isnan(w)   ? std::isnan(g)
                                 : std::isinf(w) ? g == w
                                                 : std::fabs(g - w) <= atol + rtol * std::fabs(w));
        if (!ok) {
            os << "element " << i << " is " << g << ", expected " << w << " (shape " << want.shape() << ")";
            return os.str();
        }
    }
    return "";
}

}  // namespace

const char* status_name(CaseResult::Status s) {
    switch (s) {
        case CaseResult::Status::passed:
            return "passed";
        case CaseResult::Status::failed:
            return "FAILED";
        case CaseResult::Status::unsupported:
            return "unsupported";
        default:
            return "ERROR";
    }
}

TensorData read_tensor_pb(const std::string& path) {
    return detail::parse_tensor(platform::read_file(path, "onnx"), path);
}

CaseResult run_backend_case(const std::string& dir, const Device& device, double rtol, double atol) {
    CaseResult r;
    r.name = fs::path(dir).filename().string();
    std::optional<Model> model;
    try {
        model.emplace(Model::load((fs::path(dir) / "model.onnx").string(), device));
    } catch (const Error& e) {
        const std::string m = e.what();
        r.status = m.find("this build lacks") != std::string::npos ? CaseResult::Status::unsupported
                                                                   : CaseResult::Status::error;
        r.message = m;
        return r;
    }
    try {
        for (int set = 0;; ++set) {
            const fs::path data = fs::path(dir) / ("test_data_set_" + std::to_string(set));
            if (!fs::exists(data)) break;
            std::vector<TensorAny> inputs;
            for (const fs::path& p : numbered(data, "input_", ".pb"))
                inputs.push_back(ops::from_data(read_tensor_pb(p.string()), device));
            const auto wants = numbered(data, "output_", ".pb");
            // Optional inputs a case leaves out are not graph inputs: pass what the model declares.
            if (inputs.size() > model->inputs().size()) inputs.resize(model->inputs().size());
            const std::vector<TensorAny> outs = model->run(inputs);
            for (std::size_t k = 0; k < wants.size() && k < outs.size(); ++k) {
                const std::string diff =
                    compare(ops::into_data(outs[k]), read_tensor_pb(wants[k].string()), rtol, atol);
                if (!diff.empty()) {
                    r.status = CaseResult::Status::failed;
                    r.message = "data set " + std::to_string(set) + ", output '" + model->outputs()[k].name +
                                "': " + diff;
                    return r;
                }
            }
        }
    } catch (const Error& e) {
        r.status = CaseResult::Status::error;
        r.message = e.what();
        return r;
    }
    r.status = CaseResult::Status::passed;
    return r;
}

std::vector<std::string> find_backend_cases(const std::vector<std::string>& paths) {
    std::vector<std::string> out;
    for (const std::string& p : paths) {
        if (fs::exists(fs::path(p) / "model.onnx")) {
            out.push_back(p);
            continue;
        }
        if (!fs::is_directory(p)) continue;
        for (const auto& e : fs::directory_iterator(p))
            if (e.is_directory() && fs::exists(e.path() / "model.onnx")) out.push_back(e.path().string());
    }
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace burn::onnx
