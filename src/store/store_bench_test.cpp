// Storage benchmark, C++ side (disabled by default): loads 12 x Linear(2048, 2048) from the files that
// scripts/bench_store.py writes (zip, legacy, SafeTensors) and from a Burnpack copy, best of 3, with
// ordinary reads (the default) and with mmap(true), and prints MB/s to compare with the script's
// torch.load figures.
#include <chrono>
#include <cstdlib>
#include <iostream>

#include "store/store_test_util.hpp"

namespace burn::store {
namespace {

struct Big {
    std::vector<nn::Linear> layers;
    BURN_MODULE(Big, layers)
};

template <class MakeStore>
void time_load(const std::string& label, Big& m, MakeStore make) {
    double best = 1e30;
    for (int i = 0; i < 3; ++i) {
        auto store = make();
        auto t0 = std::chrono::steady_clock::now();
        auto r = m.load_from(store);
        double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        ASSERT_EQ(r.applied.size(), 24u) << r;
        best = std::min(best, s);
    }
    double mb = 12.0 * (2048 * 2048 + 2048) * 4 / 1e6;
    std::cout << label << ": " << best * 1e3 << " ms, " << mb / best << " MB/s\n";
}

TEST(StoreBench, DISABLED_Load12Linear) {
    const char* dir = std::getenv("BURN_STORE_BENCH_DIR");
    if (!dir) GTEST_SKIP() << "set BURN_STORE_BENCH_DIR (see scripts/bench_store.py)";
    std::filesystem::path d(dir);
    Big m;
    for (int i = 0; i < 12; ++i) m.layers.push_back(nn::LinearConfig{2048, 2048}.init());
    // Each store twice: the default (ordinary reads) and mmap(true) (a memory map; immutable files only).
    // Without python3-torch the script cannot run: the PyTorch files are then skipped and the
    // SafeTensors file is written here.
    if (!std::filesystem::exists(d / "model.safetensors")) {
        SafetensorsStore st(d / "model.safetensors");
        m.save_into(st);
    }
    if (PytorchStore::zip_supported() && std::filesystem::exists(d / "model.pt")) {
        time_load("PytorchStore zip", m, [&] { return PytorchStore(d / "model.pt"); });
        time_load("PytorchStore zip, mmap", m, [&] { return PytorchStore(d / "model.pt").mmap(true); });
    }
    if (std::filesystem::exists(d / "model_legacy.pt")) {
        time_load("PytorchStore legacy", m, [&] { return PytorchStore(d / "model_legacy.pt"); });
        time_load("PytorchStore legacy, mmap", m,
                  [&] { return PytorchStore(d / "model_legacy.pt").mmap(true); });
    }
    time_load("SafetensorsStore", m, [&] { return SafetensorsStore(d / "model.safetensors"); });
    time_load("SafetensorsStore, mmap", m,
              [&] { return SafetensorsStore(d / "model.safetensors").mmap(true); });
    BurnpackStore out(d / "model.bpk");
    m.save_into(out);
    time_load("BurnpackStore", m, [&] { return BurnpackStore(d / "model.bpk"); });
    time_load("BurnpackStore, mmap", m, [&] { return BurnpackStore(d / "model.bpk").mmap(true); });
}

}  // namespace
}  // namespace burn::store
