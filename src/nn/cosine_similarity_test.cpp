// CosineSimilarity against torch.nn.functional.cosine_similarity
// (tests/fixtures/nn_layers/modules_extra.json, scripts/gen_module_extra_fixtures.py): dims 1, -1 and a
// middle dim, an all-zero row; values and the gradients of both inputs.
#include "nn/layer_test_util.hpp"

using namespace burn;

// File-local names in a namespace named after the file (a unity batch shares one translation unit).
namespace cosine_similarity_test {

namespace {

TEST(NnCosineSimilarity, MatchesPyTorch) {
    auto f = nn_test::load_fixture("modules_extra");
    auto dev = Device().autodiff();
    {
        auto a = f.floats<2>("cos.a", dev).require_grad(), b = f.floats<2>("cos.b", dev).require_grad();
        Tensor<1> y = nn::CosineSimilarityConfig{}.init().forward(a, b);
        nn_test::expect_output_and_grads(f, "cos.dim1", y, {{"x1", a.handle()}, {"x2", b.handle()}});
    }
    {
        auto c = f.floats<3>("cos.c", dev).require_grad(), d = f.floats<3>("cos.d", dev).require_grad();
        Tensor<2> y = nn::CosineSimilarityConfig{-1}.init().forward(c, d);
        nn_test::expect_output_and_grads(f, "cos.last", y, {{"x1", c.handle()}, {"x2", d.handle()}});
    }
    {
        auto c = f.floats<3>("cos.c", dev).require_grad(), d = f.floats<3>("cos.d", dev).require_grad();
        Tensor<2> y = nn::CosineSimilarityConfig{1, 1e-6}.init().forward(c, d);
        nn_test::expect_output_and_grads(f, "cos.mid", y, {{"x1", c.handle()}, {"x2", d.handle()}});
    }
}

TEST(NnCosineSimilarity, Errors) {
    auto cs = nn::CosineSimilarityConfig{}.init();
    nn_test::expect_error_mentions(
        [&] {
            cs.forward(Tensor<2>::zeros({4, 6}), Tensor<2>::zeros({4, 5}));
        },
        {"[cosine_similarity]", "[4, 6]", "[4, 5]"});
    nn_test::expect_error_mentions(
        [] {
            nn::CosineSimilarity{2}.forward(Tensor<2>::zeros({4, 6}), Tensor<2>::zeros({4, 6}));
        },
        {"[cosine_similarity]", "dim 2", "[-2, 2)"});
    EXPECT_THROW((nn::CosineSimilarityConfig{1, 0.0}.init()), Error);
}

}  // namespace

}  // namespace cosine_similarity_test
