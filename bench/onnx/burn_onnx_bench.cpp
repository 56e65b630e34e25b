// burn's side of bench/onnx/run.sh: loads an .onnx model on a device (the CPU by default), runs it on
// one input (.npy) a few times to warm up, then times `runs` more runs and prints the median and the minimum
// in milliseconds as one JSON line; writes the first output to OUT.npy so that run.sh can compare it with
// onnxruntime's and PyTorch's.
//
//   burn_onnx_bench MODEL.onnx INPUT.npy [--out OUT.npy] [--device D] [--threads N] [--warmup W] [--runs R]
//                   [--no-fuse]   (LoadOptions::fuse_ops off: every node as written)
//   D: a device as Device::parse reads it ("cpu", "cuda", "cuda:1"); each timed run ends with a sync.
#include <algorithm>
#include <burn/burn.hpp>
#include <burn/onnx/model.hpp>
#include <burn/store/npy.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

using namespace burn;

int main(int argc, char** argv) {
    std::string model_path, input_path, out_path, device_name = "cpu";
    int threads = 0, warmup = 3, runs = 20;
    onnx::LoadOptions options;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const bool has_value = i + 1 < argc;
        if (a == "--out" && has_value) {
            out_path = argv[++i];
        } else if (a == "--device" && has_value) {
            device_name = argv[++i];
        } else if (a == "--threads" && has_value) {
            threads = std::atoi(argv[++i]);
        } else if (a == "--warmup" && has_value) {
            warmup = std::max(0, std::atoi(argv[++i]));
        } else if (a == "--runs" && has_value) {
            runs = std::max(1, std::atoi(argv[++i]));
        } else if (a == "--no-fuse") {
            options.fuse_ops = false;
        } else if (a.rfind("--", 0) != 0 && model_path.empty()) {
            model_path = a;
        } else if (a.rfind("--", 0) != 0 && input_path.empty()) {
            input_path = a;
        } else {
            model_path.clear();
            break;
        }
    }
    if (model_path.empty() || input_path.empty()) {
        std::fprintf(stderr,
                     "usage: burn_onnx_bench MODEL.onnx INPUT.npy [--out OUT.npy] [--device D] [--threads N] "
                     "[--warmup W] [--runs R] [--no-fuse]\n");
        return 2;
    }
    try {
        if (threads > 0) set_num_threads(threads);
        const Device device = Device::parse(device_name);
        const auto model = onnx::Model::load(model_path, device, options);
        const TensorAny x = ops::from_data(read_npy(input_path), device);
        TensorAny y;
        for (int r = 0; r < warmup; ++r) y = model.run({x})[0];
        device.sync();
        std::vector<double> ms;
        for (int r = 0; r < runs; ++r) {
            const auto t0 = std::chrono::steady_clock::now();
            y = model.run({x})[0];
            device.sync();
            ms.push_back(
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
        }
        std::sort(ms.begin(), ms.end());
        if (!out_path.empty()) write_npy(out_path, ops::into_data(y));
        std::printf("{\"median_ms\": %.4f, \"min_ms\": %.4f, \"runs\": %d, \"threads\": %d}\n",
                    ms[ms.size() / 2], ms.front(), runs, num_threads());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "burn_onnx_bench: %s\n", e.what());
        return 1;
    }
    return 0;
}
