// CtcLoss against torch.nn.functional.ctc_loss (tests/fixtures/nn_layers/ctc.json, written by
// scripts/gen_loss_fixtures.py): every reduction, blank index, padded and concatenated targets,
// zero_infinity, gradients through log_softmax, in f64 and f32; and its input validation.
#include <burn/nn/loss/ctc.hpp>
#include <cmath>

#include "nn/layer_test_util.hpp"

using namespace burn;
using burn::nn_test::close;
using nn::loss::Reduction;

namespace {

struct CtcCase {
    std::string prefix;
    std::string targets;
    int64_t blank;
    Reduction reduction;  // Auto stands for "none" (forward_no_reduction)
    std::string lengths_prefix = "";
    bool zero_infinity = false;
};

void check_case(const nn_test::Fixture& f, const CtcCase& c, DType dtype) {
    const double tol = dtype == DType::f64 ? 1e-6 : 1e-5;
    auto dev = Device().autodiff();
    auto logits = Tensor<3>::from_data(f.at("logits").convert(dtype), dev).require_grad();
    auto lp = activation::log_softmax(logits, 2);
    const std::string lens = c.lengths_prefix;
    auto il = f.ints<1>(lens + "input_lengths", dev);
    auto tl = f.ints<1>(lens + "target_lengths", dev);
    auto ctc = nn::loss::CtcLossConfig{}.with_blank(c.blank).with_zero_infinity(c.zero_infinity).init();
    const TensorData& targets = f.at(c.targets);
    TensorAny tgt = ops::cast(ops::from_data(targets, dev), DType::i64);
    Tensor<1> loss = c.reduction == Reduction::Auto
                         ? Tensor<1>(ctc.forward_any(lp.handle(), tgt, il.handle(), tl.handle()))
                         : ctc.forward(lp, tgt, il, tl, c.reduction);
    EXPECT_EQ(loss.dtype(), dtype);
    EXPECT_TRUE(close(loss.into_data().convert(DType::f64), f.at(c.prefix + ".loss"), tol, tol))
        << c.prefix << " " << dtype;
    auto grads = loss.sum().backward();
    auto g = logits.grad(grads);
    ASSERT_TRUE(g.has_value()) << c.prefix;
    EXPECT_TRUE(close(g->into_data().convert(DType::f64), f.at(c.prefix + ".grad"), tol, tol))
        << c.prefix << " " << dtype;
}

TEST(NnCtcLoss, MatchesPyTorchLossAndGradients) {
    auto f = nn_test::load_fixture("ctc");
    std::vector<CtcCase> cases = {
        {"mean", "targets", 0, Reduction::Mean},
        {"sum", "targets", 0, Reduction::Sum},
        {"none", "targets", 0, Reduction::Auto},
        {"blank_last", "targets_blank_last", 5, Reduction::Mean},
        {"concat", "targets_concat", 0, Reduction::Sum},
        {"inf_zero", "inf.targets", 0, Reduction::Sum, "inf.", true},
    };
    for (DType dtype : {DType::f64, DType::f32})
        for (const auto& c : cases) check_case(f, c, dtype);
}

TEST(NnCtcLoss, ImpossibleAlignmentIsInfiniteWithoutZeroInfinity) {
    auto f = nn_test::load_fixture("ctc");
    auto lp = activation::log_softmax(Tensor<3>::from_data(f.at("logits")), 2);
    auto ctc = nn::loss::CtcLossConfig{}.init();
    auto loss = ctc.forward_no_reduction(lp, f.ints<2>("inf.targets"), f.ints<1>("inf.input_lengths"),
                                         f.ints<1>("inf.target_lengths"))
                    .into_data()
                    .to_vec<float>();
    auto expected = f.at("inf.loss").to_vec<float>();
    ASSERT_EQ(loss.size(), 4u);
    for (std::size_t i = 0; i < loss.size(); ++i) {
        if (expected[i] < 0) {
            EXPECT_TRUE(std::isinf(loss[i]) && loss[i] > 0) << i << ": " << loss[i];
        } else {
            EXPECT_NEAR(loss[i], expected[i], 1e-5 * std::abs(expected[i])) << i;
        }
    }
    // With zero_infinity the impossible sample contributes 0.
    auto zero = nn::loss::CtcLossConfig{}.with_zero_infinity(true).init();
    auto z = zero.forward_no_reduction(lp, f.ints<2>("inf.targets"), f.ints<1>("inf.input_lengths"),
                                       f.ints<1>("inf.target_lengths"))
                 .into_data()
                 .to_vec<float>();
    EXPECT_EQ(z[1], 0.0f);
    EXPECT_FLOAT_EQ(z[0], loss[0]);
}

TEST(NnCtcLoss, HandComputedTinyCase) {
    // T = 2, C = 2 (blank 0, label 1), target [1]: paths "1 1", "0 1", "1 0" -> p = p1a p1b + p0a p1b + p1a
    // p0b.
    const double p0a = 0.6, p1a = 0.4, p0b = 0.3, p1b = 0.7;
    auto lp = Tensor<3>::from_data(TensorData(
        std::vector<double>{std::log(p0a), std::log(p1a), std::log(p0b), std::log(p1b)}, Dims{2, 1, 2}));
    auto ctc = nn::loss::CtcLossConfig{}.init();
    auto loss = ctc.forward(lp, Tensor<2, Int>::from_ints({{1}}), Tensor<1, Int>::from_ints({2}),
                            Tensor<1, Int>::from_ints({1}), Reduction::Sum);
    const double expected = -std::log(p1a * p1b + p0a * p1b + p1a * p0b);
    EXPECT_NEAR(loss.into_data().convert(DType::f64).to_vec<double>()[0], expected, 1e-12);
}

TEST(NnCtcLoss, BadInputsNameTheLoss) {
    auto ctc = nn::loss::CtcLossConfig{}.init();
    auto lp = Tensor<3>::zeros(Shape<3>{4, 2, 3});
    auto targets = Tensor<2, Int>::from_ints({{1, 2}, {2, 0}});
    auto il = Tensor<1, Int>::from_ints({4, 4});
    auto tl = Tensor<1, Int>::from_ints({2, 1});
    EXPECT_NO_THROW(ctc.forward(lp, targets, il, tl));
    auto expect_error = [](auto fn, const char* what) {
        try {
            fn();
            ADD_FAILURE() << "no error for " << what;
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find("[CtcLoss"), std::string::npos) << e.what();
        }
    };
    expect_error([&] { ctc.forward(lp, targets, Tensor<1, Int>::from_ints({5, 4}), tl); }, "input too long");
    expect_error([&] { ctc.forward(lp, targets, il, Tensor<1, Int>::from_ints({3, 1})); }, "target too long");
    expect_error([&] { ctc.forward(lp, targets, il, Tensor<1, Int>::from_ints({2})); }, "lengths shape");
    expect_error(
        [&] {
            ctc.forward(lp, Tensor<2, Int>::from_ints({{1, 0}, {2, 0}}), il, tl);
        },
        "blank label");
    expect_error([&] { ctc.forward(lp, Tensor<2, Int>::from_ints({{1, 3}, {2, 0}}), il, tl); }, "label >= C");
    expect_error([&] { nn::loss::CtcLossConfig{}.with_blank(3).init().forward(lp, targets, il, tl); },
                 "blank");
    expect_error([&] { nn::loss::CtcLossConfig{}.with_blank(-1).init(); }, "negative blank");
}

}  // namespace
