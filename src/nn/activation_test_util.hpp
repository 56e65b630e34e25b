#pragma once
// Shared by the composite-activation tests (src/nn/activation_*_test.cpp): a table of modules checked
// against torch.nn activations (tests/fixtures/nn_layers/activations.json), values and input gradients.
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "nn/layer_test_util.hpp"

namespace burn::nn_test {

using ActivationCase = std::pair<const char*, std::function<Tensor<3>(const Tensor<3>&)>>;

/// For each case: y = fn(x) against "y.<name>", and the gradient of sum(y * r) against "g.<name>"
/// (r cut to y's shape where fn shrinks a dim, as GLU does). fixture: a file of tests/fixtures/nn_layers.
inline void expect_activations_match_pytorch(const std::vector<ActivationCase>& cases,
                                             const std::string& fixture = "activations") {
    auto f = load_fixture(fixture);
    auto dev = Device().autodiff();
    auto r = f.floats<3>("r", dev);
    for (const auto& [name, fn] : cases) {
        auto x = f.floats<3>("x", dev).require_grad();
        auto y = fn(x);
        EXPECT_TRUE(close(y, f.at(std::string("y.") + name))) << name;
        std::vector<SliceArg> cut;
        for (int64_t n : y.shape()) cut.emplace_back(int64_t{0}, n);
        auto grads = (y * Tensor<3>(ops::slice(r.handle(), cut))).sum().backward();
        auto g = x.grad(grads);
        ASSERT_TRUE(g.has_value()) << name;
        EXPECT_TRUE(close(*g, f.at(std::string("g.") + name))) << name;
    }
}

/// Every value of y is finite.
inline void expect_finite(const Tensor<1>& y) {
    for (float v : y.to_vec<float>()) EXPECT_TRUE(std::isfinite(v)) << y;
}

}  // namespace burn::nn_test
