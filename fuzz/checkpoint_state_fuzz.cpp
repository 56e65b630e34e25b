// libFuzzer target: training-state files (checkpoint/training-<tag>.json) as a resumed run reads them:
// the input is the state file of tag "1" in a scratch artifact folder (whose model/optim/scheduler
// parts exist, empty); TrainingCore finds the latest checkpoint (Checkpointer::list: parse, tag, epoch,
// iteration, parts), restores the loop state (metric history, seed) and begins the run; the same for
// an explicit checkpoint(1). Nothing is ever deleted (discard_old_checkpoints/remove are not called:
// a hostile state file must not make the fuzzer delete files). Only burn::Error may escape.
#include <cstddef>
#include <cstdint>

#include "burn/train/core.hpp"
#include "burn/train/metric.hpp"
#include "fuzz_util.hpp"

namespace {

const std::filesystem::path& artifact_dir() {
    static const std::filesystem::path dir = [] {
        auto d = burn::fuzz::scratch_dir() / "state";
        std::filesystem::create_directories(d / "checkpoint");
        for (const char* part : {"model", "optim", "scheduler"})
            burn::fuzz::write_file(d / "checkpoint" / (std::string(part) + "-1.bpk"), nullptr, 0);
        return d;
    }();
    return dir;
}

void resume(bool latest) {
    using namespace burn::train;
    TrainingOptions o;
    o.artifact_dir = artifact_dir();
    o.num_epochs = 4;
    o.train_metrics.push_back(LossMetric().clone());
    o.valid_metrics.push_back(LossMetric().clone());
    o.valid_metrics.push_back(AccuracyMetric().clone());
    o.checkpointing = true;
    o.handle_ctrl_c = false;
    o.renderer = RendererKind::none;
    if (latest)
        o.resume_latest = true;
    else
        o.resume_epoch = 1;
    TrainingCore core(o);
    auto from = core.resume_checkpoint();
    if (!from) return;
    core.restore(core.checkpointer().load_state(from->tag), *from);
    core.begin(from->epoch + 1, 10, 2);
    core.state();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
    burn::fuzz::write_file(artifact_dir() / "checkpoint" / "training-1.json", data, size);
    for (bool latest : {true, false}) {
        try {
            resume(latest);
        } catch (const burn::Error&) {
        }
    }
    return 0;
}
