// GaussianNoise: noise only on autodiff (training) devices with the configured spread, a gradient of
// one through the noise. (No PyTorch fixture: the noise is random; its statistics are checked.)
#include <cmath>

#include "nn/layer_test_util.hpp"

using namespace burn;

// File-local names in a namespace named after the file (a unity batch shares one translation unit).
namespace gaussian_noise_test {

namespace {

TEST(NnGaussianNoise, AddsNoiseOfTheConfiguredStdInTrainingOnly) {
    auto noise = nn::GaussianNoiseConfig{0.5}.init();
    auto x = Tensor<2>::ones({200, 100});
    EXPECT_TRUE(nn_test::close(noise.forward(x), x.into_data(), 0, 0)) << "plain devices are evaluation";

    auto dev = Device().autodiff();
    auto xt = Tensor<2>::ones({200, 100}, dev).require_grad();
    auto y = noise.forward(xt);
    auto v = (y - 1.0).into_data().to_vec<float>();
    double mean = 0, sq = 0;
    for (float e : v) {
        mean += e;
        sq += double(e) * e;
    }
    mean /= v.size();
    const double sd = std::sqrt(sq / v.size() - mean * mean);
    EXPECT_NEAR(mean, 0.0, 0.02);
    EXPECT_NEAR(sd, 0.5, 0.02);
    auto g = *xt.grad(y.sum().backward());
    EXPECT_TRUE(nn_test::close(g, Tensor<2>::ones({200, 100}).into_data(), 0, 0));
    EXPECT_THROW(nn::GaussianNoiseConfig{-0.1}.init(), Error);
}

}  // namespace

}  // namespace gaussian_noise_test
