// The host half of the bare-metal example (docs/embedded.md): trains the two models of models.hpp on
// the MNIST digits of scripts/fetch_mnist.sh (the train split of burn::data::MnistDataset), briefly and
// deterministically, and writes
//   OUT/model.bpk    both models' weights (mlp.*, cnn.*), for burn-embed
//   OUT/digits.bpk   the first 100 digits of the test split: images u8 [100, 28, 28], labels u8 [100]
// usage: mnist_bm_train OUT   (about 20 s on one core)
#include <algorithm>
#include <burn/burn.hpp>
#include <burn/data/mnist.hpp>
#include <burn/store/burnpack.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "models.hpp"

using namespace burn;

namespace {

/// Digits as the firmware sees them: grey levels quantised to u8, then / 255.
struct Digits {
    std::vector<uint8_t> pixels;  // n * 784
    std::vector<uint8_t> labels;
    std::size_t size() const { return labels.size(); }
};

Digits load(data::MnistSplit split, std::size_t limit) {
    data::MnistDataset set(split, {});
    Digits d;
    for (std::size_t i = 0; i < set.len() && i < limit; ++i) {
        const auto item = *set.get(i);
        for (float v : item.image)
            d.pixels.push_back(static_cast<uint8_t>(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f)));
        d.labels.push_back(static_cast<uint8_t>(item.label));
    }
    return d;
}

Tensor<3> images(const Digits& d, std::size_t start, std::size_t n, const Device& device) {
    std::vector<float> x(n * 784);
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(d.pixels[start * 784 + i]) / 255.0f;
    return Tensor<3>::from_data(TensorData(x, Dims{static_cast<int64_t>(n), 28, 28}), device);
}

template <class Model>
Model fit(Model model, const char* label, const Digits& train, int epochs, double lr, const Device& device) {
    const std::size_t batch = 32;
    auto optimizer = optim::AdamConfig{}.init();
    std::mt19937 rng(1234);
    std::vector<std::size_t> order(train.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    Digits shuffled;
    const auto t0 = std::chrono::steady_clock::now();
    for (int epoch = 0; epoch < epochs; ++epoch) {
        for (std::size_t i = order.size() - 1; i > 0; --i) std::swap(order[i], order[rng() % (i + 1)]);
        shuffled.pixels.clear();
        shuffled.labels.clear();
        for (std::size_t i : order) {
            shuffled.pixels.insert(shuffled.pixels.end(), train.pixels.begin() + i * 784,
                                   train.pixels.begin() + (i + 1) * 784);
            shuffled.labels.push_back(train.labels[i]);
        }
        double total = 0;
        std::size_t steps = 0;
        for (std::size_t start = 0; start + batch <= shuffled.size(); start += batch, ++steps) {
            std::vector<int64_t> y(shuffled.labels.begin() + start, shuffled.labels.begin() + start + batch);
            auto targets =
                Tensor<1, Int>::from_data(TensorData(y, Dims{static_cast<int64_t>(batch)}), device);
            auto loss = nn::loss::CrossEntropyLoss().forward(
                model.forward(images(shuffled, start, batch, device)), targets);
            total += loss.into_scalar();
            auto grads = optim::GradientsParams::from_grads(loss.backward(), model);
            model = optimizer.step(lr, std::move(model), grads);
        }
        std::printf("%s: epoch %d, mean loss %.4f (%.1f s)\n", label, epoch + 1, total / double(steps),
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    return model;
}

template <class Model>
int correct(const Model& model, const Digits& test, const Device& device) {
    int right = 0;
    for (std::size_t start = 0; start < test.size(); start += 100) {
        const std::size_t n = std::min<std::size_t>(100, test.size() - start);
        auto pred = model.forward(images(test, start, n, device))
                        .argmax(1)
                        .int_(DType::i64)
                        .template to_vec<int64_t>();
        for (std::size_t i = 0; i < n; ++i) right += pred[i] == test.labels[start + i];
    }
    return right;
}

/// The held-out digits as a module, so that they save as a Burnpack like the weights.
struct HeldOut {
    Buffer<Tensor<3, Int>> images;
    Buffer<Tensor<1, Int>> labels;
    BURN_MODULE(HeldOut, images, labels)
};

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: mnist_bm_train OUT_DIR\n");
        return 2;
    }
    const std::filesystem::path out = argv[1];
    std::filesystem::create_directories(out);
    const Digits train = load(data::MnistSplit::train, SIZE_MAX),
                 test = load(data::MnistSplit::test, SIZE_MAX);
    std::printf("MNIST: %zu training digits, %zu test digits\n", train.size(), test.size());

    const Device device = Device::cpu().autodiff();
    device.seed(7);
    bm::Models models{bm::Mlp::init(device), bm::ConvNet::init(device)};
    models.mlp = fit(std::move(models.mlp), "mlp", train, 3, 2e-3, device);
    models.cnn = fit(std::move(models.cnn), "cnn", train, 2, 3e-3, device);
    const Device cpu = Device::cpu();
    models = models.to_device(cpu);
    std::printf("test split accuracy: mlp %d / %zu, cnn %d / %zu\n", correct(models.mlp, test, cpu),
                test.size(), correct(models.cnn, test, cpu), test.size());

    store::BurnpackStore weights(out / "model.bpk");
    models.save_into(weights);

    const std::size_t n = 100;
    HeldOut held;
    held.images = Buffer<Tensor<3, Int>>(Tensor<3, Int>::from_data(
        TensorData(std::vector<uint8_t>(test.pixels.begin(), test.pixels.begin() + n * 784),
                   Dims{100, 28, 28}),
        cpu));
    held.labels = Buffer<Tensor<1, Int>>(Tensor<1, Int>::from_data(
        TensorData(std::vector<uint8_t>(test.labels.begin(), test.labels.begin() + n), Dims{100}), cpu));
    store::BurnpackStore digits(out / "digits.bpk");
    held.save_into(digits);
    std::printf("wrote %s and %s\n", (out / "model.bpk").c_str(), (out / "digits.bpk").c_str());
    return 0;
}
