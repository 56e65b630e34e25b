// Storage benchmark, C++ side (disabled by default): loads 12 x Linear(2048, 2048) from the files that
// scripts/bench_store.py writes (zip, legacy, SafeTensors) and from a Burnpack copy, best of 3, and
// prints MB/s to compare with the script's torch.load figures.
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
    if (PytorchStore::zip_supported()) time_load("PytorchStore zip", m, [&] { return PytorchStore(d / "model.pt"); });
    time_load("PytorchStore legacy", m, [&] { return PytorchStore(d / "model_legacy.pt"); });
    time_load("SafetensorsStore", m, [&] { return SafetensorsStore(d / "model.safetensors"); });
    BurnpackStore out(d / "model.bpk");
    m.save_into(out);
    time_load("BurnpackStore", m, [&] { return BurnpackStore(d / "model.bpk"); });
}

}  // namespace
}  // namespace burn::store
