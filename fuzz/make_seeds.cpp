// Writes the seed files that need burn's own writers (scripts/fuzz_corpus.sh runs it and checks the
// result in under fuzz/corpus/): Burnpack and SafeTensors files of the fuzz model, a checkpoint
// (model, optimizer and scheduler records, the training-state file), configs and MNIST digit files.
//   fuzz_seeds <corpus dir>   (writes <corpus dir>/<target>/<name>)
#include <cstdio>
#include <filesystem>
#include <string>

#include "burn/data/mnist.hpp"
#include "burn/optim/adam.hpp"
#include "burn/store/burnpack.hpp"
#include "burn/store/safetensors.hpp"
#include "burn/train/checkpoint.hpp"
#include "burn/train/core.hpp"
#include "burn/train/metric.hpp"
#include "fuzz_util.hpp"

namespace fs = std::filesystem;
using namespace burn;

namespace {

fs::path root;

void put(const std::string& target, const std::string& name, const std::vector<uint8_t>& bytes) {
    fs::create_directories(root / target);
    fuzz::write_file(root / target / name, bytes.data(), bytes.size());
}
void put(const std::string& target, const std::string& name, const std::string& text) {
    put(target, name, std::vector<uint8_t>(text.begin(), text.end()));
}
std::vector<uint8_t> read(const fs::path& p) {
    std::FILE* f = std::fopen(p.c_str(), "rb");
    std::vector<uint8_t> b;
    for (int c; f && (c = std::fgetc(f)) != EOF;) b.push_back(static_cast<uint8_t>(c));
    if (f) std::fclose(f);
    return b;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: fuzz_seeds <corpus dir>\n");
        return 2;
    }
    root = argv[1];
    auto model = fuzz::make_mlp();

    // Burnpack and SafeTensors files of the fuzz model, and a record with scalars and metadata.
    auto bp = store::BurnpackStore::in_memory();
    bp.metadata("note", "seed");
    model.save_into(bp);
    put("burnpack", "mlp.bpk", bp.bytes());
    store::Record rec;
    rec.tensors["a"] = Tensor<1, Int>::from_ints({1, 2, 3}).handle();
    rec.scalars["step"] = store::Scalar(3.0);
    rec.metadata["k"] = "v";
    auto bp2 = store::BurnpackStore::in_memory();
    bp2.save_record(rec);
    put("burnpack", "record.bpk", bp2.bytes());
    auto st = store::SafetensorsStore::in_memory();
    model.save_into(st);
    put("safetensors", "mlp.safetensors", st.bytes());

    // A checkpoint as the training loop writes it.
    fs::path art = fs::temp_directory_path() / ("burn-fuzz-seeds-" + std::to_string(::getpid()));
    fs::remove_all(art);
    {
        train::TrainingOptions o;
        o.artifact_dir = art;
        o.num_epochs = 4;
        o.train_metrics.push_back(train::LossMetric().clone());
        o.valid_metrics.push_back(train::LossMetric().clone());
        o.valid_metrics.push_back(train::AccuracyMetric().clone());
        o.handle_ctrl_c = false;
        o.renderer = train::RendererKind::none;
        train::TrainingCore core(o);
        auto optimizer = optim::AdamConfig{}.init();
        auto paths = train::optimizer_paths(model);
        module::visit_params(model, [&](const std::string&, const auto& param) {
            auto& s = optimizer.states()[param.id().value()];
            s.tensors["exp_avg"] = param.val().zeros_like().handle();
            s.tensors["exp_avg_sq"] = param.val().zeros_like().handle();
            s.scalars["step"] = 1;
        });
        std::map<std::string, train::CheckpointRecord> parts;
        parts["model"] = train::module_to_record(model);
        parts["optim"] = train::optimizer_to_record(optimizer, paths);
        parts["scheduler"].scalars["step"] = 10;
        core.checkpointer().save({"1", 1, 0}, parts, core.state());
        core.checkpointer().save({"interrupted", 2, 3}, parts, core.state());
    }
    const fs::path ck = art / "checkpoint";
    put("checkpoint_state", "training-1.json", read(ck / "training-1.json"));
    put("checkpoint_state", "training-interrupted.json", read(ck / "training-interrupted.json"));
    put("checkpoint_record", "model-1.bpk", read(ck / "model-1.bpk"));
    put("checkpoint_record", "optim-1.bpk", read(ck / "optim-1.bpk"));
    put("checkpoint_record", "scheduler-1.bpk", read(ck / "scheduler-1.bpk"));
    fs::remove_all(art);

    // Configs: a real one and one with nesting and escapes.
    put("config", "adam.json", optim::AdamConfig{}.with_weight_decay(0.1).to_json_string());
    put("config", "mixed.json",
        std::string(R"({"a": [1, -2, 3.5e-3, true, false, null], "b": {"c": "\u00e9\n\"x\"", "d": []},)"
                    R"( "e": 18446744073709551615, "f": -9223372036854775808, "g": 1e308})"));

    // MNIST digit files: one digit, two digits with exponents, an empty class.
    std::string one = "{\"data\": [", two = "{\"data\":[";
    for (int i = 0; i < data::kMnistPixels; ++i) one += (i ? "," : "") + std::string(i % 7 ? "0" : "0.25");
    for (int i = 0; i < 2 * data::kMnistPixels; ++i)
        two += (i ? ", " : "") + std::string(i % 5 ? "1e-1" : "1");
    put("mnist", "one.json", one + "]}");
    put("mnist", "two.json", two + "]}\n");
    put("mnist", "empty.json", std::string("{\"data\": []}"));
    return 0;
}
