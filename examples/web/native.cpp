// The page's code (web_mnist.hpp) built natively, for scripts/web_check.sh and scripts/web_bench.sh to
// compare the page's figures with:
//   web_native eval MODEL.bpk [RUNS]   accuracy on the 2,000 held-out digits classified one at a time,
//                                      and the median time of one batch-1 forward (cnn_infer_b1), as JSON
//   web_native train OUT.bpk [SUBSET] [EPOCHS] [BATCH] [LR]   the page's training run, saved as a Burnpack
//   web_native export MODEL.bpk DIR    DIR/model.safetensors (the weights TensorFlow.js gets in bench.html)
//                                      and DIR/model.onnx (burn's ONNX export, for onnxruntime-web)
// The digits are read from where MnistDataset looks (scripts/fetch_mnist.sh).
#include <cstdio>
#include <fstream>
#include <iterator>

#include "web_api.hpp"

#if __has_include(<burn/onnx/export.hpp>) && defined(WEB_HAVE_ONNX)
#include <burn/onnx/export.hpp>
#endif

using namespace web;

extern "C" double bw_bench_infer(int runs);                   // infer_api.cpp
extern "C" int bw_load_model(const uint8_t* data, int size);  // infer_api.cpp

namespace {

std::vector<uint8_t> read_file(const char* path) {
    std::ifstream in(path, std::ios::binary);
    BURN_CHECK_KIND(in.good(), io, "[web_native] cannot open ", path);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_file(const std::filesystem::path& path, const std::vector<uint8_t>& bytes) {
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

int eval(const char* path, int runs) {
    auto bytes = read_file(path);
    BURN_CHECK(bw_load_model(bytes.data(), static_cast<int>(bytes.size())) == 0, state().error);
    const auto e = evaluate(*state().model, data::MnistDataset::test());
    const double b1 = bw_bench_infer(runs);
    std::printf(
        "{\"accuracy\": %.2f, \"digits\": %zu, \"ms_per_digit\": %.4f, \"cnn_infer_b1_ms\": %.4f, "
        "\"threads\": %d}\n",
        e.accuracy, e.digits, e.ms_per_digit, b1, num_threads());
    return 0;
}

int train_model(const char* out, std::size_t subset, std::size_t epochs, std::size_t batch, double lr) {
    TrainSettings s;
    s.subset = subset;
    s.epochs = epochs;
    s.batch_size = batch;
    s.learning_rate = lr;
    Trainer t(data::share(data::MnistDataset::train()), s);
    const auto start = std::chrono::steady_clock::now();
    while (t.step(16)) {
    }
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    const auto model = t.model();
    const auto e = evaluate(model, data::MnistDataset::test());
    write_file(out, save_model(model));
    std::printf(
        "{\"train_samples_per_s\": %.1f, \"train_accuracy\": %.2f, \"steps\": %zu, \"threads\": %d}\n",
        static_cast<double>(t.samples()) / took.count(), e.accuracy, t.done(), num_threads());
    return 0;
}

int export_model(const char* path, const std::filesystem::path& dir) {
    auto model = load_model(read_file(path));
    std::filesystem::create_directories(dir);
    auto st = store::SafetensorsStore::in_memory();
    model.save_into(st);
    write_file(dir / "model.safetensors", st.bytes());
#if __has_include(<burn/onnx/export.hpp>) && defined(WEB_HAVE_ONNX)
    auto x = Tensor<3>::zeros({1, 28, 28}, Device::cpu());
    burn::onnx::save(model, x, (dir / "model.onnx").string(),
                     {.input_names = {"digits"}, .output_names = {"logits"}});
    std::printf("web_native: wrote %s/model.safetensors and model.onnx\n", dir.string().c_str());
#else
    std::printf("web_native: wrote %s/model.safetensors (no ONNX export in this build)\n",
                dir.string().c_str());
#endif
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    const std::string cmd = argc > 2 ? argv[1] : "";
    try {
        if (cmd == "eval") return eval(argv[2], argc > 3 ? std::atoi(argv[3]) : 200);
        if (cmd == "export" && argc > 3) return export_model(argv[2], argv[3]);
        if (cmd == "train")
            return train_model(argv[2], argc > 3 ? std::stoul(argv[3]) : 0,
                               argc > 4 ? std::stoul(argv[4]) : 1, argc > 5 ? std::stoul(argv[5]) : 32,
                               argc > 6 ? std::stod(argv[6]) : 2e-3);
    } catch (const burn::Error& e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 1;
    }
    std::fprintf(stderr,
                 "usage: web_native eval MODEL.bpk [RUNS] | web_native train OUT.bpk [SUBSET] [EPOCHS] "
                 "[BATCH] [LR] |\n"
                 "       web_native export MODEL.bpk DIR\n");
    return 2;
}
