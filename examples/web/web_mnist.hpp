#pragma once
// What the page of examples/web does with the MNIST convnet of examples/mnist (mnist::Cnn), written once
// for the WebAssembly modules (infer_api.cpp, train_api.cpp) and the native program that checks them
// (native_eval.cpp): load a Burnpack from bytes, classify one digit, evaluate the held-out digits one at
// a time, and train step by step so that a page can draw its curves between steps.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "../mnist/model.hpp"

namespace web {

using namespace burn;

inline constexpr std::size_t kPixels = data::kMnistPixels;  // 28 x 28
inline constexpr std::size_t kClasses = 10;

/// The configuration of the shipped model: the convnet of the main job (examples/mnist).
inline mnist::MnistConfig cnn_config() {
    mnist::MnistConfig c;
    c.model = "cnn";
    return c;
}

/// A model read from Burnpack bytes (a fetched model.bpk). Throws burn::Error when the bytes are not a
/// Burnpack or lack one of the convnet's tensors.
inline mnist::Cnn load_model(std::vector<uint8_t> bytes) {
    BURN_CHECK(!bytes.empty(), "[web::load_model] the model file is empty");
    mnist::Cnn model(cnn_config(), Device::cpu());
    auto in = store::BurnpackStore::from_bytes(std::move(bytes));
    model.load_from(in);
    return model;
}

/// The Burnpack bytes of a model (what the page hands from the training worker to the page).
inline std::vector<uint8_t> save_model(const mnist::Cnn& model) {
    auto out = store::BurnpackStore::in_memory();
    out.metadata("model", mnist::Cnn::burn_module_name);
    model.save_into(out);
    return out.bytes();
}

/// One digit as the model's input [1, 28, 28]: grey levels in [0, 1] standardised as MnistBatcher does.
inline Tensor<3> digit_tensor(const float* pixels, std::size_t count) {
    BURN_CHECK_KIND(count == kPixels, shape, "[web::classify] a digit is 28 x 28 = ", kPixels,
                    " grey levels, got ", count);
    constexpr float kMean = 0.1307f, kStd = 0.3081f;
    std::vector<float> x(kPixels);
    for (std::size_t i = 0; i < kPixels; ++i) x[i] = (pixels[i] - kMean) / kStd;
    return Tensor<3>::from_data(TensorData(x, Dims{1, 28, 28}), Device::cpu());
}

/// The ten class probabilities of one digit.
inline std::vector<float> classify(const mnist::Cnn& model, const float* pixels, std::size_t count) {
    return activation::softmax(model.forward(digit_tensor(pixels, count)), 1).to_vec<float>();
}

/// Accuracy of a model on held-out digits, classified one at a time (batch 1: what a page does).
struct Evaluation {
    double accuracy = 0;      // percent
    std::size_t digits = 0;   // how many were classified
    double ms_per_digit = 0;  // mean wall time of one classification
};

inline Evaluation evaluate(const mnist::Cnn& model, const data::Dataset<data::MnistItem>& test,
                           std::size_t limit = 0) {
    const std::size_t n = limit ? std::min(limit, test.len()) : test.len();
    std::size_t correct = 0;
    const auto start = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < n; ++i) {
        const auto item = test.get(i);
        const auto p = classify(model, item->image.data(), kPixels);
        correct += static_cast<int32_t>(std::max_element(p.begin(), p.end()) - p.begin()) == item->label;
    }
    const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - start;
    Evaluation e;
    e.digits = n;
    e.accuracy = n ? 100.0 * static_cast<double>(correct) / static_cast<double>(n) : 0.0;
    e.ms_per_digit = n ? took.count() / static_cast<double>(n) : 0.0;
    return e;
}

/// The first n items of a dataset (a shorter training run).
class Take final : public data::Dataset<data::MnistItem> {
  public:
    Take(data::DatasetPtr<data::MnistItem> base, std::size_t n) : base_(std::move(base)), n_(n) {}
    std::optional<data::MnistItem> get(std::size_t i) const override {
        return i < len() ? base_->get(i) : std::nullopt;
    }
    std::size_t len() const override { return std::min(n_, base_->len()); }

