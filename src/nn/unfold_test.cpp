// Unfold4d and Fold4d against torch.nn.functional.unfold / fold (tests/fixtures/nn_layers/fold.json,
// scripts/gen_fold_fixtures.py): values and input gradients with default settings and with stride,
// padding and dilation that differ per dim; fold4d as unfold4d's adjoint in float64; strided input;
// configs and errors.
#include "nn/layer_test_util.hpp"

using namespace burn;

// File-local names in a namespace named after the file (a unity batch shares one translation unit).
namespace unfold_test {

namespace {

TEST(NnUnfold4d, MatchesPyTorch) {
    auto f = nn_test::load_fixture("fold");
    auto dev = Device().autodiff();
    auto x1 = f.floats<4>("unfold.x1", dev).require_grad();
    nn_test::expect_output_and_grads(f, "unfold.basic",
                                     nn::Unfold4dConfig{.kernel_size = {2, 3}}.init().forward(x1),
                                     {{"x", x1.handle()}});
    auto x2 = f.floats<4>("unfold.x2", dev).require_grad();
    auto full =
        nn::Unfold4dConfig{.kernel_size = {3, 2}, .stride = {2, 1}, .dilation = {2, 1}, .padding = {1, 2}};
    nn_test::expect_output_and_grads(f, "unfold.full", full.init().forward(x2), {{"x", x2.handle()}});
}

TEST(NnFold4d, MatchesPyTorch) {
    auto f = nn_test::load_fixture("fold");
    auto dev = Device().autodiff();
    auto c1 = f.floats<3>("fold.c1", dev).require_grad();
    auto basic = nn::Fold4dConfig{.output_size = {4, 5}, .kernel_size = {2, 2}};
    nn_test::expect_output_and_grads(f, "fold.basic", basic.init().forward(c1), {{"c", c1.handle()}});
    auto c2 = f.floats<3>("fold.c2", dev).require_grad();
    auto full = nn::Fold4dConfig{.output_size = {7, 6},
                                 .kernel_size = {3, 2},
                                 .stride = {2, 1},
                                 .dilation = {1, 2},
                                 .padding = {1, 1}};
    nn_test::expect_output_and_grads(f, "fold.full", full.init().forward(c2), {{"c", c2.handle()}});
}

// <unfold(x), y> = <x, fold(y)> for every setting: fold is unfold's adjoint. float64, random x and y.
TEST(NnFold4d, IsTheAdjointOfUnfold) {
    struct Setting {
        std::array<std::size_t, 2> k, s, p, d;
    };
    for (const Setting& st :
         {Setting{{3, 3}, {1, 1}, {1, 1}, {1, 1}}, Setting{{2, 3}, {2, 1}, {0, 2}, {1, 2}},
          Setting{{1, 1}, {3, 2}, {0, 0}, {1, 1}}, Setting{{4, 2}, {1, 3}, {2, 1}, {2, 1}}}) {
        const UnfoldOptions o{st.s, st.p, st.d};
        auto x = Tensor<4>::random({2, 3, 9, 8}, Distribution::Normal(0, 1), Device(), DType::f64);
        Tensor<3> cols = tensor::module::unfold4d(x, st.k, o);
        auto y = Tensor<3>::random({cols.dims()[0], cols.dims()[1], cols.dims()[2]},
                                   Distribution::Normal(0, 1), Device(), DType::f64);
        const double lhs = (cols * y).sum().into_scalar<double>();
        const double rhs = (x * tensor::module::fold4d(y, {9, 8}, st.k, o)).sum().into_scalar<double>();
        EXPECT_NEAR(lhs, rhs, 1e-9 * (1 + std::abs(lhs))) << "kernel " << st.k[0] << "x" << st.k[1];
    }
    // fold(unfold(ones)) counts the windows covering each pixel: 3 x 3 with padding 1 -> 4 at the corners.
    auto ones = Tensor<4>::ones({1, 1, 4, 4});
    auto u = nn::Unfold4dConfig{.kernel_size = {3, 3}, .padding = {1, 1}}.init();
    auto fo = nn::Fold4dConfig{.output_size = {4, 4}, .kernel_size = {3, 3}, .padding = {1, 1}}.init();
    auto counts = fo.forward(u.forward(ones)).into_data().to_vec<float>();
    EXPECT_EQ(counts, (std::vector<float>{4, 6, 6, 4, 6, 9, 9, 6, 6, 9, 9, 6, 4, 6, 6, 4}));
}

TEST(NnUnfold4d, StridedInputAndEmptyBatch) {
    auto x = Tensor<4>::random({2, 3, 5, 6}, Distribution::Normal(0, 1));
    auto u = nn::Unfold4dConfig{.kernel_size = {2, 2}, .stride = {1, 2}}.init();
    EXPECT_TRUE(nn_test::close(u.forward(nn_test::as_view(x)), u.forward(x).into_data(), 0, 0));
    EXPECT_EQ(u.forward(Tensor<4>::zeros({0, 3, 5, 6})).dims(), (std::array<std::size_t, 3>{0, 12, 12}));
}

TEST(NnUnfold4d, Errors) {
    nn_test::expect_error_mentions(
        [] {
            nn::Unfold4dConfig{.kernel_size = {4, 2}}.init().forward(Tensor<4>::zeros({1, 2, 3, 3}));
        },
        {"[unfold4d]", "kernel 4 x 2", "padded image 3 x 3", "[1, 2, 3, 3]"});
    EXPECT_THROW((nn::Unfold4dConfig{.kernel_size = {4, 2}}.init().forward(Tensor<4>::zeros({1, 2, 3, 3}))),
                 ShapeError);
    EXPECT_THROW((nn::Unfold4dConfig{.kernel_size = {0, 2}}.init()), Error);
    EXPECT_THROW((nn::Unfold4dConfig{.kernel_size = {2, 2}, .stride = {1, 0}}.init()), Error);
    EXPECT_THROW(ops::unfold4d(TensorAny(), {2, 2}), Error);
    EXPECT_THROW(ops::unfold4d(Tensor<3>::zeros({2, 3, 3}).handle(), {2, 2}), ShapeError);
}

TEST(NnFold4d, Errors) {
    auto fold = nn::Fold4dConfig{.output_size = {4, 5}, .kernel_size = {2, 2}}.init();
    nn_test::expect_error_mentions(
        [&] {
            fold.forward(Tensor<3>::zeros({1, 4, 11}));
        },
        {"[fold4d]", "11 windows", "4 x 5", "3 x 4 = 12"});
    nn_test::expect_error_mentions(
        [&] {
            fold.forward(Tensor<3>::zeros({1, 6, 12}));
        },
        {"[fold4d]", "(6)", "kh * kw = 4"});
    EXPECT_THROW(fold.forward(Tensor<3>::zeros({1, 6, 12})), ShapeError);
    EXPECT_THROW((nn::Fold4dConfig{.output_size = {4, 5}, .kernel_size = {2, 2}, .dilation = {0, 1}}.init()),
                 Error);
    EXPECT_THROW(ops::fold4d(Tensor<4>::zeros({1, 4, 3, 4}).handle(), {4, 5}, {2, 2}), ShapeError);
}

}  // namespace

}  // namespace unfold_test
