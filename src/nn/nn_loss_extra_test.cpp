// Binary cross-entropy, Huber, smooth L1, L1, KL divergence and cosine embedding losses against
// torch.nn.functional, values and input gradients, every reduction.
#include "nn/layer_test_util.hpp"

using namespace burn;
using burn::nn_test::close;
using nn::loss::Reduction;

namespace {

TEST(NnLossExtra, BinaryCrossEntropyMatchesPyTorch) {
    auto f = nn_test::load_fixture("losses");
    auto dev = Device().autodiff();
    auto check = [&](const std::string& name, auto logits_key, auto targets_key,
                     nn::loss::BinaryCrossEntropyLoss bce, bool sigmoid_first, auto rank) {
        constexpr std::size_t D = decltype(rank)::value;
        auto x = f.floats<D>(logits_key, dev).require_grad();
        auto t = f.ints<D>(targets_key, dev);
        auto in = sigmoid_first ? activation::sigmoid(x) : x;
        auto loss = bce.forward(in, t);
        EXPECT_TRUE(close(loss, f.at("bce.loss." + name))) << name;
        auto grads = loss.backward();
        EXPECT_TRUE(close(*x.grad(grads), f.at("bce.g." + name))) << name;
    };
    using R1 = std::integral_constant<std::size_t, 1>;
    using R2 = std::integral_constant<std::size_t, 2>;
    auto cfg = nn::loss::BinaryCrossEntropyLossConfig{};
    check("logits1", "bce.logits1", "bce.t1", cfg.with_logits(true).init(), false, R1{});
    check("probs1", "bce.logits1", "bce.t1", cfg.init(), true, R1{});
    check("logits2", "bce.logits2", "bce.t2", cfg.with_logits(true).init(), false, R2{});
    check("logits2_w", "bce.logits2", "bce.t2",
          cfg.with_logits(true).with_weights(std::vector<float>{0.5f, 1.0f, 2.0f}).init(), false, R2{});
    check("logits1_w", "bce.logits1", "bce.t1",
          cfg.with_logits(true).with_weights(std::vector<float>{0.3f, 1.7f}).init(), false, R1{});
    check("logits2_s", "bce.logits2", "bce.t2", cfg.with_logits(true).with_smoothing(0.2).init(), false,
          R2{});
    check("probs2_ws", "bce.logits2", "bce.t2",
          cfg.with_weights(std::vector<float>{0.5f, 1.0f, 2.0f}).with_smoothing(0.1).init(), true, R2{});
}

TEST(NnLossExtra, BinaryCrossEntropyFloatTargetsAndErrors) {
    auto bce = nn::loss::BinaryCrossEntropyLossConfig{}.with_logits(true).init();
    auto x = Tensor<1>::from_floats({0.3, -1.2});
    // Float 0/1 targets give the Int result; soft targets are allowed.
    auto a = bce.forward(x, Tensor<1, Int>::from_ints({1, 0})).into_scalar();
    auto b = bce.forward(x, Tensor<1>::from_floats({1.0, 0.0})).into_scalar();
    EXPECT_FLOAT_EQ(a, b);
    EXPECT_GT(bce.forward(x, Tensor<1>::from_floats({0.5, 0.5})).into_scalar(), 0.0f);
    EXPECT_THROW(bce.forward(x, Tensor<1, Int>::from_ints({1, 0, 1})), ShapeError);
    auto w3 = nn::loss::BinaryCrossEntropyLossConfig{}.with_weights(std::vector<float>{1, 2, 3}).init();
    EXPECT_THROW(w3.forward(Tensor<1>::from_floats({0.5, 0.5}), Tensor<1, Int>::from_ints({1, 0})),
                 ShapeError);
    EXPECT_THROW(nn::loss::BinaryCrossEntropyLossConfig{}.with_smoothing(1.5).init(), Error);
    // Probabilities of exactly 0 and 1 stay finite (logs clamped at -100).
    auto p = nn::loss::BinaryCrossEntropyLossConfig{}.init();
    float v = p.forward(Tensor<1>::from_floats({0.0, 1.0}), Tensor<1, Int>::from_ints({1, 0})).into_scalar();
    EXPECT_FLOAT_EQ(v, 100.0f);
}

TEST(NnLossExtra, RegressionLossesMatchPyTorch) {
    auto f = nn_test::load_fixture("losses");
    auto dev = Device().autodiff();
    auto q = f.floats<2>("q", dev);
    auto huber = nn::loss::HuberLossConfig{0.7}.init();
    auto smooth = nn::loss::SmoothL1LossConfig{0.5}.init();
    nn::loss::L1Loss l1;
    for (auto [reduction, rname] : {std::pair{Reduction::Mean, "mean"}, std::pair{Reduction::Sum, "sum"}}) {
        const Reduction red = reduction;  // lambdas below capture it (clang < 16 cannot capture a binding)
        auto run = [&](const std::string& key, auto&& fn) {
            auto p = f.floats<2>("p", dev).require_grad();
            auto loss = fn(p);
            EXPECT_TRUE(close(loss, f.at(key))) << key;
            EXPECT_TRUE(close(*p.grad(loss.backward()), f.at("g." + key))) << key;
        };
        run(std::string("huber.") + rname, [&](const Tensor<2>& p) { return huber.forward(p, q, red); });
        run(std::string("smooth_l1.") + rname, [&](const Tensor<2>& p) { return smooth.forward(p, q, red); });
        run(std::string("l1.") + rname, [&](const Tensor<2>& p) { return l1.forward(p, q, red); });
    }
    auto p = f.floats<2>("p");
    EXPECT_TRUE(close(huber.forward_no_reduction(p, q.inner()), f.at("huber.none")));
    EXPECT_THROW(huber.forward(p, Tensor<2>::zeros({3, 4}), Reduction::Mean), ShapeError);
    EXPECT_THROW(nn::loss::HuberLossConfig{0.0}.init(), Error);
    // beta = 0 is L1.
    auto l1_like = nn::loss::SmoothL1LossConfig{0.0}.init();
    EXPECT_TRUE(close(l1_like.forward(p, q.inner(), Reduction::Sum), f.at("l1.sum").convert(DType::f32)));
}

TEST(NnLossExtra, KLDivMatchesPyTorchEveryReduction) {
    auto f = nn_test::load_fixture("losses");
    auto dev = Device().autodiff();
    const std::vector<std::pair<Reduction, const char*>> reds = {
        {Reduction::Mean, "mean"}, {Reduction::Sum, "sum"}, {Reduction::BatchMean, "batchmean"}};
    for (bool log_target : {false, true}) {
        auto kl = nn::loss::KLDivLossConfig{log_target}.init();
        auto t = f.floats<2>(log_target ? "kl.log_target" : "kl.target", dev);
        const std::string suffix = log_target ? ".log" : ".prob";
        for (auto [red, name] : reds) {
            auto x = f.floats<2>("kl.input", dev).require_grad();
            auto loss = kl.forward(x, t, red);
            const std::string key = std::string("kl.") + name + suffix;
            EXPECT_TRUE(close(loss, f.at(key))) << key;
            EXPECT_TRUE(close(*x.grad(loss.backward()), f.at("g." + key))) << key;
        }
        auto none = kl.forward_no_reduction(f.floats<2>("kl.input"), t.inner());
        EXPECT_TRUE(close(none, f.at("kl.none" + suffix)));
        // Auto is BatchMean for KL (burn).
        EXPECT_TRUE(close(kl.forward(f.floats<2>("kl.input"), t.inner(), Reduction::Auto),
                          f.at("kl.batchmean" + suffix)));
    }
}

TEST(NnLossExtra, CosineEmbeddingMatchesPyTorch) {
    auto f = nn_test::load_fixture("losses");
    auto dev = Device().autodiff();
    auto y = f.ints<1>("cos.y", dev);
    for (auto [red, name] : {std::pair{Reduction::Mean, "mean"}, std::pair{Reduction::Sum, "sum"}}) {
        auto loss_fn = nn::loss::CosineEmbeddingLossConfig{0.2, red}.init();
        auto a = f.floats<2>("cos.x1", dev).require_grad();
        auto b = f.floats<2>("cos.x2", dev).require_grad();
        auto loss = loss_fn.forward(a, b, y);
        EXPECT_TRUE(close(loss, f.at(std::string("cos.") + name))) << name;
        auto grads = loss.backward();
        EXPECT_TRUE(close(*a.grad(grads), f.at(std::string("cos.g1.") + name))) << name;
        EXPECT_TRUE(close(*b.grad(grads), f.at(std::string("cos.g2.") + name))) << name;
    }
    auto loss_fn = nn::loss::CosineEmbeddingLossConfig{0.2}.init();
    EXPECT_TRUE(close(loss_fn.forward_no_reduction(f.floats<2>("cos.x1"), f.floats<2>("cos.x2"), y.inner()),
                      f.at("cos.none")));
    EXPECT_THROW(
        loss_fn.forward(f.floats<2>("cos.x1"), f.floats<2>("cos.x1"), Tensor<1, Int>::from_ints({1, -1})),
        ShapeError);
    auto back = nn::loss::CosineEmbeddingLossConfig::from_json_string(
        nn::loss::CosineEmbeddingLossConfig{0.5, Reduction::Sum}.to_json_string());
    EXPECT_EQ(back.reduction, Reduction::Sum);
}

TEST(NnLossExtra, ReductionBatchMeanInMse) {
    auto x = Tensor<2>::from_floats({{1, 2}, {3, 4}});
    auto loss = nn::loss::MseLoss().forward(x, Tensor<2>::zeros({2, 2}), Reduction::BatchMean);
    EXPECT_FLOAT_EQ(loss.into_scalar(), 30.0f / 2.0f);
}

}  // namespace