  private:
    data::DatasetPtr<data::MnistItem> base_;
    std::size_t n_;
};

/// Training settings of the page: the main job's model, optimizer (Adam) and schedule (cosine decay to
/// lr / 20), on the first `subset` training digits (0: all 8,000). The defaults (batch 32, lr 2e-3)
/// reach about 96 % on the held-out digits in one epoch over the 8,000 (the main job: batch 64, lr 1e-3,
/// 8 epochs).
struct TrainSettings {
    std::size_t subset = 0;
    std::size_t epochs = 1;
    std::size_t batch_size = 32;
    double learning_rate = 2e-3;
    uint64_t seed = 42;
};

/// A training run advanced a few batches at a time (the page draws its curves in between).
class Trainer {
  public:
    Trainer(const data::DatasetPtr<data::MnistItem>& train, const TrainSettings& s)
        : settings_(s), device_(Device::cpu().autodiff()) {
        BURN_CHECK(s.epochs >= 1 && s.batch_size >= 1, "[web::Trainer] epochs and batch size must be >= 1");
        device_.seed(s.seed);
        auto cfg = cnn_config();
        cfg.batch_size = s.batch_size;
        model_.emplace(cfg, device_);
        data::DatasetPtr<data::MnistItem> set = train;
        if (s.subset) set = std::make_shared<const Take>(train, s.subset);
        loader_ = data::DataLoaderBuilder(data::MnistBatcher())
                      .batch_size(s.batch_size)
                      .shuffle(s.seed)
                      .num_workers(0)
                      .build(set)
                      ->to_device(device_);
        total_ = s.epochs * loader_->num_batches();
        schedule_.emplace(mnist::cosine_schedule(s.learning_rate, total_));
    }

    /// Runs up to max_batches optimizer steps; returns whether training has more to do.
    bool step(std::size_t max_batches) {
        std::size_t k = 0;
        while (k < max_batches && done_ < total_) {
            if (!it_) it_ = loader_->iter(epoch_);
            auto batch = it_->next();
            if (!batch) {  // the end of a pass: the next epoch
                ++epoch_;
                it_.reset();
                continue;
            }
            auto logits = model_->forward(batch->images);
            auto loss = nn::loss::CrossEntropyLoss().forward(logits, batch->targets);
            const auto pred = logits.argmax(1).template to_vec<int32_t>();
            const auto labels = batch->targets.template to_vec<int32_t>();
            std::size_t correct = 0;
            for (std::size_t i = 0; i < labels.size(); ++i) correct += pred[i] == labels[i];
            last_loss_ = loss.into_scalar();
            last_accuracy_ = 100.0 * static_cast<double>(correct) / static_cast<double>(labels.size());
            samples_ += labels.size();
            auto grads = optim::GradientsParams::from_grads(loss.backward(), *model_);
            *model_ = optimizer_.step(schedule_->step(), std::move(*model_), grads);
            ++done_;
            ++k;
        }
        return done_ < total_;
    }

    std::size_t done() const { return done_; }
    std::size_t total() const { return total_; }
    std::size_t samples() const { return samples_; }
    double last_loss() const { return last_loss_; }
    double last_accuracy() const { return last_accuracy_; }
    /// The trained model on the inference device (no autodiff, dropout off).
    mnist::Cnn model() const { return model_->valid(); }

  private:
    TrainSettings settings_;
    Device device_;
    std::optional<mnist::Cnn> model_;
    optim::Optimizer optimizer_ = optim::AdamConfig().init();
    std::optional<decltype(mnist::cosine_schedule(1.0, 1))> schedule_;
    data::DataLoaderPtr<data::MnistBatch> loader_;
    std::unique_ptr<data::BatchIterator<data::MnistBatch>> it_;
    std::size_t total_ = 0, done_ = 0, epoch_ = 0, samples_ = 0;
    double last_loss_ = 0, last_accuracy_ = 0;
};

}  // namespace web
