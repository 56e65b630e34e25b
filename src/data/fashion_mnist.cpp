// MNIST-shaped IDX datasets and Fashion-MNIST (Debian's dataset-fashion-mnist).
#include "burn/data/fashion_mnist.hpp"

#include <algorithm>
#include <cstdlib>

#include "burn/data/idx.hpp"

namespace burn::data {

namespace fs = std::filesystem;

struct MnistIdxDataset::Data {
    std::vector<unsigned char> pixels;  // image i at [i * 784, (i + 1) * 784)
    std::vector<int32_t> labels;
    int32_t num_classes = 0;
};

namespace {

std::string idx_shape_text(const std::vector<std::size_t>& shape) {
    std::string s = "[";
    for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + "]";
}

// The file of a Fashion-MNIST part in dir: NAME.gz, else NAME uncompressed; empty when neither exists.
fs::path fashion_file(const fs::path& dir, const std::string& name) {
    std::error_code ec;
    if (fs::is_regular_file(dir / (name + ".gz"), ec)) return dir / (name + ".gz");
    if (fs::is_regular_file(dir / name, ec)) return dir / name;
    return {};
}

MnistIdxDataset fashion_split(const fs::path& dir, const std::string& prefix) {
    fs::path images = fashion_file(dir, prefix + "-images-idx3-ubyte");
    fs::path labels = fashion_file(dir, prefix + "-labels-idx1-ubyte");
    if (images.empty() || labels.empty())
        BURN_THROW_KIND(
            io, "[FashionMnist] '", dir.string(), "' has no ", prefix, "-",
            images.empty() ? "images-idx3" : "labels-idx1",
            "-ubyte(.gz). Install Debian's package (apt-get install dataset-fashion-mnist, which puts "
            "the files in /usr/share/datasets/fashion-mnist), or set BURN_FASHION_MNIST_DIR to a "
            "directory holding the four files of github.com/zalandoresearch/fashion-mnist");
    return MnistIdxDataset(images, labels);
}

}  // namespace

MnistIdxDataset::MnistIdxDataset(const fs::path& images, const fs::path& labels) {
    IdxArray img = read_idx(images);
    IdxArray lab = read_idx(labels);
    BURN_CHECK_KIND(img.type == IdxType::u8 && img.shape.size() == 3 && img.shape[1] == kMnistHeight &&
                        img.shape[2] == kMnistWidth,
                    io, "[MnistIdxDataset] '", images.string(), "' holds ", idx_type_name(img.type), " ",
                    idx_shape_text(img.shape),
                    "; MNIST-shaped images are u8 [n, 28, 28] (is it a labels file? the images file is the "
                    "*-images-idx3-ubyte one)");
    BURN_CHECK_KIND(lab.type == IdxType::u8 && lab.shape.size() == 1, io, "[MnistIdxDataset] '",
                    labels.string(), "' holds ", idx_type_name(lab.type), " ", idx_shape_text(lab.shape),
                    "; labels are u8 [n] (the *-labels-idx1-ubyte file)");
    BURN_CHECK_KIND(lab.shape[0] == img.shape[0], io, "[MnistIdxDataset] '", images.string(), "' has ",
                    img.shape[0], " images but '", labels.string(), "' has ", lab.shape[0],
                    " labels; give the images and labels of the same split");
    auto data = std::make_shared<Data>();
    data->pixels = std::move(img.bytes);
    data->labels.assign(lab.bytes.begin(), lab.bytes.end());
    for (auto l : data->labels) data->num_classes = std::max(data->num_classes, l + 1);
    data_ = std::move(data);
}

std::optional<MnistItem> MnistIdxDataset::get(std::size_t index) const {
    if (index >= data_->labels.size()) return std::nullopt;
    MnistItem item;
    const unsigned char* src = data_->pixels.data() + index * kMnistPixels;
    for (int j = 0; j < kMnistPixels; ++j) item.image[j] = static_cast<float>(src[j]) / 255.0f;
    item.label = data_->labels[index];
    return item;
}

std::size_t MnistIdxDataset::len() const {
    return data_->labels.size();
}

int32_t MnistIdxDataset::num_classes() const {
    return data_->num_classes;
}

MnistIdxDataset FashionMnist::train(const fs::path& dir) {
    return fashion_split(dir, "train");
}

MnistIdxDataset FashionMnist::test(const fs::path& dir) {
    return fashion_split(dir, "t10k");
}

fs::path FashionMnist::default_dir() {
    if (const char* d = std::getenv("BURN_FASHION_MNIST_DIR"); d && *d) return d;
    return "/usr/share/datasets/fashion-mnist";
}

bool FashionMnist::available(const fs::path& dir) {
    for (const char* name : {"train-images-idx3-ubyte", "train-labels-idx1-ubyte", "t10k-images-idx3-ubyte",
                             "t10k-labels-idx1-ubyte"})
        if (fashion_file(dir, name).empty()) return false;
    return true;
}

const std::array<const char*, 10>& FashionMnist::class_names() {
    static const std::array<const char*, 10> names = {"T-shirt/top", "Trouser",   "Pullover", "Dress",
                                                      "Coat",        "Sandal",    "Shirt",    "Sneaker",
                                                      "Bag",         "Ankle boot"};
    return names;
}

}  // namespace burn::data
