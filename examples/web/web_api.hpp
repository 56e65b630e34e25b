#pragma once
// The state behind the C functions the page calls (infer_api.cpp, train_api.cpp): the model that
// classifies, the last error message, and the last bytes handed to JavaScript.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "web_mnist.hpp"

#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
#define WEB_EXPORT extern "C" EMSCRIPTEN_KEEPALIVE
#else
#define WEB_EXPORT extern "C"
#endif

namespace web {

struct State {
    std::optional<mnist::Cnn> model;  // what bw_classify uses
    std::string error;                // bw_error(): the message of the last failure
    std::vector<uint8_t> bytes;       // bw_bytes(): the last Burnpack produced
    std::string text;                 // bw_text(): the last JSON produced (onnx_api.cpp)
};

inline State& state() {
    static State s;
    return s;
}

/// The 2,000 held-out digits once bw_load_digits read them (train_api.cpp; null before).
const data::DatasetPtr<data::MnistItem>& test_digits();

/// Runs f; a burn::Error (or any exception) becomes the message of bw_error() and the status 1.
template <class F>
int guarded(F&& f) {
    try {
        state().error.clear();
        f();
        return 0;
    } catch (const std::exception& e) {
        state().error = e.what();
    } catch (...) {
        state().error = "unknown error";
    }
    return 1;
}

}  // namespace web
