// libFuzzer target: the MNIST digit files as MnistDataset reads them (src/data/mnist.cpp): the input
// is written as 0.json of a scratch directory whose 1.json .. 9.json hold one valid digit each; the
// dataset is built (both splits, package counts unchecked as for small copies), every item is read and
// a batch is made. A damaged file must be a burn::IoError, never a crash.
#include <cstddef>
#include <cstdint>
#include <string>

#include "burn/data/mnist.hpp"
#include "fuzz_util.hpp"

namespace {

const std::filesystem::path& digits_dir() {
    static const std::filesystem::path dir = [] {
        auto d = burn::fuzz::scratch_dir() / "mnist";
        std::filesystem::create_directories(d);
        std::string one = "{\"data\": [";
        for (int i = 0; i < burn::data::kMnistPixels; ++i) one += i ? ",0.5" : "0";
        one += "]}";
        for (int c = 1; c < 10; ++c)
            burn::fuzz::write_file(d / (std::to_string(c) + ".json"),
                                   reinterpret_cast<const uint8_t*>(one.data()), one.size());
        return d;
    }();
    return dir;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
    using namespace burn::data;
    const auto& dir = digits_dir();
    burn::fuzz::write_file(dir / "0.json", data, size);
    for (MnistSplit split : {MnistSplit::train, MnistSplit::test}) {
        try {
            MnistOptions opts;
            opts.dir = dir;
            opts.check_package_counts = false;
            MnistDataset ds(split, opts);
            std::vector<MnistItem> items;
            for (std::size_t i = 0; i < ds.len(); ++i)
                if (auto item = ds.get(i)) items.push_back(*item);
            if (ds.get(ds.len())) __builtin_trap();  // past the end must be empty
            if (!items.empty()) MnistBatcher().batch(std::move(items), burn::Device());
        } catch (const burn::Error&) {
        }
    }
    return 0;
}
