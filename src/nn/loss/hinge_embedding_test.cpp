// HingeEmbeddingLoss against torch.nn.functional.hinge_embedding_loss (losses_extra.json): every
// reduction and a margin of 2, Float and Int targets; values and input gradients.
#include "nn/loss/loss_test_util.hpp"

using namespace burn;
using nn::loss::Reduction;

// File-local names in a namespace named after the file (a unity batch shares one translation unit).
namespace hinge_embedding_test {

namespace {

TEST(NnHingeEmbeddingLoss, MatchesPyTorch) {
    auto f = nn_test::load_fixture("losses_extra");
    auto dev = Device().autodiff();
    auto y = f.floats<2>("hinge.y", dev);
    auto yi = f.ints<2>("hinge.y", dev);
    for (auto [red, name] : {std::pair{Reduction::Mean, "mean"}, std::pair{Reduction::Sum, "sum"}}) {
        auto x = f.floats<2>("hinge.x", dev).require_grad();
        nn_test::expect_loss_and_grads(f, std::string("hinge.") + name,
                                       nn::loss::HingeEmbeddingLossConfig{}.init().forward(x, y, red),
                                       {{"x", x.handle()}});
    }
    auto x = f.floats<2>("hinge.x", dev).require_grad();
    nn_test::expect_loss_and_grads(
        f, "hinge.none", nn::loss::HingeEmbeddingLoss{}.forward_no_reduction(x, yi), {{"x", x.handle()}});
    auto x2 = f.floats<2>("hinge.x", dev).require_grad();
    nn_test::expect_loss_and_grads(
        f, "hinge.m2.mean", nn::loss::HingeEmbeddingLossConfig{2.0}.init().forward(x2, yi, Reduction::Mean),
        {{"x", x2.handle()}});
}

TEST(NnHingeEmbeddingLoss, Errors) {
    nn_test::expect_error_mentions(
        [] {
            nn::loss::HingeEmbeddingLoss{}.forward(Tensor<2>::zeros({3, 5}), Tensor<2>::ones({5, 3}),
                                                   Reduction::Mean);
        },
        {"[HingeEmbeddingLoss]", "[3, 5]", "[5, 3]", "one target"});
    EXPECT_THROW(nn::loss::HingeEmbeddingLoss{}.forward(Tensor<2>::zeros({3, 5}), Tensor<2>::ones({5, 3}),
                                                        Reduction::Mean),
                 ShapeError);
}

}  // namespace

}  // namespace hinge_embedding_test
