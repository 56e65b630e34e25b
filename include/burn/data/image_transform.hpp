#pragma once
/// Image transforms on data::Image (HWC u8, image.hpp): resize, crops, flips, and normalisation into
/// a tensor-ready float buffer. Plain functions of an image (and an Rng for the random ones), so they
/// compose inside a MapperDataset or a batcher; a random one made deterministic per item takes an Rng
/// seeded from the item's index (data::derive_seed(seed, index)).
///
///     auto x = data::center_crop(data::resize(img, 256, 256), 224, 224);
///     std::vector<float> chw = data::normalize(x, {0.485f, 0.456f, 0.406f}, {0.229f, 0.224f, 0.225f});
///     Tensor<3>::from_data(TensorData(chw, Dims{3, 224, 224}), device);
#include <vector>

#include "burn/data/image.hpp"
#include "burn/data/rng.hpp"

namespace burn::data {

/// Bilinear resize to height x width, sampling at pixel centres (torch's interpolate with
/// align_corners=False and no antialiasing, OpenCV's INTER_LINEAR); values rounded to the nearest u8.
Image resize(const Image& image, int height, int width);
/// The height x width window whose top-left corner is (top, left); it must lie inside the image.
Image crop(const Image& image, int top, int left, int height, int width);
/// The centred height x width window: its top-left corner at round((H - h) / 2), round((W - w) / 2)
/// with halves rounded to even, as torchvision's CenterCrop rounds them; the image must be at least
/// that large.
Image center_crop(const Image& image, int height, int width);
/// A height x width window at a uniformly random position.
Image random_crop(const Image& image, int height, int width, Rng& rng);
/// Mirrored left to right.
Image hflip(const Image& image);
/// Mirrored left to right with probability p.
Image random_hflip(const Image& image, Rng& rng, double p = 0.5);
/// Pixels scaled to [0, 1], then (x - mean[c]) / std[c] per channel, in CHW order (channels first,
/// what conv layers take) or HWC. mean and std have one value per channel, or one for all.
std::vector<float> normalize(const Image& image, const std::vector<float>& mean,
                             const std::vector<float>& std, bool channels_first = true);

}  // namespace burn::data
