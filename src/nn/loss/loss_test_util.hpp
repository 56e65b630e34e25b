#pragma once
// Shared by the loss tests against tests/fixtures/nn_layers/losses_extra.json
// (scripts/gen_loss_extra_fixtures.py): a loss value and the gradients of its sum with respect to named
// leaves, compared with PyTorch's.
#include <string>
#include <utility>
#include <vector>

#include "nn/layer_test_util.hpp"

namespace burn::nn_test {

using Leaves = std::vector<std::pair<std::string, TensorAny>>;

/// loss against f[key], then the gradient of sum(loss) for each leaf against f["g." + key + "." + name].
template <std::size_t D>
void expect_loss_and_grads(const Fixture& f, const std::string& key, const Tensor<D>& loss,
                           const Leaves& leaves, double atol = 1e-5, double rtol = 1e-4) {
    EXPECT_TRUE(close(loss, f.at(key), atol, rtol)) << key;
    auto grads = loss.sum().backward();
    for (const auto& [name, leaf] : leaves) {
        auto g = ops::grad(leaf, grads);
        ASSERT_TRUE(g.has_value()) << key << ": no gradient for " << name;
        EXPECT_TRUE(close(ops::into_data(*g).convert(DType::f32), f.at("g." + key + "." + name), atol, rtol))
            << key << ": gradient of " << name;
    }
}

}  // namespace burn::nn_test
