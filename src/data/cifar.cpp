// CIFAR-10 / CIFAR-100 binary files: records of label byte(s) then 3,072 CHW pixel bytes.
#include "burn/data/cifar.hpp"

#include "burn/core/error.hpp"
#include "platform/files.hpp"

namespace burn::data {

namespace fs = std::filesystem;

struct CifarDataset::Data {
    std::vector<uint8_t> records;  // every file's records, concatenated
    std::size_t count = 0;
};

namespace cifar_impl {  // named, not anonymous: unity builds merge anonymous namespaces

const char* kind_name(CifarKind kind) {
    return kind == CifarKind::cifar10 ? "CIFAR-10" : "CIFAR-100";
}

/// Checks one file's bytes and appends its records.
void append_records(CifarDataset::Data& data, std::string_view bytes, CifarKind kind, std::string_view name) {
    const std::size_t size = CifarDataset::record_size(kind);
    const char* other = kind == CifarKind::cifar10 ? "CifarKind::cifar100" : "CifarKind::cifar10";
    BURN_CHECK_KIND(!bytes.empty(), io, "[CifarDataset] '", name, "' is empty; a ", kind_name(kind),
                    " file holds records of ", size, " bytes (download and unpack it again)");
    const std::size_t whole = bytes.size() / size;
    BURN_CHECK_KIND(bytes.size() % size == 0, io, "[CifarDataset] '", name, "' is truncated: record ", whole,
                    " starts at byte offset ", whole * size, " but the file ends at byte ", bytes.size(),
                    ", ", bytes.size() - whole * size, " of the ", size, " bytes of a ", kind_name(kind),
                    " record (1 label byte", kind == CifarKind::cifar10 ? "" : " + 1 coarse label byte",
                    " + 3,072 pixels); download and unpack the file again",
                    kind == CifarKind::cifar10 ? ", or read a CIFAR-100 file with CifarKind::cifar100" : "");
    const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
    for (std::size_t r = 0; r < whole; ++r) {
        const std::size_t at = r * size;
        if (kind == CifarKind::cifar10) {
            BURN_CHECK_KIND(p[at] < 10, io, "[CifarDataset] '", name, "' byte offset ", at, " (record ", r,
                            "): label ", int{p[at]},
                            " is not a CIFAR-10 class (0..9); is it a CIFAR-100 file (", other, ")?");
        } else {
            BURN_CHECK_KIND(p[at] < 20, io, "[CifarDataset] '", name, "' byte offset ", at, " (record ", r,
                            "): coarse label ", int{p[at]},
                            " is not a CIFAR-100 superclass (0..19); is it a CIFAR-10 file (", other, ")?");
            BURN_CHECK_KIND(p[at + 1] < 100, io, "[CifarDataset] '", name, "' byte offset ", at + 1,
                            " (record ", r, "): fine label ", int{p[at + 1]},
                            " is not a CIFAR-100 class (0..99)");
        }
    }
    data.records.insert(data.records.end(), p, p + bytes.size());
    data.count += whole;
}

CifarDataset split(const fs::path& dir, std::vector<std::string> names, CifarKind kind) {
    std::vector<fs::path> files;
    for (const auto& n : names) {
        std::error_code ec;
        BURN_CHECK_KIND(fs::is_regular_file(dir / n, ec), io, "[CifarDataset] '", (dir / n).string(),
                        "' does not exist; ", kind_name(kind), " comes from ",
                        kind == CifarKind::cifar10 ? "cifar-10-binary.tar.gz (folder cifar-10-batches-bin)"
                                                   : "cifar-100-binary.tar.gz (folder cifar-100-binary)",
                        " at https://www.cs.toronto.edu/~kriz/cifar.html: unpack it and give that folder");
        files.push_back(dir / n);
    }
    return CifarDataset(files, kind);
}

}  // namespace cifar_impl

CifarDataset::CifarDataset(const std::vector<fs::path>& files, CifarKind kind) : kind_(kind) {
    BURN_CHECK(!files.empty(), "[CifarDataset] no files given; name the .bin files (data_batch_1.bin, ...)");
    auto data = std::make_shared<Data>();
    for (const auto& f : files)
        cifar_impl::append_records(*data, platform::read_file(f, "CifarDataset"), kind, f.string());
    data_ = std::move(data);
}

CifarDataset::CifarDataset(std::string_view bytes, CifarKind kind, std::string_view name) : kind_(kind) {
    auto data = std::make_shared<Data>();
    cifar_impl::append_records(*data, bytes, kind, name);
    data_ = std::move(data);
}

CifarDataset CifarDataset::cifar10_train(const fs::path& dir) {
    return cifar_impl::split(
        dir,
        {"data_batch_1.bin", "data_batch_2.bin", "data_batch_3.bin", "data_batch_4.bin", "data_batch_5.bin"},
        CifarKind::cifar10);
}

CifarDataset CifarDataset::cifar10_test(const fs::path& dir) {
    return cifar_impl::split(dir, {"test_batch.bin"}, CifarKind::cifar10);
}

CifarDataset CifarDataset::cifar100_train(const fs::path& dir) {
    return cifar_impl::split(dir, {"train.bin"}, CifarKind::cifar100);
}

CifarDataset CifarDataset::cifar100_test(const fs::path& dir) {
    return cifar_impl::split(dir, {"test.bin"}, CifarKind::cifar100);
}

const std::array<const char*, 10>& CifarDataset::cifar10_class_names() {
    static const std::array<const char*, 10> names = {"airplane", "automobile", "bird",  "cat",  "deer",
                                                      "dog",      "frog",       "horse", "ship", "truck"};
    return names;
}

std::size_t CifarDataset::len() const {
    return data_->count;
}

std::optional<CifarItem> CifarDataset::get(std::size_t index) const {
    if (index >= data_->count) return std::nullopt;
    const uint8_t* r = data_->records.data() + index * record_size(kind_);
    CifarItem item;
    if (kind_ == CifarKind::cifar10) {
        item.label = r[0];
    } else {
        item.coarse_label = r[0];
        item.label = r[1];
    }
    const uint8_t* planes = r + (kind_ == CifarKind::cifar10 ? 1 : 2);
    constexpr int side = static_cast<int>(kSide);
    item.image = Image(side, side, 3);
    for (int c = 0; c < 3; ++c)
        for (int y = 0; y < side; ++y)
            for (int x = 0; x < side; ++x) item.image.at(y, x, c) = planes[(c * side + y) * side + x];
    return item;
}

}  // namespace burn::data
