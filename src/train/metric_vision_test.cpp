// The image metrics. SSIM, MS-SSIM and PSNR against tests/fixtures/train/vision_metrics.json, computed in
// float64 with PyTorch by scripts/gen_vision_metric_fixtures.py from images made by the same integer recipe
// as images() below; PSNR and Dice also against hand-computed values.
#include "burn/train/metric_vision.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>

#include "burn/data/dataloader.hpp"
#include "burn/data/fake.hpp"
#include "burn/tensor/tensor.hpp"
#include "burn/train/evaluator.hpp"
#include "burn/train/output.hpp"
#include "fixture_root.hpp"

using namespace burn;
using namespace burn::train;

namespace metric_vision_test {

const MetricMetadata kMeta{};

nlohmann::json fixture() {
    std::ifstream f(burn::testing::fixture_root() / "train" / "vision_metrics.json");
    EXPECT_TRUE(f) << "tests/fixtures/train/vision_metrics.json is missing";
    return nlohmann::json::parse(f);
}

uint32_t mix(uint64_t n, uint64_t c, uint64_t i, uint64_t j) {
    constexpr uint64_t m = 0xFFFFFFFFull;
    uint64_t h = ((n * 73856093) ^ (c * 19349663) ^ (i * 83492791) ^ (j * 2654435761ull)) & m;
    h = ((h ^ (h >> 15)) * 2246822519ull) & m;
    return static_cast<uint32_t>(h ^ (h >> 13));
}

/// The integer pixel (prediction or target) of the fixture script's recipe.
int pixel(bool prediction, std::size_t n, std::size_t c, std::size_t i, std::size_t j) {
    const int base = static_cast<int>(((i / 4) * 37 + (j / 3) * 23 + c * 61 + n * 17) % 200 + 20);
    if (!prediction) return base;
    const int a = 8 + 16 * static_cast<int>(n);
    const int noise = static_cast<int>(mix(n, c, i, j) % static_cast<uint32_t>(2 * a + 1)) - a;
    return std::clamp(base + noise, 0, 255);
}

/// Item `only` (or every item) of a fixture case's images as a MetricInput.
MetricInput images(const nlohmann::json& shape, double data_range, int only = -1) {
    const std::size_t n = shape[0], c = shape[1], h = shape[2], w = shape[3];
    MetricInput in;
    in.item_shape = {c, h, w};
    for (std::size_t b = 0; b < n; ++b) {
        if (only >= 0 && b != static_cast<std::size_t>(only)) continue;
        in.batch_size += 1;
        for (std::size_t k = 0; k < c; ++k)
            for (std::size_t i = 0; i < h; ++i)
                for (std::size_t j = 0; j < w; ++j) {
                    const double scale = data_range == 1.0 ? 255.0 : 1.0;
                    in.predictions.push_back(static_cast<float>(pixel(true, b, k, i, j) / scale));
                    in.target_values.push_back(static_cast<float>(pixel(false, b, k, i, j) / scale));
                }
    }
    return in;
}

/// value() after one update per image equals each fixture value (through last()) and then their mean;
/// one update with the whole batch gives the same mean.
void expect_per_image(Metric& metric, const nlohmann::json& c, const std::string& key, double tol) {
    const auto& expected = c[key];
    double sum = 0;
    metric.clear();
    for (std::size_t i = 0; i < expected.size(); ++i) {
        metric.update(images(c["shape"], c["data_range"], static_cast<int>(i)), kMeta);
        EXPECT_NEAR(metric.last(), expected[i].get<double>(), tol) << metric.name() << " image " << i;
        sum += expected[i].get<double>();
    }
    const double mean = sum / static_cast<double>(expected.size());
    EXPECT_NEAR(metric.value(), mean, tol);
    metric.clear();
    EXPECT_TRUE(std::isnan(metric.value()));
    metric.update(images(c["shape"], c["data_range"]), kMeta);
    EXPECT_NEAR(metric.value(), mean, tol);
}

std::string error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

MetricInput masks(std::vector<std::size_t> item_shape, std::vector<float> pred, std::vector<float> target) {
    MetricInput in;
    std::size_t item = 1;
    for (auto d : item_shape) item *= d;
    in.batch_size = pred.size() / item;
    in.item_shape = std::move(item_shape);
    in.predictions = std::move(pred);
    in.target_values = std::move(target);
    return in;
}

/// A noisy and a clean 1 x 12 x 12 image.
struct Pair {
    std::vector<float> noisy, clean;
};

struct PairBatch {
    Tensor<4> noisy, clean;
};

struct PairBatcher final : data::Batcher<Pair, PairBatch> {
    PairBatch batch(std::vector<Pair> items, const Device& device) const override {
        std::vector<float> noisy, clean;
        for (const auto& p : items) {
            noisy.insert(noisy.end(), p.noisy.begin(), p.noisy.end());
            clean.insert(clean.end(), p.clean.begin(), p.clean.end());
        }
        const auto n = static_cast<int64_t>(items.size());
        return {Tensor<4>::from_data(TensorData(noisy, Dims{n, 1, 12, 12}), device),
                Tensor<4>::from_data(TensorData(clean, Dims{n, 1, 12, 12}), device)};
    }
};

/// The "model" of a denoiser that returns its input.
struct Identity {
    std::vector<Device> devices() const { return {}; }
    Identity valid() const { return *this; }
    ImageOutput infer_step(const PairBatch& b) const { return {Tensor<1>(), b.noisy, b.clean}; }
};

TEST(TrainVisionMetric, ImagesFollowTheFixtureRecipe) {
    const auto f = fixture();  // named: a range-for over fixture()["samples"] would use a destroyed temporary
    for (const auto& s : f["samples"]) {
        EXPECT_EQ(pixel(true, s[0], s[1], s[2], s[3]), s[4].get<int>()) << s.dump();
        EXPECT_EQ(pixel(false, s[0], s[1], s[2], s[3]), s[5].get<int>()) << s.dump();
    }
}

TEST(TrainVisionMetric, SsimMatchesTheFloat64Reference) {
    const auto f = fixture();
    const auto& c = f["ssim"];
    SsimMetric ssim(1.0);
    EXPECT_EQ(ssim.name(), "SSIM");
    EXPECT_EQ(ssim.direction(), Direction::highest);
    expect_per_image(ssim, c, "per_image", 1e-9);

    // the first channel of the first image, through the public per-channel function
    const auto in = images(c["shape"], 1.0, 0);
    const SsimMeans m = ssim_channel(in.predictions.data(), in.target_values.data(), 24, 20, SsimOptions{});
    EXPECT_NEAR(m.ssim, c["channel0"]["ssim"].get<double>(), 1e-9);
    EXPECT_NEAR(m.cs, c["channel0"]["cs"].get<double>(), 1e-9);

    const auto& o = f["ssim_options"];  // 8-bit values, a 7-tap window, other constants
    SsimMetric custom(
        SsimOptions{.data_range = 255.0, .window_size = 7, .sigma = 1.0, .k1 = 0.02, .k2 = 0.05});
    expect_per_image(custom, o, "per_image", 1e-9);
    SsimMetric defaults(255.0);  // the same images with the default window differ: the options are used
    defaults.update(images(o["shape"], 255.0, 0), kMeta);
    EXPECT_GT(std::abs(defaults.value() - o["per_image"][0].get<double>()), 1e-3);

    // identical images: 1
    auto same = images(c["shape"], 1.0);
    same.predictions = same.target_values;
    ssim.clear();
    ssim.update(same, kMeta);
    EXPECT_NEAR(ssim.value(), 1.0, 1e-12);
}

TEST(TrainVisionMetric, MsSsimMatchesTheFloat64Reference) {
    const auto f = fixture();
    MsSsimMetric ms(1.0);
    EXPECT_EQ(ms.name(), "MS-SSIM");
    expect_per_image(ms, f["ms_ssim"], "per_image", 1e-9);
    // three scales need a smaller side above (11 - 1) * 4 = 40; 24 x 20 images are too small
    MsSsimMetric three(SsimOptions{}, {0.3, 0.3, 0.4});
    const std::string e = error_of([&] { three.update(images(f["ssim"]["shape"], 1.0), kMeta); });
    EXPECT_NE(e.find("[MsSsimMetric] images of 24 x 20 are too small for 3 scales"), std::string::npos) << e;
    EXPECT_NE(e.find("must exceed (window_size - 1) * 2^(scales - 1) = 40"), std::string::npos) << e;
    EXPECT_THROW(MsSsimMetric(SsimOptions{}, {}), Error);
}

TEST(TrainVisionMetric, PsnrHandComputedAndReference) {
    // constant error 0.1: MSE 0.01, 20 dB; error 0.01: 40 dB; the batch's mean is per image: 30 dB
    PsnrMetric psnr;
    EXPECT_EQ(psnr.unit(), "dB");
    psnr.update(
        masks({1, 2, 2}, {0.1f, 0.1f, 0.1f, 0.1f, 0.01f, 0.01f, 0.01f, 0.01f}, std::vector<float>(8, 0.0f)),
        kMeta);
    EXPECT_NEAR(psnr.last(), 30.0, 1e-5);
    // errors 0.1, 0.2, 0.3, 0.4: MSE 0.075, 10 log10(1 / 0.075) = 11.2494 dB; weighted 2 : 1 with the first
    psnr.update(masks({1, 2, 2}, {0.1f, 0.2f, 0.3f, 0.4f}, {0, 0, 0, 0}), kMeta);
    EXPECT_NEAR(psnr.last(), 10 * std::log10(1 / 0.075), 1e-5);
    EXPECT_NEAR(psnr.value(), (2 * 30.0 + 10 * std::log10(1 / 0.075)) / 3, 1e-5);
    // 8-bit: error 10 everywhere, 10 log10(255^2 / 100) = 28.1308 dB; identical images: 10 log10(1 / 1e-10)
    PsnrMetric eight(255.0);
    eight.update(masks({3, 1, 1}, {10, 20, 30}, {0, 10, 20}), kMeta);
    EXPECT_NEAR(eight.value(), 28.130803608679102, 1e-9);
    psnr.clear();
    psnr.update(masks({1, 1, 2}, {0.5f, 0.25f}, {0.5f, 0.25f}), kMeta);
    EXPECT_NEAR(psnr.value(), 100.0, 1e-9);
    // the fixture's images
    const auto f = fixture();
    expect_per_image(psnr, f["ssim"], "psnr_per_image", 1e-6);
    PsnrMetric psnr255(255.0);
    expect_per_image(psnr255, f["ssim_options"], "psnr_per_image", 1e-6);
    EXPECT_THROW(PsnrMetric(0.0), Error);
}

TEST(TrainVisionMetric, DiceMicroMacroAndBackground) {
    // one item, 3 classes of 4 pixels. Class 0 (background): pred {1,1,0,0} target {1,0,0,0};
    // class 1: pred {0,0,1,0} target {0,1,1,0}: |X n Y| 1, |X| 1, |Y| 2;
    // class 2: pred {0,0,0,1} target {0,0,0,1}: 1, 1, 1.
    const std::vector<float> pred = {1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    const std::vector<float> target = {1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1};
    const double eps = 1e-7;
    DiceMetric micro;
    micro.update(masks({3, 2, 2}, pred, target), kMeta);
    EXPECT_NEAR(micro.value(), (2 * 2 + eps) / (2 + 3 + eps), 1e-12);  // classes 1 and 2 pooled: 0.8
    DiceMetric macro;
    macro.with_reduction(ClassReduction::macro);
    macro.update(masks({3, 2, 2}, pred, target), kMeta);
    EXPECT_NEAR(macro.value(), ((2 + eps) / (3 + eps) + (2 + eps) / (2 + eps)) / 2, 1e-12);
    DiceMetric background;
    background.with_background().with_epsilon(1e-3);
    background.update(masks({3, 2, 2}, pred, target), kMeta);
    EXPECT_NEAR(background.value(), (2 * 3 + 1e-3) / (4 + 4 + 1e-3), 1e-12);
    // probabilities: above 0.5 is in the mask; a single class is the foreground
    DiceMetric single;
    single.update(masks({1, 4}, {0.9f, 0.6f, 0.4f, 0.1f}, {1, 0, 1, 0}), kMeta);
    EXPECT_NEAR(single.value(), (2 * 1 + eps) / (2 + 2 + eps), 1e-12);
    // both empty: 1; then a second batch of two items weighs twice
    single.clear();
    single.update(masks({1, 2}, {0, 0}, {0, 0}), kMeta);
    EXPECT_NEAR(single.value(), 1.0, 1e-12);
    single.update(masks({1, 2}, {1, 0, 0, 1}, {0, 1, 1, 0}), kMeta);  // no overlap: eps / (4 + eps)
    EXPECT_NEAR(single.last(), eps / (4 + eps), 1e-12);
    EXPECT_NEAR(single.value(), (1.0 + 2 * eps / (4 + eps)) / 3, 1e-12);
    const std::string e = error_of([] {
        DiceMetric().with_background().update(masks({1, 2}, {1, 0}, {1, 0}), kMeta);
    });
    EXPECT_NE(e.find("with_background() needs at least two classes"), std::string::npos) << e;
    EXPECT_THROW(DiceMetric().with_epsilon(0), Error);
}

TEST(TrainVisionMetric, OutputsGiveImagesAndOneHotMasks) {
    // ImageOutput: [2, 1, 1, 2] images, errors 0.1 and 0.3 / 0.1: PSNR per image 20 and 10 log10(1 / 0.05)
    ImageOutput image{Tensor<1>::from_floats({0.5}), Tensor<4>::from_floats({{{{0.1, 0.1}}}, {{{0.3, 0.1}}}}),
                      Tensor<4>::from_floats({{{{0.0, 0.0}}}, {{{0.0, 0.0}}}})};
    const MetricInput in = image.metric_input();
    EXPECT_EQ(in.batch_size, 2u);
    EXPECT_EQ(in.item_shape, (std::vector<std::size_t>{1, 1, 2}));
    PsnrMetric psnr;
    psnr.update(in, kMeta);
    EXPECT_NEAR(psnr.value(), (20.0 + 10 * std::log10(1 / 0.05)) / 2, 1e-5);

    // SegmentationOutput: 3 classes over 1 x 3 pixels; argmax per pixel: 0, 2, 1 (ties go to the first)
    SegmentationOutput seg{Tensor<1>(), Tensor<4>::from_floats({{{{5, 0, 1}}, {{5, 0, 3}}, {{0, 2, 1}}}}),
                           Tensor<3, Int>::from_ints({{{0, 1, 1}}})};
    const MetricInput s = seg.metric_input();
    EXPECT_EQ(s.item_shape, (std::vector<std::size_t>{3, 1, 3}));
    EXPECT_EQ(s.predictions, (std::vector<float>{1, 0, 0, 0, 0, 1, 0, 1, 0}));
    EXPECT_EQ(s.target_values, (std::vector<float>{1, 0, 0, 0, 1, 1, 0, 0, 0}));
    DiceMetric dice;  // classes 1 and 2: pixel 2 is class 1 in both; |X| = 2 (pixels 1, 2), |Y| = 2
    dice.update(s, kMeta);
    EXPECT_NEAR(dice.value(), (2 * 1 + 1e-7) / (2 + 2 + 1e-7), 1e-12);

    SegmentationOutput bad{Tensor<1>(), Tensor<4>::zeros({1, 2, 1, 2}),
                           Tensor<3, Int>::from_ints({{{0, 2}}})};
    const std::string e = error_of([&] { bad.metric_input(); });
    EXPECT_NE(e.find("has class 2, outside the output's 2 classes"), std::string::npos) << e;
}

TEST(TrainVisionMetric, ErrorsNameTheShapesAndTheFix) {
    MetricInput rows;  // a regression output: no item_shape
    rows.batch_size = 1;
    rows.predictions = rows.target_values = {1, 2};
    std::string e = error_of([&] { SsimMetric().update(rows, kMeta); });
    EXPECT_NE(e.find("[SsimMetric] needs images [batch, channels, height, width] (ImageOutput)"),
              std::string::npos)
        << e;
    e = error_of([&] { DiceMetric().update(rows, kMeta); });
    EXPECT_NE(e.find("set no item_shape"), std::string::npos) << e;
    e = error_of([&] {
        SsimMetric().update(masks({1, 8, 8}, std::vector<float>(64), std::vector<float>(64)), kMeta);
    });
    EXPECT_NE(e.find("an image of 8 x 8 is smaller than the 11 x 11 window"), std::string::npos) << e;
    e = error_of([&] {
        PsnrMetric().update(masks({1, 2, 2}, std::vector<float>(4), std::vector<float>(3)), kMeta);
    });
    EXPECT_NE(e.find("4 predictions and 3 targets for 1 images of 1 x 2 x 2"), std::string::npos) << e;
    e = error_of([] { SsimMetric(SsimOptions{.window_size = 4}); });
    EXPECT_NE(e.find("window_size must be a positive odd number"), std::string::npos) << e;
}

TEST(TrainVisionMetric, EvaluatorAveragesImagesOverBatches) {
    // 7 random image pairs in batches of 3, 3 and 1: the epoch's value is the mean over the 7 images
    data::FakeDataset pairs(7, 11, [](data::Rng& rng) {
        Pair p{std::vector<float>(144), std::vector<float>(144)};
        for (std::size_t i = 0; i < 144; ++i) {
            p.clean[i] = static_cast<float>(rng.uniform());
            p.noisy[i] = std::clamp(p.clean[i] + static_cast<float>(0.2 * rng.uniform() - 0.1), 0.0f, 1.0f);
        }
        return p;
    });
    auto loader = data::DataLoaderBuilder(PairBatcher()).batch_size(3).build(pairs);
    const auto report = Evaluator()
                            .metric_numeric(PsnrMetric())
                            .metric_numeric(SsimMetric())
                            .eval("test", Identity(), loader);
    EXPECT_EQ(report.batches, 3u);
    EXPECT_EQ(report.items, 7u);
    double psnr = 0, ssim = 0;
    for (const auto& p : pairs.to_vec()) {
        double se = 0;  // PSNR by hand, in float64
        for (std::size_t i = 0; i < 144; ++i) se += std::pow(static_cast<double>(p.noisy[i]) - p.clean[i], 2);
        psnr += 10 * std::log10(1.0 / (se / 144)) / 7;
        ssim += ssim_channel(p.noisy.data(), p.clean.data(), 12, 12, SsimOptions{}).ssim / 7;
    }
    EXPECT_NEAR(report.value("PSNR"), psnr, 1e-9);
    EXPECT_NEAR(report.value("SSIM"), ssim, 1e-12);
    EXPECT_GT(report.value("PSNR"), 20.0);  // noise of at most 0.1: MSE below 0.01
}

}  // namespace metric_vision_test
