// Identity returns its input (Float or Int), and the gradient passes through it unchanged.
#include "nn/layer_test_util.hpp"

using namespace burn;

// File-local names in a namespace named after the file (a unity batch shares one translation unit).
namespace identity_test {

namespace {

TEST(NnIdentity, ReturnsItsInput) {
    auto dev = Device().autodiff();
    auto x = Tensor<3>::random({2, 3, 4}, Distribution::Normal(0, 1), dev).require_grad();
    auto y = nn::IdentityConfig{}.init().forward(x);
    EXPECT_TRUE(nn_test::close(y, x.into_data(), 0, 0));
    auto g = *x.grad((y * 3.0).sum().backward());
    EXPECT_TRUE(nn_test::close(g, Tensor<3>::full({2, 3, 4}, 3.0).into_data(), 0, 0));
    auto ints = Tensor<1, Int>::from_ints({1, 2});
    EXPECT_TRUE(nn_test::close(nn::Identity{}.forward(ints), ints.into_data(), 0, 0));
}

}  // namespace

}  // namespace identity_test
