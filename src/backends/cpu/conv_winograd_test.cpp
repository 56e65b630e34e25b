// Winograd F(2x2, 3x3) and F(4x4, 3x3) (conv_winograd.cpp) against a float64 convolution written here:
// the kernel on odd sizes, asymmetric and negative end padding, channel counts off the micro-kernel's
// tile, images split into several chunks of tile rows and a row of 70 tiles; the weight cache after
// weights changed in place and evictions; and the conv op on the generic GEMM (the path WebAssembly
// takes) with groups and a batch.
#include "backends/cpu/conv_winograd.hpp"

#include <gtest/gtest.h>

#include <burn/burn.hpp>
#include <cmath>
#include <random>
#include <vector>

#include "backends/cpu/dnnl_conv.hpp"
#include "backends/cpu/gemm.hpp"
#include "ops/module_ops_internal.hpp"
#include "reference.hpp"

namespace burn::cpu {
namespace conv_winograd_test {

struct Case {
    int64_t cg, og, ih, iw, pad_h, pad_w, end_h, end_w;
    bool bias;
};

/// y [og, oh, ow] in float64 and, per output, the sum of |x * w| + |b| its rounding error scales with.
void reference(const Case& t, const std::vector<float>& x, const std::vector<float>& w, const float* b,
               std::vector<double>& y, std::vector<double>& mag) {
    const int64_t oh = t.ih + t.pad_h + t.end_h - 2, ow = t.iw + t.pad_w + t.end_w - 2;
    y.assign(static_cast<std::size_t>(t.og * oh * ow), 0.0);
    mag = y;
    for (int64_t o = 0; o < t.og; ++o)
        for (int64_t i = 0; i < oh; ++i)
            for (int64_t j = 0; j < ow; ++j) {
                double acc = b ? b[o] : 0.0, m = b ? std::abs(double(b[o])) : 0.0;
                for (int64_t c = 0; c < t.cg; ++c)
                    for (int64_t ki = 0; ki < 3; ++ki)
                        for (int64_t kj = 0; kj < 3; ++kj) {
                            const int64_t r = i - t.pad_h + ki, s = j - t.pad_w + kj;
                            if (r < 0 || r >= t.ih || s < 0 || s >= t.iw) continue;
                            const double p =
                                double(x[static_cast<std::size_t>((c * t.ih + r) * t.iw + s)]) *
                                double(w[static_cast<std::size_t>(((o * t.cg + c) * 3 + ki) * 3 + kj)]);
                            acc += p;
                            m += std::abs(p);
                        }
                const auto at = static_cast<std::size_t>((o * oh + i) * ow + j);
                y[at] = acc;
                mag[at] = m;
            }
}

// The error stays within a small multiple of float32's epsilon times the sum of the magnitudes (one
// wrong tap is about 1/(9 cg) of it): F(2x2, 3x3) adds and subtracts at most four terms per transform,
// F(4x4, 3x3)'s coefficients (up to 8, and 1/6, 1/12, 1/24) round more.
double tolerance(int tile) {
    return tile == 2 ? 4e-6 : 2e-5;
}

TEST(CpuWinograd, KernelMatchesFloat64Reference) {
    const std::vector<Case> cases = {
        // cg  og  ih   iw  pad   end   bias
        {32, 64, 14, 14, 1, 1, 1, 1, true},  // the MNIST convnet's conv2
        {3, 5, 7, 9, 0, 0, 0, 0, false},     // no padding, odd output sizes, og not a tile multiple
        {16, 17, 8, 11, 2, 1, 0, 2, true},   // asymmetric padding
        {8, 16, 70, 66, 1, 1, 1, 1, true},   // several chunks of tile rows
        {2, 3, 6, 140, 1, 1, 1, 1, false},   // a row of 70 tiles
        {1, 1, 3, 3, 1, 1, 1, 1, true},      // one tile
        {20, 6, 5, 1, 1, 1, 1, 1, true},     // one column
        {4, 7, 9, 10, 1, 1, -1, 0, false},   // negative end padding: outputs stop before the edge
    };
    std::mt19937 rng(11);
    for (int tile : {2, 4})
        for (const Case& t : cases) {
            SCOPED_TRACE("tile " + std::to_string(tile) + " cg " + std::to_string(t.cg) + " og " +
                         std::to_string(t.og) + " in " + std::to_string(t.ih) + "x" + std::to_string(t.iw));
            const auto x = ref::uniform_values(t.cg * t.ih * t.iw, rng),
                       w = ref::uniform_values(t.og * t.cg * 9, rng), b = ref::uniform_values(t.og, rng);
            std::vector<double> ref, mag;
            reference(t, x, w, t.bias ? b.data() : nullptr, ref, mag);
            const int64_t oh = t.ih + t.pad_h + t.end_h - 2, ow = t.iw + t.pad_w + t.end_w - 2;
            const winograd::Conv3x3 s{t.cg, t.og, t.ih, t.iw, oh, ow, t.pad_h, t.pad_w, tile};
            std::vector<float> u(static_cast<std::size_t>(winograd::weights_size(tile, t.og, t.cg)));
            winograd::transform_weights(w.data(), tile, t.og, t.cg, u.data());
            std::vector<float> y(ref.size() + 1, 7.0f);  // one more: nothing written past the output
            winograd::conv3x3(s, x.data(), u.data(), t.bias ? b.data() : nullptr, y.data());
            for (std::size_t i = 0; i < ref.size(); ++i)
                ASSERT_NEAR(y[i], ref[i], tolerance(tile) * (mag[i] + 1e-3)) << "output " << i;
            EXPECT_EQ(y.back(), 7.0f);
        }
}

TEST(CpuWinograd, WeightCacheFollowsContents) {
    std::mt19937 rng(5);
    const int64_t og = 16, cg = 16;
    auto w = ref::uniform_values(2 * og * cg * 9, rng);  // two groups
    auto check = [&](const char* what) {
        for (int tile : {2, 4}) {  // the same weights for both tiles: two entries
            const int64_t per = winograd::weights_size(tile, og, cg);
            std::vector<float> want(static_cast<std::size_t>(2 * per));
            for (int64_t gi = 0; gi < 2; ++gi)
                winograd::transform_weights(w.data() + gi * og * cg * 9, tile, og, cg,
                                            want.data() + gi * per);
            const float* got = winograd::weights(w.data(), tile, 2, og, cg);
            for (std::size_t i = 0; i < want.size(); ++i)
                ASSERT_EQ(got[i], want[i]) << what << ", tile " << tile << ", element " << i;
        }
    };
    check("first call");
    check("cached");
    w[static_cast<std::size_t>(og * cg * 9 + 40)] += 0.5f;  // the same buffer, one weight changed
    check("changed in place");
    // More weight tensors than the cache keeps, then the first again.
    for (int i = 0; i < 12; ++i) {
        const auto other = ref::uniform_values(og * cg * 9, rng);
        (void)winograd::weights(other.data(), 2, 1, og, cg);
    }
    check("after evictions");
}

TEST(CpuWinograd, ConvOpOnTheGenericGemmMatchesFloat64Reference) {
    // The path of builds whose GEMM is the generic one (WebAssembly, Arm): no oneDNN, no AVX GEMM.
    std::mt19937 rng(9);
    const Device dev = Device::cpu();
    const int64_t n = 3, c = 32, o = 34, groups = 2, cg = c / groups, og = o / groups, h = 9, wd = 10;
    const auto xv = ref::uniform_values(n * c * h * wd, rng), wv = ref::uniform_values(o * cg * 9, rng),
               bv = ref::uniform_values(o, rng);
    const TensorAny w = ops::from_data(TensorData(wv, Dims{o, cg, 3, 3}), dev),
                    b = ops::from_data(TensorData(bv, Dims{o}), dev);
    ConvOptions<2> opt;
    opt.padding = {1, 1};
    opt.groups = static_cast<std::size_t>(groups);
    const Case t{cg, og, h, wd, 1, 1, 1, 1, true};
    // Three images (in parallel over images with threads), then the first alone (its products on the
    // threads).
    for (const int64_t batch : {n, int64_t(1)})
        for (int tile : {2, 4}) {
            const TensorAny x =
                ops::from_data(TensorData(std::vector<float>(xv.begin(), xv.begin() + batch * c * h * wd),
                                          Dims{batch, c, h, wd}),
                               dev);
            set_dnnl_conv_enabled(false);
            const GemmIsa isa = gemm_isa();
            set_gemm_isa(GemmIsa::generic);
            winograd::set_tile(tile);
            const auto y = ops::into_data(ops::conv2d(x, w, b, opt)).to_vec<float>();
            winograd::set_tile(0);
            set_gemm_isa(isa);
            set_dnnl_conv_enabled(true);
            ASSERT_EQ(y.size(), static_cast<std::size_t>(batch * o * h * wd));
            for (int64_t i = 0; i < batch; ++i)
                for (int64_t gi = 0; gi < groups; ++gi) {
                    const auto first = xv.begin() + (i * c + gi * cg) * h * wd;
                    const std::vector<float> xg(first, first + cg * h * wd),
                        wg(wv.begin() + gi * og * cg * 9, wv.begin() + (gi + 1) * og * cg * 9);
                    std::vector<double> ref, mag;
                    reference(t, xg, wg, bv.data() + gi * og, ref, mag);
                    for (std::size_t k = 0; k < ref.size(); ++k)
                        ASSERT_NEAR(y[static_cast<std::size_t>((i * o + gi * og) * h * wd) + k], ref[k],
                                    tolerance(tile) * (mag[k] + 1e-3))
                            << "tile " << tile << " image " << i << " group " << gi << " output " << k;
                }
        }
}

}  // namespace conv_winograd_test
}  // namespace burn::cpu
