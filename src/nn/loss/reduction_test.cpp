// The loss reductions (src/nn/loss/reduction.cpp).
#include "nn/layer_test_util.hpp"

using namespace burn;
using nn::loss::Reduction;

// File-local names in a namespace named after the file (a unity batch shares one translation unit).
namespace reduction_test {

namespace {

TEST(NnLossReduction, BatchMeanInMse) {
    auto x = Tensor<2>::from_floats({{1, 2}, {3, 4}});
    auto loss = nn::loss::MseLoss().forward(x, Tensor<2>::zeros({2, 2}), Reduction::BatchMean);
    EXPECT_FLOAT_EQ(loss.into_scalar(), 30.0f / 2.0f);
}

}  // namespace

}  // namespace reduction_test
