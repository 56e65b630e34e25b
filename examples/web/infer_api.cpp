// The C functions of the inference module (burn_infer.js): load a model from bytes, classify one digit,
// time one forward. Every function returns 0 on success and 1 on failure, with the message in bw_error().
#include <algorithm>
#include <chrono>

#include "web_api.hpp"

using namespace web;

/// The message of the last failure ("" after a success).
WEB_EXPORT const char* bw_error() {
    return state().error.c_str();
}

/// How many threads burn's CPU backend computes with (1 in the single-threaded build).
WEB_EXPORT int bw_threads() {
    return num_threads();
}

/// Loads Burnpack bytes (a fetched model.bpk) as the model that classifies.
WEB_EXPORT int bw_load_model(const uint8_t* data, int size) {
    return guarded([&] {
        BURN_CHECK(data != nullptr && size >= 0, "[bw_load_model] no bytes");
        auto model = load_model(std::vector<uint8_t>(data, data + size));
        state().model.emplace(std::move(model));
    });
}

/// Classifies count grey levels (must be 28 x 28 = 784, values in [0, 1]): the ten probabilities go to
/// probs[0..9].
WEB_EXPORT int bw_classify(const float* pixels, int count, float* probs) {
    return guarded([&] {
        BURN_CHECK(state().model.has_value(), "[bw_classify] no model is loaded");
        BURN_CHECK(pixels != nullptr && probs != nullptr && count >= 0, "[bw_classify] null buffer");
        const auto p = classify(*state().model, pixels, static_cast<std::size_t>(count));
        std::copy(p.begin(), p.end(), probs);
    });
}

/// The median time in ms of one batch-1 forward of the loaded model (cnn_infer_b1), over runs runs
/// after 10 warm-up runs; -1 on failure.
WEB_EXPORT double bw_bench_infer(int runs) {
    double median = -1;
    guarded([&] {
        BURN_CHECK(state().model.has_value(), "[bw_bench_infer] no model is loaded");
        std::vector<float> digit(kPixels);
        for (std::size_t i = 0; i < kPixels; ++i) digit[i] = static_cast<float>((i * 37) % 101) / 100.0f;
        std::vector<double> ms;
        for (int i = -10; i < std::max(runs, 1); ++i) {
            const auto start = std::chrono::steady_clock::now();
            auto logits = state().model->forward(digit_tensor(digit.data(), kPixels));
            (void)logits.to_vec<float>();
            const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - start;
            if (i >= 0) ms.push_back(took.count());
        }
        std::sort(ms.begin(), ms.end());
        median = ms[ms.size() / 2];
    });
    return median;
}
