// The composite activations, losses and layers of issue 20 on the primitives-only test device ("prim",
// decompose_devices.hpp: a new backend that implements the primitive rows and nothing else) under the
// autodiff decorator: the same values and input gradients as on the CPU, so they need no new kernel and
// no new autodiff rule on any device.
#include <gtest/gtest.h>

#include <burn/burn.hpp>
#include <functional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "decompose_devices.hpp"

using namespace burn;
using nn::loss::Reduction;

// File-local names in a namespace named after the file (a unity batch shares one translation unit).
namespace nn_composite_prim_test {

namespace {

/// Fixed inputs, made on the host so that every device sees the same values.
TensorData normal(const Dims& shape, uint64_t seed, double scale = 1.0) {
    std::vector<float> v(static_cast<std::size_t>(shape.numel()));
    uint64_t s = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    for (float& x : v) {  // a small LCG: uniform in [-1, 1), scaled
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        x = static_cast<float>(scale * (static_cast<double>(s >> 11) / 9007199254740992.0 * 2.0 - 1.0));
    }
    return TensorData(v, shape);
}

/// A case: builds its inputs on the device (leaves requiring gradients), returns the output and leaves.
using Result = std::pair<TensorAny, std::vector<TensorAny>>;
using Case = std::pair<const char*, std::function<Result(const Device&)>>;

template <std::size_t D>
Tensor<D> leaf(const TensorData& d, const Device& dev) {
    return Tensor<D>::from_data(d, dev).require_grad();
}

/// The output and the gradients of sum(output * output) (a non-uniform cotangent) on dev.
std::vector<TensorData> evaluate(const Case& c, const Device& dev) {
    auto [y, leaves] = c.second(dev);
    auto grads = ops::backward(ops::sum(ops::mul(y, y)));
    std::vector<TensorData> out{ops::into_data(y)};
    for (const auto& l : leaves) {
        auto g = ops::grad(l, grads);
        out.push_back(g ? ops::into_data(*g) : TensorData());
    }
    return out;
}

std::vector<Case> cases() {
    const auto x3 = normal({2, 4, 6}, 1, 2.0), y3 = normal({2, 4, 6}, 2, 2.0);
    const auto x2 = normal({4, 5}, 3, 2.0), y2 = normal({4, 5}, 4), z2 = normal({4, 5}, 5);
    const auto signs = TensorData(
        std::vector<float>{1, -1, -1, 1, 1, -1, 1, 1, -1, -1, 1, -1, 1, 1, -1, 1, -1, -1, 1, 1}, Dims{4, 5});
    const auto probs = normal({4, 5}, 6);
    const auto img = normal({1, 2, 4, 6}, 7), lrn = normal({2, 6, 3, 2}, 8, 2.0);
    const std::vector<float> w{0.5f, 1.0f, 2.0f, 1.5f, 0.25f};
    auto act = [](auto module) {
        return [module](const Device& d) -> Result {
            auto x = leaf<3>(normal({2, 4, 6}, 1, 2.0), d);
            return {module.forward(x).handle(), {x.handle()}};
        };
    };
    return {
        {"glu", act(nn::Glu{1})},
        {"hard_shrink", act(nn::HardShrink{0.7})},
        {"soft_shrink", act(nn::SoftShrink{0.7})},
        {"threshold", act(nn::Threshold{0.3, -2.0})},
        {"thresholded_relu", act(nn::ThresholdedRelu{0.5})},
        {"rrelu_fixed_slope", act(nn::RRelu{0.2, 0.2})},
        {"activation_softplus", act(nn::ActivationConfig{nn::SoftplusConfig{2.0}}.init())},
        {"poisson_full",
         [=](const Device& d) -> Result {
             auto x = leaf<2>(x2, d);
             auto t = Tensor<2>::from_data(z2, d).abs() * 3.0;
             return {nn::loss::PoissonNllLoss{true, true}.forward(x, t, Reduction::Sum).handle(),
                     {x.handle()}};
         }},
        {"gaussian_nll",
         [=](const Device& d) -> Result {
             auto x = leaf<2>(x2, d), v = leaf<2>(z2, d);
             auto var = v.abs() + 0.1;
             return {nn::loss::GaussianNllLoss{true}
                         .forward(x, Tensor<2>::from_data(y2, d), var, Reduction::Mean)
                         .handle(),
                     {x.handle(), v.handle()}};
         }},
        {"hinge_soft_ranking",
         [=](const Device& d) -> Result {
             auto x = leaf<2>(x2, d), o = leaf<2>(y2, d);
             auto s = Tensor<2>::from_data(signs, d);
             auto l = nn::loss::HingeEmbeddingLoss{0.8}.forward(x, s, Reduction::Sum) +
                      nn::loss::SoftMarginLoss{}.forward(x, s, Reduction::Mean) +
                      nn::loss::MarginRankingLoss{0.2}.forward(x, o, s, Reduction::Mean);
             return {l.handle(), {x.handle(), o.handle()}};
         }},
        {"multi_margin",
         [=](const Device& d) -> Result {
             auto x = leaf<2>(x2, d);
             auto t = Tensor<1, Int>::from_ints({0, 4, 2, 2}, d);
             return {nn::loss::MultiMarginLoss{2, 0.5, w}.forward_no_reduction(x, t).handle(), {x.handle()}};
         }},
        {"triplet_swap",
         [=](const Device& d) -> Result {
             auto a = leaf<2>(x2, d), p = leaf<2>(y2, d), n = leaf<2>(z2, d);
             return {nn::loss::TripletMarginLoss{1.0, 3.0, 1e-6, true}.forward_no_reduction(a, p, n).handle(),
                     {a.handle(), p.handle(), n.handle()}};
         }},
        {"lp",
         [=](const Device& d) -> Result {
             auto x = leaf<3>(x3, d);
             return {
                 nn::loss::LpLoss{1.5}.forward_reduce_dims(x, Tensor<3>::from_data(y3, d), {1, 2}).handle(),
                 {x.handle()}};
         }},
        {"cross_entropy_probs",
         [=](const Device& d) -> Result {
             auto x = leaf<2>(x2, d);
             auto t = activation::softmax(Tensor<2>::from_data(probs, d), 1);
             auto loss_fn = nn::loss::CrossEntropyLossConfig{std::nullopt, w, 0.1}.init(d);
             return {loss_fn.forward_probs_no_reduction(x, t).handle(), {x.handle()}};
         }},
        {"cosine_pairwise",
         [=](const Device& d) -> Result {
             auto a = leaf<3>(x3, d), b = leaf<3>(y3, d);
             auto cos = nn::CosineSimilarity{-1}.forward(a, b);
             auto dist = nn::PairwiseDistance{std::numeric_limits<double>::infinity()}.forward(a, b) +
                         nn::PairwiseDistance{2.0}.forward(a, b);
             return {(cos + dist).handle(), {a.handle(), b.handle()}};
         }},
        {"pixel_unshuffle",
         [=](const Device& d) -> Result {
             auto x = leaf<4>(img, d);
             return {nn::PixelUnshuffle{2}.forward(x).handle(), {x.handle()}};
         }},
        {"local_response_norm",
         [=](const Device& d) -> Result {
             auto x = leaf<4>(lrn, d);
             return {nn::LocalResponseNorm{4, 0.5, 0.6, 2.0}.forward(x).handle(), {x.handle()}};
         }},
    };
}

TEST(NnCompositePrim, PrimitivesOnlyDeviceMatchesTheCpu) {
    const burn::testing::DecomposeDevices devices;
    std::set<OpId> all_reached;
    for (const auto& c : cases()) {
        SCOPED_TRACE(c.first);
        auto want = evaluate(c, Device::cpu().autodiff());
        std::set<OpId> reached;
        std::vector<TensorData> got;
        try {
            got = devices.primitives([&](const Device& d) { return evaluate(c, d.autodiff()); }, reached);
        } catch (const Error& e) {
            ADD_FAILURE() << "threw on the primitives-only backend: " << e.what();
            continue;
        }
        all_reached.insert(reached.begin(), reached.end());
        ASSERT_EQ(got.size(), want.size());
        ASSERT_GE(want.size(), 2u) << "no input gradient was compared";
        double grad_norm = 0;
        for (std::size_t i = 1; i < want.size(); ++i)
            for (int64_t k = 0; k < want[i].numel(); ++k) grad_norm += std::abs(want[i].value_as_double(k));
        EXPECT_GT(grad_norm, 0.0) << "the gradients are all zero: the case checks nothing";
        for (std::size_t i = 0; i < want.size(); ++i) {
            ASSERT_EQ(got[i].shape(), want[i].shape()) << "output " << i;
            for (int64_t k = 0; k < want[i].numel(); ++k) {
                const double a = got[i].value_as_double(k), e = want[i].value_as_double(k);
                EXPECT_NEAR(a, e, 1e-5 + 1e-5 * std::abs(e))
                    << (i == 0 ? "value" : "gradient") << " " << i << " at " << k;
            }
        }
    }
    // The derived rows the layers call (softmax for the soft targets, leaky_relu, softplus, sigmoid, ...)
    // ran as their decompositions into primitives there.
    for (OpId op : {OpId::log_softmax, OpId::softplus, OpId::sigmoid, OpId::leaky_relu})
        EXPECT_TRUE(all_reached.count(op)) << op << " was not decomposed on the primitives-only device";
}

}  // namespace

}  // namespace nn_composite_prim_test
