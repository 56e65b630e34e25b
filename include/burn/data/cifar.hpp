#pragma once
/// CIFAR-10 and CIFAR-100 in their binary format (burn's CifarDataset; Krizhevsky 2009, the
/// "binary version" archives cifar-10-binary.tar.gz and cifar-100-binary.tar.gz). Each file is a run
/// of records: CIFAR-10 a label byte (0..9), CIFAR-100 a coarse label byte (0..19) then a fine label
/// byte (0..99); then 3,072 pixel bytes, the 32 x 32 red plane, then green, then blue, rows top to
/// bottom. Nothing is downloaded: unpack an archive and give its folder (or the files).
///
///     auto train = data::CifarDataset::cifar10_train("cifar-10-batches-bin");  // data_batch_1..5.bin
///     auto item = *train.get(0);       // item.image: 32 x 32 RGB (HWC), item.label: 0..9
///     data::CifarDataset::cifar10_class_names()[item.label];
///     auto fine = data::CifarDataset::cifar100_test("cifar-100-binary");     // test.bin
///
/// The files are read whole at construction (30 MB per CIFAR-10 batch); items are decoded on get().
#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string_view>
#include <vector>

#include "burn/data/dataset.hpp"
#include "burn/data/image.hpp"

namespace burn::data {

enum class CifarKind { cifar10, cifar100 };

struct CifarItem {
    Image image;  // 32 x 32 x 3, HWC like read_image's, so the image transforms apply
    /// CIFAR-10: the class (0..9); CIFAR-100: the fine class (0..99).
    int32_t label = 0;
    /// CIFAR-100: the superclass (0..19); -1 for CIFAR-10.
    int32_t coarse_label = -1;
};

class CifarDataset final : public Dataset<CifarItem> {
  public:
    static constexpr std::size_t kSide = 32;
    static constexpr std::size_t kPixelBytes = 3 * kSide * kSide;  // 3,072

    /// The records of the files, in order. Throws burn::IoError naming the file when one is missing or
    /// empty, and the file and byte offset when a record is cut short (a truncated download) or a label
    /// is out of range (often: a CIFAR-100 file read as CIFAR-10 or the other way round).
    CifarDataset(const std::vector<std::filesystem::path>& files, CifarKind kind);
    /// The records of in-memory file contents; `name` is what errors mention.
    CifarDataset(std::string_view bytes, CifarKind kind, std::string_view name = "<memory>");

    /// dir/data_batch_1.bin .. data_batch_5.bin: 50,000 images.
    static CifarDataset cifar10_train(const std::filesystem::path& dir);
    /// dir/test_batch.bin: 10,000 images.
    static CifarDataset cifar10_test(const std::filesystem::path& dir);
    /// dir/train.bin: 50,000 images.
    static CifarDataset cifar100_train(const std::filesystem::path& dir);
    /// dir/test.bin: 10,000 images.
    static CifarDataset cifar100_test(const std::filesystem::path& dir);
    /// Bytes per record: 3,073 (CIFAR-10) or 3,074 (CIFAR-100).
    static std::size_t record_size(CifarKind kind) {
        return (kind == CifarKind::cifar10 ? 1 : 2) + kPixelBytes;
    }
    /// "airplane", "automobile", "bird", "cat", "deer", "dog", "frog", "horse", "ship", "truck".
    static const std::array<const char*, 10>& cifar10_class_names();

    std::optional<CifarItem> get(std::size_t index) const override;
    std::size_t len() const override;
    CifarKind kind() const { return kind_; }
    /// 10 or 100 (the fine classes).
    int32_t num_classes() const { return kind_ == CifarKind::cifar10 ? 10 : 100; }

    struct Data;  // the records, shared by copies

  private:
    CifarKind kind_;
    std::shared_ptr<const Data> data_;
};

}  // namespace burn::data
