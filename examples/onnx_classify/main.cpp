// Classifies an image with an ImageNet classifier exported to ONNX (a torchvision ResNet-18, say): loads
// the .onnx file, runs it on the CPU or on CUDA, prints the top-5 classes with their probabilities and
// the time per image.
//
//   build/examples/onnx_classify MODEL.onnx [IMAGE.npy] [--device cpu|cuda] [--runs N]
//
// IMAGE.npy: float32 [1, 3, 224, 224] (or [3, 224, 224]), already normalized the way the model was
// trained (torchvision: RGB in [0, 1], minus mean (0.485, 0.456, 0.406), divided by std (0.229, 0.224,
// 0.225)). Without one, a deterministic synthetic image (smooth color gradients and rings, normalized
// the same way) is classified. Exporting a model: docs/onnx.md.
#include <algorithm>
#include <burn/burn.hpp>
#include <burn/onnx/model.hpp>
#include <burn/store/npy.hpp>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

using namespace burn;

namespace {

constexpr int64_t kSize = 224;

// A 224 x 224 RGB picture computed from its pixel coordinates (no file, the same on every machine),
// normalized with ImageNet's mean and std.
TensorData synthetic_image() {
    const float mean[3] = {0.485f, 0.456f, 0.406f}, stddev[3] = {0.229f, 0.224f, 0.225f};
    std::vector<float> px(static_cast<std::size_t>(3 * kSize * kSize));
    for (int64_t y = 0; y < kSize; ++y)
        for (int64_t x = 0; x < kSize; ++x) {
            const double u = static_cast<double>(x) / (kSize - 1), v = static_cast<double>(y) / (kSize - 1);
            const double r = std::hypot(u - 0.5, v - 0.5);
            const double rgb[3] = {0.5 + 0.5 * std::sin(12 * r), u * (1 - v),
                                   0.5 + 0.5 * std::cos(6 * u + 3 * v)};
            for (int c = 0; c < 3; ++c)
                px[static_cast<std::size_t>((c * kSize + y) * kSize + x)] =
                    (static_cast<float>(rgb[c]) - mean[c]) / stddev[c];
        }
    std::vector<uint8_t> bytes(px.size() * sizeof(float));
    std::memcpy(bytes.data(), px.data(), bytes.size());
    return TensorData(std::move(bytes), Dims{1, 3, kSize, kSize}, DType::f32);
}

TensorAny load_image(const std::string& path, const Device& device) {
    TensorData data = path.empty() ? synthetic_image() : read_npy(path);
    if (data.dtype() != DType::f32) data = data.convert(DType::f32);
    TensorAny x = ops::from_data(data, device);
    if (x.rank() == 3) x = ops::unsqueeze_dim(x, 0);
    if (x.rank() != 4 || x.shape()[1] != 3)
        throw std::runtime_error("the image must be f32 [N, 3, H, W] or [3, H, W], got " + x.shape().str());
    return x;
}

int usage() {
    std::fprintf(stderr, "usage: onnx_classify MODEL.onnx [IMAGE.npy] [--device cpu|cuda] [--runs N]\n");
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    std::string model_path, image_path, device_name = "cpu";
    int runs = 10;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--device" && i + 1 < argc)
            device_name = argv[++i];
        else if (a == "--runs" && i + 1 < argc)
            runs = std::max(1, std::atoi(argv[++i]));
        else if (!a.empty() && a[0] == '-')
            return usage();
        else if (model_path.empty())
            model_path = a;
        else if (image_path.empty())
            image_path = a;
        else
            return usage();
    }
    if (model_path.empty() || (device_name != "cpu" && device_name != "cuda")) return usage();
    try {
        const Device device = device_name == "cuda" ? Device::cuda() : Device::cpu();
        auto t0 = std::chrono::steady_clock::now();
        const auto model = onnx::Model::load(model_path, device);
        const double load_ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        const TensorAny x = load_image(image_path, device);
        std::printf("%s: opset %lld, %zu nodes (%zu in the file), loaded on %s in %.0f ms\n",
                    model_path.c_str(), static_cast<long long>(model.opset()), model.num_nodes(),
                    model.num_file_nodes(), device.str().c_str(), load_ms);
        std::printf("image: %s %s\n", image_path.empty() ? "synthetic" : image_path.c_str(),
                    x.shape().str().c_str());

        // One warm-up run (first-call costs: workspace allocation, cuDNN's algorithm choice), then the
        // timed runs; the median per image is printed.
        TensorAny logits = model.run({x})[0];
        std::vector<double> ms;
        for (int r = 0; r < runs; ++r) {
            t0 = std::chrono::steady_clock::now();
            logits = model.run({x})[0];
            device.sync();
            ms.push_back(
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
        }
        std::sort(ms.begin(), ms.end());
        const int64_t batch = x.shape()[0];

        const TensorAny probs = ops::softmax(ops::cast(logits, DType::f32), 1);
        const int64_t k = std::min<int64_t>(5, probs.shape()[1]);
        auto [top_p, top_i] = ops::topk_with_indices(probs, k, 1);
        const auto p = ops::into_data(top_p).to_vec<float>();
        const auto idx = ops::into_data(ops::cast(top_i, DType::i64)).to_vec<int64_t>();
        for (int64_t b = 0; b < batch; ++b) {
            if (batch > 1) std::printf("image %lld:\n", static_cast<long long>(b));
            for (int64_t j = 0; j < k; ++j) {
                const auto at = static_cast<std::size_t>(b * k + j);
                std::printf("  %d. class %4lld  %6.2f %%\n", static_cast<int>(j + 1),
                            static_cast<long long>(idx[at]), 100.0 * p[at]);
            }
        }
        std::printf("%.2f ms per image on %s (median of %d runs at batch %lld)\n",
                    ms[ms.size() / 2] / static_cast<double>(batch), device.str().c_str(), runs,
                    static_cast<long long>(batch));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "onnx_classify: %s\n", e.what());
        return 1;
    }
    return 0;
}
