// KL divergence against torch.nn.functional, values and input gradients, every reduction.
#include "nn/layer_test_util.hpp"

using namespace burn;
using burn::nn_test::close;
using nn::loss::Reduction;

// File-local names in a namespace named after the file (a unity batch shares one translation unit).
namespace kl_div_test {

namespace {

TEST(NnKLDivLoss, MatchesPyTorchEveryReduction) {
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

}  // namespace

}  // namespace kl_div_test
