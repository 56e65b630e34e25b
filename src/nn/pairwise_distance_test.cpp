// PairwiseDistance against torch.nn.functional.pairwise_distance
// (tests/fixtures/nn_layers/modules_extra.json, scripts/gen_module_extra_fixtures.py): p = 2, 1, 3 and
// infinity, keepdim with another eps; values and the gradients of both inputs.
#include <limits>

#include "nn/layer_test_util.hpp"

using namespace burn;

// File-local names in a namespace named after the file (a unity batch shares one translation unit).
namespace pairwise_distance_test {

namespace {

TEST(NnPairwiseDistance, MatchesPyTorch) {
    auto f = nn_test::load_fixture("modules_extra");
    auto dev = Device().autodiff();
    const double inf = std::numeric_limits<double>::infinity();
    for (auto [p, name] :
         {std::pair{2.0, "p2"}, std::pair{1.0, "p1"}, std::pair{3.0, "p3"}, std::pair{inf, "pinf"}}) {
        auto c = f.floats<3>("cos.c", dev).require_grad(), d = f.floats<3>("cos.d", dev).require_grad();
        Tensor<2> y = nn::PairwiseDistanceConfig{p}.init().forward(c, d);
        nn_test::expect_output_and_grads(f, std::string("dist.") + name, y,
                                         {{"x1", c.handle()}, {"x2", d.handle()}});
    }
    auto c = f.floats<3>("cos.c", dev).require_grad(), d = f.floats<3>("cos.d", dev).require_grad();
    Tensor<3> y = nn::PairwiseDistanceConfig{2.0, 1e-3}.init().forward_keepdim(c, d);
    nn_test::expect_output_and_grads(f, "dist.keep", y, {{"x1", c.handle()}, {"x2", d.handle()}});
}

TEST(NnPairwiseDistance, Errors) {
    nn_test::expect_error_mentions(
        [] {
            nn::PairwiseDistance{}.forward(Tensor<2>::zeros({4, 6}), Tensor<2>::zeros({6, 4}));
        },
        {"[pairwise_distance]", "[4, 6]", "[6, 4]"});
    EXPECT_THROW(nn::PairwiseDistance{}.forward(Tensor<2>::zeros({4, 6}), Tensor<2>::zeros({6, 4})),
                 ShapeError);
    EXPECT_THROW(nn::PairwiseDistanceConfig{0.0}.init(), Error);
}

}  // namespace

}  // namespace pairwise_distance_test
