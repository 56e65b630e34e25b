// libFuzzer target: checkpoint record files as a resumed run loads them: the input is
// checkpoint/model-1.bpk of a scratch folder, read by Checkpointer::load_part through the default
// record store (Burnpack), then applied as a resumed run does: module_from_record into a small model
// (all or nothing), optimizer_from_record into Adam.
#include <cstddef>
#include <cstdint>

#include "burn/optim/adam.hpp"
#include "burn/train/checkpoint.hpp"
#include "fuzz_util.hpp"

namespace {

const std::filesystem::path& checkpoint_dir() {
    static const std::filesystem::path dir = [] {
        auto d = burn::fuzz::scratch_dir() / "record" / "checkpoint";
        std::filesystem::create_directories(d);
        return d;
    }();
    return dir;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
    using namespace burn::train;
    burn::fuzz::write_file(checkpoint_dir() / "model-1.bpk", data, size);
    Checkpointer checkpointer(checkpoint_dir(), default_record_store());
    try {
        CheckpointRecord record = checkpointer.load_part("1", "model", burn::Device());
        try {
            auto model = burn::fuzz::make_mlp();
            module_from_record(model, record);
        } catch (const burn::Error&) {
        }
        try {
            auto model = burn::fuzz::make_mlp();
            auto optimizer = burn::optim::AdamConfig{}.init();
            optimizer_from_record(optimizer, optimizer_paths(model), record);
        } catch (const burn::Error&) {
        }
    } catch (const burn::Error&) {
    }
    return 0;
}
