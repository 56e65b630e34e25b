// Loads the model examples/mnist trained and prints its predictions for a few held-out test digits next
// to their labels (with the digit drawn in characters).
//
//   build/examples/mnist_infer [--artifact-dir DIR] [--count N] [--offset N]
#include <cstdio>
#include <iostream>

#include "model.hpp"

using namespace burn;

namespace {

void draw(const data::MnistItem& item) {
    static const char* shades = " .:-=+*#%@";
    for (int r = 0; r < 28; r += 2) {  // every other row keeps the aspect ratio of a terminal cell
        std::string line = "    ";
        for (int c = 0; c < 28; ++c) {
            float v = std::max(item.image[r * 28 + c], item.image[(r + 1) * 28 + c]);
            line += shades[std::min(9, static_cast<int>(v * 9.99f))];
        }
        std::cout << line << "\n";
    }
}

template <class M>
int infer(const mnist::MnistConfig& config, const std::filesystem::path& dir, std::size_t offset,
          std::size_t count) {
    M model(config, Device());
    mnist::load_model(model, dir / "model.bpk");
    auto test = data::MnistDataset::test();
    std::vector<data::MnistItem> items;
    for (std::size_t i = offset; i < offset + count && i < test.len(); ++i) items.push_back(*test.get(i));
    auto batch = data::MnistBatcher().batch(items, Device());
    Tensor<2> probs = activation::softmax(model.forward(batch.images), 1);
    auto pred = probs.argmax(1).to_vec<int32_t>();
    auto p = probs.to_vec<float>();
    std::size_t correct = 0;
    for (std::size_t i = 0; i < items.size(); ++i) {
        draw(items[i]);
        bool ok = pred[i] == items[i].label;
        correct += ok;
        std::printf("test digit %zu: predicted %d (%.1f %%), label %d  %s\n\n", offset + i, pred[i],
                    100.0 * p[i * 10 + static_cast<std::size_t>(pred[i])], items[i].label,
                    ok ? "ok" : "WRONG");
    }
    std::printf("%zu of %zu correct\n", correct, items.size());
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    std::filesystem::path dir = mnist::default_artifact_dir();
    std::size_t count = 8, offset = 0;
    for (int i = 1; i < argc; ++i) {
        std::string k = argv[i];
        if (i + 1 < argc && k == "--artifact-dir")
            dir = argv[++i];
        else if (i + 1 < argc && k == "--count")
            count = std::stoul(argv[++i]);
        else if (i + 1 < argc && k == "--offset")
            offset = std::stoul(argv[++i]);
        else {
            std::fprintf(stderr, "usage: mnist_infer [--artifact-dir DIR] [--count N] [--offset N]\n");
            return 2;
        }
    }
    try {
        if (!std::filesystem::exists(dir / "config.json") || !std::filesystem::exists(dir / "model.bpk")) {
            std::fprintf(stderr,
                         "no trained model in %s: run the mnist example first (build/examples/mnist)\n",
                         dir.string().c_str());
            return 1;
        }
        auto config = mnist::MnistConfig::load(dir / "config.json");
#ifdef MNIST_HAVE_CNN
        if (config.model == "cnn") return infer<mnist::Cnn>(config, dir, offset, count);
#endif
        if (config.model != "mlp") {
            std::fprintf(stderr, "the model in %s is a %s, which this build cannot run\n",
                         dir.string().c_str(), config.model.c_str());
            return 1;
        }
        return infer<mnist::Mlp>(config, dir, offset, count);
    } catch (const burn::Error& e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 1;
    }
}
