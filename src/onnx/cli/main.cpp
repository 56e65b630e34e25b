// burn-onnx: the ONNX command line (docs/onnx.md).
//   burn-onnx info M                      inputs, outputs, opsets, op histogram, unsupported ops
//   burn-onnx run M -i NAME=FILE.npy ... -o OUTDIR [--device cpu|cuda]
//                                         writes OUTDIR/<output name>.npy for every graph output
//   burn-onnx check DIR... [--device D] [--quiet]
//                                         runs ONNX backend-test case folders, one line per case
//   burn-onnx generate M --out DIR [--name StructName] [--namespace ns]
//                                         writes DIR/<Name>.hpp (a BURN_MODULE struct) and DIR/<Name>.bpk
#include <burn/burn.hpp>
#include <burn/onnx/conformance.hpp>
#include <burn/onnx/model.hpp>
#include <burn/store/npy.hpp>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <set>
#include <string>
#include <vector>

#include "onnx/codegen.hpp"

namespace {

int usage() {
    std::cerr
        << "usage:\n"
           "  burn-onnx info MODEL.onnx\n"
           "  burn-onnx run MODEL.onnx -i NAME=FILE.npy [-i ...] -o OUTDIR [--device cpu|cuda]\n"
           "  burn-onnx check DIR... [--device cpu|cuda] [--quiet]   ONNX backend-test folders\n"
           "  burn-onnx ops                       the op types this build runs\n"
           "  burn-onnx generate MODEL.onnx --out DIR [--name StructName] [--namespace ns]\n"
           "                                      C++ code: DIR/<Name>.hpp and its weights DIR/<Name>.bpk\n";
    return 2;
}

std::string shape_text(const burn::onnx::ValueSpec& v) {
    if (!v.has_shape) return "?";
    std::string s = "[";
    for (std::size_t i = 0; i < v.shape.size(); ++i) {
        if (i) s += ", ";
        s += v.shape[i] >= 0 ? std::to_string(v.shape[i]) : (v.names[i].empty() ? "?" : v.names[i]);
    }
    return s + "]";
}

int info(const std::string& path) {
    try {
        const burn::onnx::ModelInfo m = burn::onnx::inspect(path);
        std::cout << path << ": IR version " << m.ir_version << ", opset " << m.opset << ", produced by "
                  << (m.producer.empty() ? "?" : m.producer) << "\n";
        for (const auto& v : m.inputs)
            std::cout << "  input  " << v.name << ": " << v.dtype << " " << shape_text(v) << "\n";
        for (const auto& v : m.outputs)
            std::cout << "  output " << v.name << ": " << v.dtype << " " << shape_text(v) << "\n";
        std::cout << "  " << m.num_nodes << " nodes:";
        for (const auto& [op, n] : m.op_histogram) std::cout << " " << op << " x" << n;
        std::cout << "\n";
        if (m.unsupported.empty()) {
            std::cout << "  every op is supported\n";
            return 0;
        }
        std::cout << "  " << m.unsupported.size() << " unsupported:";
        for (const auto& u : m.unsupported) std::cout << " " << u << ";";
        std::cout << "\n";
        return 3;
    } catch (const burn::Error& e) {
        std::cerr << e.what() << "\n";
        return 1;
    }
}

int run(int argc, char** argv) {
    std::string model_path = argv[2], out_dir, device_name = "cpu";
    std::vector<std::pair<std::string, std::string>> inputs;
    for (int i = 3; i < argc; ++i) {
        const std::string a = argv[i];
        if ((a == "-i" || a == "--input") && i + 1 < argc) {
            const std::string kv = argv[++i];
            const auto eq = kv.find('=');
            if (eq == std::string::npos) {
                std::cerr << "burn-onnx run: -i takes NAME=FILE.npy, got '" << kv << "'\n";
                return 2;
            }
            inputs.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
        } else if ((a == "-o" || a == "--out") && i + 1 < argc) {
            out_dir = argv[++i];
        } else if (a == "--device" && i + 1 < argc) {
            device_name = argv[++i];
        } else {
            return usage();
        }
    }
    if (out_dir.empty()) return usage();
    try {
        const burn::Device device = burn::Device::parse(device_name);
        auto model = burn::onnx::Model::load(model_path, device);
        std::map<std::string, burn::TensorAny> named;
        for (const auto& [name, file] : inputs)
            named[name] = burn::ops::from_data(burn::read_npy(file), device);
        const auto outs = model.run(named);
        std::filesystem::create_directories(out_dir);
        for (const auto& spec : model.outputs()) {
            const std::string file = (std::filesystem::path(out_dir) / (spec.name + ".npy")).string();
            burn::write_npy(file, burn::ops::into_data(outs.at(spec.name)));
            std::cout << spec.name << ": " << outs.at(spec.name).dtype() << " " << outs.at(spec.name).shape()
                      << " -> " << file << "\n";
        }
        return 0;
    } catch (const burn::Error& e) {
        std::cerr << e.what() << "\n";
        return 1;
    }
}

int check(int argc, char** argv) {
    std::vector<std::string> paths;
    std::string device_name = "cpu";
    bool quiet = false;
    for (int i = 2; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--device" && i + 1 < argc)
            device_name = argv[++i];
        else if (a == "--quiet")
            quiet = true;
        else
            paths.push_back(a);
    }
    if (paths.empty()) return usage();
    const burn::Device device = burn::Device::parse(device_name);
    std::map<std::string, int> counts;
    for (const std::string& dir : burn::onnx::find_backend_cases(paths)) {
        const auto r = burn::onnx::run_backend_case(dir, device);
        ++counts[burn::onnx::status_name(r.status)];
        if (!quiet || r.status != burn::onnx::CaseResult::Status::passed)
            std::cout << burn::onnx::status_name(r.status) << " " << r.name
                      << (r.message.empty() ? "" : ": " + r.message.substr(0, 300)) << "\n";
    }
    int total = 0;
    for (const auto& [_, n] : counts) total += n;
    std::cout << total << " cases:";
    for (const auto& [k, n] : counts) std::cout << " " << n << " " << k;
    std::cout << "\n";
    return counts.count("FAILED") || counts.count("ERROR") ? 1 : 0;
}

int generate(int argc, char** argv) {
    std::string model_path = argv[2], out_dir;
    burn::onnx::detail::CodegenOptions options;
    for (int i = 3; i < argc; ++i) {
        const std::string a = argv[i];
        if ((a == "-o" || a == "--out") && i + 1 < argc)
            out_dir = argv[++i];
        else if (a == "--name" && i + 1 < argc)
            options.name = argv[++i];
        else if (a == "--namespace" && i + 1 < argc)
            options.ns = argv[++i];
        else
            return usage();
    }
    if (out_dir.empty()) return usage();
    try {
        const auto r = burn::onnx::detail::generate_code(model_path, out_dir, options);
        std::cout << r.header << ": struct " << r.name << ", " << r.nodes << " statements (" << r.direct
                  << " direct burn calls), " << r.params << " params, " << r.buffers << " buffers, "
                  << r.literals << " inline constants\n"
                  << r.burnpack << "\n";
        return 0;
    } catch (const burn::Error& e) {
        std::cerr << e.what() << "\n";
        return 1;
    }
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) return usage();
    const std::string cmd = argv[1];
    if (cmd == "ops") {
        for (const auto& op : burn::onnx::supported_ops()) std::cout << op << "\n";
        return 0;
    }
    if (argc < 3) return usage();
    if (cmd == "info") return info(argv[2]);
    if (cmd == "run") return run(argc, argv);
    if (cmd == "check") return check(argc, argv);
    if (cmd == "generate") return generate(argc, argv);
    return usage();
}
