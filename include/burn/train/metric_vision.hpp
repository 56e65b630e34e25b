#pragma once
/// Image metrics (burn's metric::vision): PSNR, SSIM, MS-SSIM and the Dice coefficient. They read an
/// ImageOutput (images [batch, channels, height, width]) or a SegmentationOutput (one-hot masks) through
/// MetricInput's predictions, target_values and item_shape. Each image's value is computed on the host
/// in float64; a batch's value is the mean over its images, and value() the mean over the epoch's
/// images (batches weighted by their size).
///
///     training.metric_valid_numeric(train::PsnrMetric(1.0))             // images in [0, 1]
///             .metric_valid_numeric(train::SsimMetric(train::SsimOptions{.data_range = 255.0}))
///             .metric_valid_numeric(train::DiceMetric().with_epsilon(1e-6));
///
/// SSIM follows Wang et al. (2004) as scikit-image and pytorch-msssim compute it: an 11-tap Gaussian
/// window (sigma 1.5) applied without padding (only windows inside the image count), K1 = 0.01,
/// K2 = 0.03. burn pads instead (zeros for SSIM, reflection for MS-SSIM), so its values differ near
/// the borders.
#include <cstddef>
#include <string>
#include <vector>

#include "burn/train/metric.hpp"

namespace burn::train {

/// Peak signal-to-noise ratio in dB: 10 log10(max_value^2 / MSE) per image, the MSE over its channels
/// and pixels and clamped below at epsilon (so identical images give 10 log10(max_value^2 / epsilon),
/// 100 dB by default).
class PsnrMetric final : public MeanMetric<PsnrMetric> {
  public:
    /// max_value: the largest pixel value (1 for images in [0, 1], 255 for 8-bit ones).
    explicit PsnrMetric(double max_value = 1.0, double epsilon = 1e-10);
    std::string name() const override { return "PSNR"; }
    std::string unit() const override { return "dB"; }
    Direction direction() const override { return Direction::highest; }
    void update(const MetricInput& input, const MetricMetadata& meta) override;

  private:
    double max_value_, epsilon_;
};

/// The parameters of SSIM and MS-SSIM.
struct SsimOptions {
    /// The range of pixel values: max - min (1 for [0, 1], 2 for [-1, 1], 255 for 8-bit images).
    double data_range = 1.0;
    /// Taps of the Gaussian window (odd) and its standard deviation.
    std::size_t window_size = 11;
    double sigma = 1.5;
    /// Stabilisers: C1 = (k1 * data_range)^2, C2 = (k2 * data_range)^2.
    double k1 = 0.01;
    double k2 = 0.03;
};

/// What SSIM gives for one channel of one image pair: the mean of the SSIM map and the mean of the
/// contrast-structure map (cs = (2 sigma_xy + C2) / (sigma_x^2 + sigma_y^2 + C2)).
struct SsimMeans {
    double ssim = 0;
    double cs = 0;
};

/// SSIM and cs of one channel (x and y: height * width values, row by row); throws when the image is
/// smaller than the window.
SsimMeans ssim_channel(const float* x, const float* y, std::size_t height, std::size_t width,
                       const SsimOptions& options);

/// Structural similarity (Wang et al. 2004) per image: the mean over its channels and over the window
/// positions inside the image. 1 for identical images. Images need height and width >= window_size.
class SsimMetric final : public MeanMetric<SsimMetric> {
  public:
    explicit SsimMetric(double data_range = 1.0) : SsimMetric(SsimOptions{.data_range = data_range}) {}
    explicit SsimMetric(SsimOptions options);
    std::string name() const override { return "SSIM"; }
    Direction direction() const override { return Direction::highest; }
    void update(const MetricInput& input, const MetricMetadata& meta) override;

  private:
    SsimOptions options_;
};

/// Multi-scale SSIM (Wang, Simoncelli and Bovik 2003) as pytorch-msssim computes it: at each of the
/// len(betas) scales the cs mean, then a 2 x 2 average pool (zero-padded by one on each side of an odd
/// dimension); at the last scale the SSIM mean. Per channel, prod_j max(cs_j, 0)^beta_j times
/// max(ssim, 0)^beta_last; per image the mean over channels. The smaller side of an image must exceed
/// (window_size - 1) * 2^(scales - 1) (160 for the defaults).
class MsSsimMetric final : public MeanMetric<MsSsimMetric> {
  public:
    explicit MsSsimMetric(double data_range = 1.0) : MsSsimMetric(SsimOptions{.data_range = data_range}) {}
    explicit MsSsimMetric(SsimOptions options,
                          std::vector<double> betas = {0.0448, 0.2856, 0.3001, 0.2363, 0.1333});
    std::string name() const override { return "MS-SSIM"; }
    Direction direction() const override { return Direction::highest; }
    void update(const MetricInput& input, const MetricMetadata& meta) override;
    /// MS-SSIM of one channel (x and y: height * width values, row by row).
    double channel(const float* x, const float* y, std::size_t height, std::size_t width) const;

  private:
    SsimOptions options_;
    std::vector<double> betas_;
};

/// The Dice coefficient of segmentation masks [batch, classes, ...] (burn's DiceMetric): a value above
/// 0.5 is inside a mask (give 0/1 masks or probabilities; SegmentationOutput gives one-hot masks).
/// Class 0 is the background and left out unless with_background() (with a single class, that class
/// counts). micro (the default, burn's) pools the batch's classes: (2 |X n Y| + eps) / (|X| + |Y| + eps);
/// macro averages that ratio over the classes. Empty masks on both sides give 1.
class DiceMetric final : public MeanMetric<DiceMetric> {
  public:
    DiceMetric() = default;
    DiceMetric& with_epsilon(double epsilon);
    /// Counts class 0 too; needs at least two classes.
    DiceMetric& with_background(bool include = true) {
        include_background_ = include;
        return *this;
    }
    DiceMetric& with_reduction(ClassReduction reduction) {
        reduction_ = reduction;
        return *this;
    }
    std::string name() const override { return "Dice"; }
    Direction direction() const override { return Direction::highest; }
    void update(const MetricInput& input, const MetricMetadata& meta) override;

  private:
    double epsilon_ = 1e-7;
    bool include_background_ = false;
    ClassReduction reduction_ = ClassReduction::micro;
};

}  // namespace burn::train

namespace burn::train::metric {
using train::DiceMetric;
using train::MsSsimMetric;
using train::PsnrMetric;
using train::SsimMetric;
using train::SsimOptions;
}  // namespace burn::train::metric
