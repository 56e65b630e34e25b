// The image metrics (burn/train/metric_vision.hpp): PSNR, SSIM, MS-SSIM and Dice, on the host in float64.
#include <algorithm>
#include <cmath>
#include <string>

#include "burn/core/error.hpp"
#include "burn/train/metric_vision.hpp"

namespace burn::train {

namespace metrics_vision_impl {  // named, not anonymous: unity builds merge anonymous namespaces

std::string shape_text(const std::vector<std::size_t>& shape) {
    std::string out = "[";
    for (std::size_t i = 0; i < shape.size(); ++i) out += (i ? ", " : "") + std::to_string(shape[i]);
    return out + "]";
}

/// The layout of a batch of images [batch, channels, height, width].
struct Images {
    std::size_t batch = 0, channels = 0, height = 0, width = 0;
    std::size_t plane() const { return height * width; }
    std::size_t item() const { return channels * plane(); }
};

Images images_of(const MetricInput& in, const char* metric) {
    BURN_CHECK_KIND(in.item_shape.size() == 3, shape, "[", metric,
                    "] needs images [batch, channels, height, width] (ImageOutput); the output gave items of "
                    "shape ",
                    shape_text(in.item_shape), " (does its metric_input() set item_shape?)");
    Images im{in.batch_size, in.item_shape[0], in.item_shape[1], in.item_shape[2]};
    BURN_CHECK_KIND(
        in.predictions.size() == im.batch * im.item() && in.target_values.size() == im.batch * im.item(),
        shape, "[", metric, "] ", in.predictions.size(), " predictions and ", in.target_values.size(),
        " targets for ", im.batch, " images of ", im.channels, " x ", im.height, " x ", im.width,
        " values; both must hold batch * channels * height * width values");
    return im;
}

/// A normalised 1-D Gaussian of `size` taps centred on size / 2.
std::vector<double> gaussian(std::size_t size, double sigma) {
    std::vector<double> g(size);
    double sum = 0;
    for (std::size_t i = 0; i < size; ++i) {
        const double d = static_cast<double>(i) - static_cast<double>(size / 2);
        g[i] = std::exp(-d * d / (2 * sigma * sigma));
        sum += g[i];
    }
    for (double& v : g) v /= sum;
    return g;
}

/// The separable Gaussian filter of a height x width plane over the window positions inside it:
/// (height - k + 1) x (width - k + 1) values.
std::vector<double> filter_valid(const std::vector<double>& in, std::size_t h, std::size_t w,
                                 const std::vector<double>& g) {
    const std::size_t k = g.size(), oh = h - k + 1, ow = w - k + 1;
    std::vector<double> rows(h * ow, 0.0), out(oh * ow, 0.0);
    for (std::size_t y = 0; y < h; ++y)
        for (std::size_t x = 0; x < ow; ++x) {
            double s = 0;
            for (std::size_t t = 0; t < k; ++t) s += g[t] * in[y * w + x + t];
            rows[y * ow + x] = s;
        }
    for (std::size_t y = 0; y < oh; ++y)
        for (std::size_t x = 0; x < ow; ++x) {
            double s = 0;
            for (std::size_t t = 0; t < k; ++t) s += g[t] * rows[(y + t) * ow + x];
            out[y * ow + x] = s;
        }
    return out;
}

void check_options(const SsimOptions& o, const char* metric) {
    BURN_CHECK(o.data_range > 0 && o.sigma > 0 && o.k1 > 0 && o.k2 > 0, "[", metric,
               "] data_range, sigma, k1 and k2 must be positive; got data_range ", o.data_range, ", sigma ",
               o.sigma, ", k1 ", o.k1, ", k2 ", o.k2);
    BURN_CHECK(o.window_size >= 1 && o.window_size % 2 == 1, "[", metric,
               "] window_size must be a positive odd number (11 is the standard); got ", o.window_size);
}

SsimMeans ssim_plane(const std::vector<double>& x, const std::vector<double>& y, std::size_t h, std::size_t w,
                     const SsimOptions& o) {
    BURN_CHECK_KIND(h >= o.window_size && w >= o.window_size, shape, "[SSIM] an image of ", h, " x ", w,
                    " is smaller than the ", o.window_size, " x ", o.window_size,
                    " window; use larger images or a smaller window_size");
    const auto g = gaussian(o.window_size, o.sigma);
    std::vector<double> xx(x.size()), yy(x.size()), xy(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
        xx[i] = x[i] * x[i];
        yy[i] = y[i] * y[i];
        xy[i] = x[i] * y[i];
    }
    const auto mx = filter_valid(x, h, w, g), my = filter_valid(y, h, w, g);
    const auto exx = filter_valid(xx, h, w, g), eyy = filter_valid(yy, h, w, g),
               exy = filter_valid(xy, h, w, g);
    const double c1 = std::pow(o.k1 * o.data_range, 2), c2 = std::pow(o.k2 * o.data_range, 2);
    double ssim = 0, cs = 0;
    for (std::size_t i = 0; i < mx.size(); ++i) {
        const double vx = exx[i] - mx[i] * mx[i], vy = eyy[i] - my[i] * my[i], cov = exy[i] - mx[i] * my[i];
        const double c = (2 * cov + c2) / (vx + vy + c2);
        cs += c;
        ssim += (2 * mx[i] * my[i] + c1) / (mx[i] * mx[i] + my[i] * my[i] + c1) * c;
    }
    const auto n = static_cast<double>(mx.size());
    return {ssim / n, cs / n};
}

/// 2 x 2 average pooling with stride 2, one zero of padding on each side of an odd dimension, the
/// zeros counted in the mean (avg_pool2d(kernel 2, padding h % 2, w % 2) as pytorch-msssim calls it).
std::vector<double> halve(const std::vector<double>& in, std::size_t& h, std::size_t& w) {
    const std::size_t ph = h % 2, pw = w % 2, oh = (h + 2 * ph - 2) / 2 + 1, ow = (w + 2 * pw - 2) / 2 + 1;
    std::vector<double> out(oh * ow, 0.0);
    for (std::size_t y = 0; y < oh; ++y)
        for (std::size_t x = 0; x < ow; ++x) {
            double s = 0;
            for (std::size_t dy = 0; dy < 2; ++dy)
                for (std::size_t dx = 0; dx < 2; ++dx) {
                    const std::size_t sy = 2 * y + dy, sx = 2 * x + dx;  // in padded coordinates
                    if (sy >= ph && sy - ph < h && sx >= pw && sx - pw < w) s += in[(sy - ph) * w + sx - pw];
                }
            out[y * ow + x] = s / 4;
        }
    h = oh;
    w = ow;
    return out;
}

std::vector<double> to_double(const float* p, std::size_t n) {
    return std::vector<double>(p, p + n);
}

}  // namespace metrics_vision_impl

namespace mvi = metrics_vision_impl;

PsnrMetric::PsnrMetric(double max_value, double epsilon) : max_value_(max_value), epsilon_(epsilon) {
    BURN_CHECK(max_value > 0 && epsilon > 0, "[PsnrMetric] max_value and epsilon must be positive; got ",
               max_value, " and ", epsilon, " (max_value is 1 for images in [0, 1], 255 for 8-bit images)");
}

void PsnrMetric::update(const MetricInput& in, const MetricMetadata&) {
    const auto im = mvi::images_of(in, "PsnrMetric");
    if (im.batch == 0) return;
    double sum = 0;
    for (std::size_t i = 0; i < im.batch; ++i) {
        double se = 0;
        for (std::size_t j = i * im.item(); j < (i + 1) * im.item(); ++j) {
            const double d = static_cast<double>(in.predictions[j]) - in.target_values[j];
            se += d * d;
        }
        const double mse = std::max(se / static_cast<double>(im.item()), epsilon_);
        sum += 10 * std::log10(max_value_ * max_value_ / mse);
    }
    mean_.add(sum / static_cast<double>(im.batch), static_cast<double>(im.batch));
}

SsimMeans ssim_channel(const float* x, const float* y, std::size_t height, std::size_t width,
                       const SsimOptions& options) {
    mvi::check_options(options, "ssim_channel");
    return mvi::ssim_plane(mvi::to_double(x, height * width), mvi::to_double(y, height * width), height,
                           width, options);
}

SsimMetric::SsimMetric(SsimOptions options) : options_(options) {
    mvi::check_options(options, "SsimMetric");
}

void SsimMetric::update(const MetricInput& in, const MetricMetadata&) {
    const auto im = mvi::images_of(in, "SsimMetric");
    if (im.batch == 0) return;
    double sum = 0;
    for (std::size_t i = 0; i < im.batch; ++i)
        for (std::size_t c = 0; c < im.channels; ++c) {
            const std::size_t at = i * im.item() + c * im.plane();
            sum += ssim_channel(in.predictions.data() + at, in.target_values.data() + at, im.height, im.width,
                                options_)
                       .ssim;
        }
    mean_.add(sum / static_cast<double>(im.batch * im.channels), static_cast<double>(im.batch));
}

MsSsimMetric::MsSsimMetric(SsimOptions options, std::vector<double> betas)
    : options_(options), betas_(std::move(betas)) {
    mvi::check_options(options, "MsSsimMetric");
    BURN_CHECK(!betas_.empty() && std::all_of(betas_.begin(), betas_.end(), [](double b) { return b >= 0; }),
               "[MsSsimMetric] betas (one weight per scale) must be non-empty and non-negative; the standard "
               "five are {0.0448, 0.2856, 0.3001, 0.2363, 0.1333}");
}

double MsSsimMetric::channel(const float* x, const float* y, std::size_t height, std::size_t width) const {
    const std::size_t min_side = (options_.window_size - 1) << (betas_.size() - 1);
    BURN_CHECK_KIND(std::min(height, width) > min_side, shape, "[MsSsimMetric] images of ", height, " x ",
                    width, " are too small for ", betas_.size(), " scales with a ", options_.window_size,
                    "-tap window: the smaller side must exceed (window_size - 1) * 2^(scales - 1) = ",
                    min_side, "; use larger images, fewer betas or a smaller window_size");
    auto a = mvi::to_double(x, height * width), b = mvi::to_double(y, height * width);
    std::size_t h = height, w = width;
    double out = 1;
    for (std::size_t level = 0; level < betas_.size(); ++level) {
        const SsimMeans m = mvi::ssim_plane(a, b, h, w, options_);
        if (level + 1 == betas_.size()) return out * std::pow(std::max(m.ssim, 0.0), betas_[level]);
        out *= std::pow(std::max(m.cs, 0.0), betas_[level]);
        std::size_t h2 = h, w2 = w;
        a = mvi::halve(a, h2, w2);
        b = mvi::halve(b, h, w);
    }
    return out;
}

void MsSsimMetric::update(const MetricInput& in, const MetricMetadata&) {
    const auto im = mvi::images_of(in, "MsSsimMetric");
    if (im.batch == 0) return;
    double sum = 0;
    for (std::size_t i = 0; i < im.batch; ++i)
        for (std::size_t c = 0; c < im.channels; ++c) {
            const std::size_t at = i * im.item() + c * im.plane();
            sum += channel(in.predictions.data() + at, in.target_values.data() + at, im.height, im.width);
        }
    mean_.add(sum / static_cast<double>(im.batch * im.channels), static_cast<double>(im.batch));
}

DiceMetric& DiceMetric::with_epsilon(double epsilon) {
    BURN_CHECK(epsilon > 0,
               "[DiceMetric] epsilon must be positive (it keeps empty masks from dividing by "
               "zero); got ",
               epsilon);
    epsilon_ = epsilon;
    return *this;
}

void DiceMetric::update(const MetricInput& in, const MetricMetadata&) {
    BURN_CHECK_KIND(!in.item_shape.empty(), shape,
                    "[DiceMetric] needs masks [batch, classes, ...] (SegmentationOutput, or ImageOutput with "
                    "0/1 masks); the output's metric_input() set no item_shape");
    const std::size_t classes = in.item_shape[0];
    std::size_t item = 1;
    for (auto d : in.item_shape) item *= d;
    const std::size_t pixels = classes > 0 ? item / classes : 0;
    BURN_CHECK_KIND(
        in.predictions.size() == in.batch_size * item && in.target_values.size() == in.batch_size * item,
        shape, "[DiceMetric] ", in.predictions.size(), " predictions and ", in.target_values.size(),
        " targets for ", in.batch_size, " items of shape ", mvi::shape_text(in.item_shape),
        "; both must hold batch * classes * ... values");
    BURN_CHECK(!include_background_ || classes >= 2,
               "[DiceMetric] with_background() needs at least two classes "
               "(class 0 is the background); the masks have ",
               classes, ". Leave it off for a single mask");
    if (in.batch_size == 0) return;
    const std::size_t first = (!include_background_ && classes > 1) ? 1 : 0;
    std::vector<double> both(classes, 0), pred(classes, 0), target(classes, 0);
    for (std::size_t i = 0; i < in.batch_size; ++i)
        for (std::size_t c = first; c < classes; ++c)
            for (std::size_t p = 0; p < pixels; ++p) {
                const std::size_t j = (i * classes + c) * pixels + p;
                const bool x = in.predictions[j] > 0.5f, y = in.target_values[j] > 0.5f;
                both[c] += x && y ? 1 : 0;
                pred[c] += x ? 1 : 0;
                target[c] += y ? 1 : 0;
            }
    double dice = 0;
    if (reduction_ == ClassReduction::micro) {
        double b = 0, p = 0, t = 0;
        for (std::size_t c = first; c < classes; ++c) {
            b += both[c];
            p += pred[c];
            t += target[c];
        }
        dice = (2 * b + epsilon_) / (p + t + epsilon_);
    } else {
        for (std::size_t c = first; c < classes; ++c)
            dice += (2 * both[c] + epsilon_) / (pred[c] + target[c] + epsilon_);
        dice /= static_cast<double>(classes - first);
    }
    mean_.add(dice, static_cast<double>(in.batch_size));
}

}  // namespace burn::train
