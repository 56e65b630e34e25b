#pragma once
// The models of the MNIST example: an MLP, and the convnet of the `cnn_train` benchmark workload
// (Conv2d(1,32,3,pad 1)-ReLU-MaxPool2-Conv2d(32,64,3,pad
// 1)-ReLU-MaxPool2-Linear(3136,128)-ReLU-Linear(128,10)) when this build has convolutions.
#include <algorithm>
#include <burn/burn.hpp>
#include <burn/data/data.hpp>
#include <burn/train/train.hpp>
#include <cmath>
#include <map>
#include <string>

#if __has_include(<burn/nn/conv.hpp>) && __has_include(<burn/nn/pool.hpp>)
#include <burn/nn/conv.hpp>
#include <burn/nn/pool.hpp>
#define MNIST_HAVE_CNN 1
#endif

namespace mnist {

using namespace burn;

/// What the training program records and the inference program reads back.
struct MnistConfig {
    std::string model = "mlp";  // "mlp" or "cnn"
    std::size_t hidden = 512;   // MLP width
    double dropout = 0.2;
    std::size_t num_epochs = 10;
    std::size_t batch_size = 64;
    double learning_rate = 1e-3;
    int num_workers = 2;
    uint64_t seed = 42;
    BURN_CONFIG(MnistConfig, model, hidden, dropout, num_epochs, batch_size, learning_rate, num_workers, seed)
};

/// The training and inference steps every model here shares: forward(images [b, 28, 28]) -> logits.
template <class Derived>
struct Classifier {
    train::ClassificationOutput forward_classification(const data::MnistBatch& batch) const {
        auto logits = static_cast<const Derived&>(*this).forward(batch.images);
        auto loss = nn::loss::CrossEntropyLoss().forward(logits, batch.targets);
        return {loss, logits, batch.targets};
    }
    train::TrainOutput<train::ClassificationOutput> train_step(const data::MnistBatch& batch) const {
        auto item = forward_classification(batch);
        return train::TrainOutput(static_cast<const Derived&>(*this), item.loss.backward(), item);
    }
    train::ClassificationOutput infer_step(const data::MnistBatch& batch) const {
        return forward_classification(batch);
    }
};

struct Mlp : Classifier<Mlp> {
    nn::Linear fc1, fc2, fc3;
    nn::Dropout dropout;
    nn::Relu relu;

    Mlp() = default;
    Mlp(const MnistConfig& c, const Device& device)
        : fc1(nn::LinearConfig{784, c.hidden}.init(device)),
          fc2(nn::LinearConfig{c.hidden, c.hidden}.init(device)),
          fc3(nn::LinearConfig{c.hidden, 10}.init(device)),
          dropout(nn::DropoutConfig{c.dropout}.init()) {}

    Tensor<2> forward(const Tensor<3>& images) const {
        auto x = images.flatten<2>(1, 2);  // [b, 784]
        x = dropout.forward(relu.forward(fc1.forward(x)));
        x = dropout.forward(relu.forward(fc2.forward(x)));
        return fc3.forward(x);
    }

    BURN_MODULE(Mlp, fc1, fc2, fc3, dropout, relu)
};

#ifdef MNIST_HAVE_CNN
struct Cnn : Classifier<Cnn> {
    nn::Conv2d conv1, conv2;
    nn::MaxPool2d pool;
    nn::Linear fc1, fc2;
    nn::Dropout dropout;
    nn::Relu relu;

    Cnn() = default;
    Cnn(const MnistConfig& c, const Device& device)
        : conv1(nn::Conv2dConfig{{1, 32}, {3, 3}}.with_padding(nn::Explicit2d{1, 1}).init(device)),
          conv2(nn::Conv2dConfig{{32, 64}, {3, 3}}.with_padding(nn::Explicit2d{1, 1}).init(device)),
          pool(nn::MaxPool2dConfig{{2, 2}, {2, 2}}.init()),
          fc1(nn::LinearConfig{3136, 128}.init(device)),
          fc2(nn::LinearConfig{128, 10}.init(device)),
          dropout(nn::DropoutConfig{c.dropout}.init()) {}

    Tensor<2> forward(const Tensor<3>& images) const {
        auto x = images.reshape<4>({-1, 1, 28, 28});
        x = pool.forward(relu.forward(conv1.forward(x)));  // [b, 32, 14, 14]
        x = pool.forward(relu.forward(conv2.forward(x)));  // [b, 64, 7, 7]
        auto h = dropout.forward(relu.forward(fc1.forward(x.flatten<2>(1, 3))));
        return fc2.forward(h);
    }

    BURN_MODULE(Cnn, conv1, conv2, pool, fc1, fc2, dropout, relu)
};
#endif

/// The learning rate of the run: cosine decay from lr to lr / 20 over the run's optimizer steps.
#if __has_include(<burn/optim/lr_scheduler.hpp>)
inline optim::LrSchedulerAny cosine_schedule(double lr, std::size_t steps) {
    return optim::CosineAnnealingLrSchedulerConfig{lr, steps, lr / 20}.with_restarts(false).init();
}
#else
/// (optim's CosineAnnealingLrScheduler computes the same; this stands in where it is missing.)
struct CosineDecay {
    struct Record {
        std::map<std::string, double> scalars;
    };
    double initial = 0, min = 0;
    std::size_t num_iters = 1, iteration = 0;
    double step() {
        const double t = static_cast<double>(std::min(iteration, num_iters)) / static_cast<double>(num_iters);
        ++iteration;
        return min + (initial - min) * 0.5 * (1.0 + std::cos(3.14159265358979323846 * t));
    }
    Record to_record() const { return {{{"iteration", static_cast<double>(iteration)}}}; }
    void load_record(const Record& r) { iteration = static_cast<std::size_t>(r.scalars.at("iteration")); }
};
inline CosineDecay cosine_schedule(double lr, std::size_t steps) {
    return {lr, lr / 20, std::max<std::size_t>(steps, 1)};
}
#endif

inline bool cnn_available() {
#ifdef MNIST_HAVE_CNN
    return true;
#else
    return false;
#endif
}

/// Where the programs keep their files: $BURN_ARTIFACT_DIR, else ./artifacts/mnist.
inline std::string default_artifact_dir() {
    const char* d = std::getenv("BURN_ARTIFACT_DIR");
    return d && *d ? std::string(d) : std::string("artifacts/mnist");
}

/// Saves a model's parameters and buffers as a Burnpack file.
template <class M>
void save_model(const M& model, const std::filesystem::path& path) {
    store::BurnpackStore out(path);
    out.metadata("model", M::burn_module_name);
    model.save_into(out);
}

/// Loads them back: every tensor must be there with its shape (load_from throws otherwise).
template <class M>
void load_model(M& model, const std::filesystem::path& path) {
    store::BurnpackStore in(path);
    model.load_from(in);
}

}  // namespace mnist
