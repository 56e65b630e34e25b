// LocalResponseNorm against torch.nn.LocalResponseNorm (tests/fixtures/nn_layers/modules_extra.json,
// scripts/gen_module_extra_fixtures.py): odd and even window sizes, non-default alpha, beta, k, and a
// 3-D input; values and input gradients.
#include "nn/layer_test_util.hpp"

using namespace burn;

// File-local names in a namespace named after the file (a unity batch shares one translation unit).
namespace local_response_norm_test {

namespace {

TEST(NnLocalResponseNorm, MatchesPyTorch) {
    auto f = nn_test::load_fixture("modules_extra");
    auto dev = Device().autodiff();
    {
        auto x = f.floats<4>("lrn.x4", dev).require_grad();
        nn_test::expect_output_and_grads(f, "lrn.s3", nn::LocalResponseNormConfig{3}.init().forward(x),
                                         {{"x", x.handle()}});
    }
    {
        auto x = f.floats<4>("lrn.x4", dev).require_grad();
        nn_test::expect_output_and_grads(f, "lrn.s4",
                                         nn::LocalResponseNormConfig{4, 0.5, 0.6, 2.0}.init().forward(x),
                                         {{"x", x.handle()}});
    }
    auto x = f.floats<3>("lrn.x3", dev).require_grad();
    nn_test::expect_output_and_grads(f, "lrn.r3", nn::LocalResponseNormConfig{2, 0.1}.init().forward(x),
                                     {{"x", x.handle()}});
}

TEST(NnLocalResponseNorm, Errors) {
    nn_test::expect_error_mentions(
        [] {
            nn::LocalResponseNorm{}.forward(Tensor<2>::zeros({4, 6}));
        },
        {"[LocalResponseNorm]", "[4, 6]", "rank >= 3"});
    EXPECT_THROW(nn::LocalResponseNorm{}.forward(Tensor<2>::zeros({4, 6})), ShapeError);
    EXPECT_THROW(nn::LocalResponseNormConfig{0}.init(), Error);
}

}  // namespace

}  // namespace local_response_norm_test
