#pragma once
// A small classification problem for the training tests: points in the plane, labelled by the side of
// a line they fall on, and a two-layer network.
#include <filesystem>
#include <random>
#include <string>
#include <system_error>
#include <vector>

#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h>
#endif

#include "burn/burn.hpp"
#include "burn/data/data.hpp"
#include "burn/train/train.hpp"

namespace burn::train_test {

struct Point {
    float x, y;
    int32_t label;
};

struct PointBatch {
    Tensor<2> inputs;
    Tensor<1, Int> targets;
};

struct PointBatcher final : data::Batcher<Point, PointBatch> {
    PointBatch batch(std::vector<Point> items, const Device& device) const override {
        std::vector<float> xs;
        std::vector<int32_t> ys;
        for (const auto& p : items) {
            xs.push_back(p.x);
            xs.push_back(p.y);
            ys.push_back(p.label);
        }
        const auto n = static_cast<int64_t>(items.size());
        return {Tensor<2>::from_data(TensorData(xs, Dims{n, 2}), device),
                Tensor<1, Int>::from_data(TensorData(ys, Dims{n}), device)};
    }
};

/// n points uniform in [-2, 2]^2, label 1 above the line y = 0.5 x + 0.2 (separable, with a margin of
/// points too close to the line removed).
inline data::InMemDataset<Point> points(std::size_t n, uint64_t seed) {
    data::Rng rng(seed);
    std::vector<Point> v;
    while (v.size() < n) {
        float x = static_cast<float>(rng.uniform() * 4 - 2), y = static_cast<float>(rng.uniform() * 4 - 2);
        float d = y - (0.5f * x + 0.2f);
        if (d > -0.1f && d < 0.1f) continue;
        v.push_back({x, y, d > 0 ? 1 : 0});
    }
    return data::InMemDataset<Point>(v);
}

struct Net {
    nn::Linear fc1, fc2;
    nn::Dropout dropout{0.1};
    nn::Relu relu;

    Net() = default;
    explicit Net(const Device& device)
        : fc1(nn::LinearConfig{2, 16}.init(device)), fc2(nn::LinearConfig{16, 2}.init(device)) {}

    Tensor<2> forward(const Tensor<2>& x) const {
        return fc2.forward(relu.forward(dropout.forward(fc1.forward(x))));
    }
    train::ClassificationOutput forward_classification(const PointBatch& b) const {
        auto logits = forward(b.inputs);
        auto loss = nn::loss::CrossEntropyLoss().forward(logits, b.targets);
        return {loss, logits, b.targets};
    }
    train::TrainOutput<train::ClassificationOutput> train_step(const PointBatch& b) const {
        auto item = forward_classification(b);
        return train::TrainOutput(*this, item.loss.backward(), item);
    }
    train::ClassificationOutput infer_step(const PointBatch& b) const { return forward_classification(b); }

    BURN_MODULE(Net, fc1, fc2, dropout, relu)
};

/// The point problem's loaders: 16 train batches of 32 (shuffled), 4 valid batches of 64.
inline auto loaders(int workers = 0) {
    auto train = data::DataLoaderBuilder(PointBatcher())
                     .batch_size(32)
                     .shuffle(7)
                     .num_workers(workers)
                     .build(points(512, 1));
    auto valid = data::DataLoaderBuilder(PointBatcher()).batch_size(64).build(points(256, 2));
    return std::make_pair(train, valid);
}

/// A Net on the CPU's autodiff device, its initial weights from seed 123.
inline Net fresh_net() {
    Device device = Device().autodiff();
    device.seed(123);
    return Net(device);
}

/// A per-process tag, so that test binaries of several build trees can run at once.
inline std::string process_tag() {
#if defined(__unix__) || defined(__APPLE__)
    return std::to_string(static_cast<long long>(::getpid()));
#else
    static const std::string tag = std::to_string(std::random_device()());
    return tag;
#endif
}

/// A fresh, empty directory under the temp dir, removed when the test program exits.
inline std::filesystem::path fresh_dir(const std::string& name) {
    struct Registry {
        std::vector<std::filesystem::path> dirs;
        ~Registry() {
            std::error_code ec;
            for (const auto& d : dirs) std::filesystem::remove_all(d, ec);
        }
    };
    static Registry registry;
    auto dir = std::filesystem::temp_directory_path() / ("burn_train_test_" + process_tag() + "_" + name);
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    registry.dirs.push_back(dir);
    return dir;
}

/// Every parameter's bytes, by path.
template <class M>
std::map<std::string, std::vector<uint8_t>> weights(const M& m) {
    std::map<std::string, std::vector<uint8_t>> out;
    m.visit_params([&](const std::string& path, const auto& p) { out[path] = p.val().into_data().bytes(); });
    return out;
}

}  // namespace burn::train_test
