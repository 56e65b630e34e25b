#pragma once
/// MNIST-shaped datasets in IDX files (idx.hpp): 28 x 28 grey images with a label, as MnistItem, so
/// MnistBatcher and the MNIST models take them unchanged.
///
/// Fashion-MNIST (Zalando; 60,000 training and 10,000 test images of clothes in 10 classes) comes
/// from Debian's dataset-fashion-mnist package, which puts the four .gz files in
/// /usr/share/datasets/fashion-mnist (`apt-get install dataset-fashion-mnist`). BURN_FASHION_MNIST_DIR
/// names another directory (files compressed or not).
///
///     auto train = data::FashionMnist::train();   // 60,000 items
///     auto test = data::FashionMnist::test();     // 10,000 items
///     data::FashionMnist::class_names()[train.get(0)->label];
///
/// MnistIdxDataset reads any such pair of files (the original MNIST's train-images-idx3-ubyte and
/// train-labels-idx1-ubyte, KMNIST, ...).
#include <array>
#include <filesystem>
#include <memory>

#include "burn/data/dataset.hpp"
#include "burn/data/mnist.hpp"

namespace burn::data {

/// Images (IDX u8 [n, 28, 28]) and labels (IDX u8 [n]) as MnistItems with grey levels in [0, 1].
class MnistIdxDataset final : public Dataset<MnistItem> {
  public:
    /// Throws burn::IoError when a file is missing or damaged, or the shapes or counts disagree.
    MnistIdxDataset(const std::filesystem::path& images, const std::filesystem::path& labels);
    std::optional<MnistItem> get(std::size_t index) const override;
    std::size_t len() const override;
    /// 1 + the largest label.
    int32_t num_classes() const;

    struct Data;  // pixels and labels, shared by copies

  private:
    std::shared_ptr<const Data> data_;
};

struct FashionMnist {
    /// The 60,000 training images.
    static MnistIdxDataset train(const std::filesystem::path& dir = default_dir());
    /// The 10,000 test images.
    static MnistIdxDataset test(const std::filesystem::path& dir = default_dir());
    /// $BURN_FASHION_MNIST_DIR when set, else /usr/share/datasets/fashion-mnist (Debian's package).
    static std::filesystem::path default_dir();
    /// Whether dir holds the four files (compressed or not); it does not check their contents.
    static bool available(const std::filesystem::path& dir = default_dir());
    /// "T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal", "Shirt", "Sneaker", "Bag",
    /// "Ankle boot": the names of labels 0 .. 9.
    static const std::array<const char*, 10>& class_names();
};

}  // namespace burn::data
