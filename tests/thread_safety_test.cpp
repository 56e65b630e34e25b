// Work from several threads at once: two models trained side by side, the caching allocator under
// concurrent allocation and release, and tensors shared read-only between threads. These run in
// every build, and CI runs them (with tests/parallel_test.cpp and src/data/dataloader_test.cpp) under
// ThreadSanitizer as burn_tsan_tests (scripts/sanitize.sh tsan), where any data race fails the run.
#include <gtest/gtest.h>

#include <atomic>
#include <burn/burn.hpp>
#include <thread>
#include <vector>

using namespace burn;

// File-local names in a namespace named after the file (a unity batch shares one translation unit).
namespace thread_safety_test {

namespace {

struct TwoLayer {
    nn::Linear hidden;
    nn::Relu activation;
    nn::Linear output;

    explicit TwoLayer(const Device& device)
        : hidden(nn::LinearConfig{6, 16}.init(device)),
          activation(),
          output(nn::LinearConfig{16, 2}.init(device)) {}

    Tensor<2> forward(const Tensor<2>& x) const {
        return output.forward(activation.forward(hidden.forward(x)));
    }

    BURN_MODULE(TwoLayer, hidden, activation, output)
};

std::vector<float> flat(const TwoLayer& m) {
    std::vector<float> out;
    for (const auto* t : {&m.hidden.weight.val(), &m.output.weight.val()}) {
        auto v = t->into_data().to_vec<float>();
        out.insert(out.end(), v.begin(), v.end());
    }
    for (const auto* b : {&m.hidden.bias, &m.output.bias}) {
        auto v = (*b)->val().into_data().to_vec<float>();
        out.insert(out.end(), v.begin(), v.end());
    }
    return out;
}

// Twenty Adam steps of a regression on fixed data; returns the final weights.
std::vector<float> train(TwoLayer model, const Tensor<2>& x, const Tensor<2>& y) {
    auto optimizer = optim::AdamConfig{}.init();
    for (int step = 0; step < 20; ++step) {
        auto loss = (model.forward(x) - y).square().mean();
        auto grads = optim::GradientsParams::from_grads(loss.backward(), model);
        model = optimizer.step(1e-2, std::move(model), grads);
    }
    return flat(model);
}

}  // namespace

// Two trainings at once give the weights each gives alone: no state is shared between them that a
// race could corrupt (graphs, gradients, optimizer state, the allocator's cache, the thread pool).
TEST(ThreadSafety, TwoModelsTrainOnTwoThreadsAtOnce) {
    auto device = Device().autodiff();
    // Initialisation draws from the device's random stream: done here, in a fixed order.
    TwoLayer first(device), second(device);
    auto x1 = Tensor<2>::random({64, 6}, Distribution::Normal(0.0, 1.0), device);
    auto y1 = Tensor<2>::random({64, 2}, Distribution::Normal(0.0, 1.0), device);
    auto x2 = Tensor<2>::random({32, 6}, Distribution::Normal(0.0, 1.0), device);
    auto y2 = Tensor<2>::random({32, 2}, Distribution::Normal(0.0, 1.0), device);
    const auto alone1 = train(first, x1, y1);
    const auto alone2 = train(second, x2, y2);

    std::vector<float> together1, together2;
    std::thread a([&] { together1 = train(first, x1, y1); });
    std::thread b([&] { together2 = train(second, x2, y2); });
    a.join();
    b.join();
    EXPECT_EQ(together1, alone1);
    EXPECT_EQ(together2, alone2);
    EXPECT_NE(alone1, flat(first)) << "training changed nothing: the test would not see a race";
}

// The CPU caching allocator, with block sizes below and above its 64 KiB pooling threshold, from four
// threads at once; every result is checked, so a block handed to two tensors shows up as wrong sums.
TEST(ThreadSafety, CachingAllocatorUnderConcurrentUse) {
    Device device;
    std::atomic<int> wrong{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&, t] {
            for (int i = 0; i < 60; ++i) {
                const std::size_t n =
                    (i % 3 == 0) ? 64 : (i % 3 == 1 ? 20000 : 70000);  // 256 B, 80 KB, 280 KB
                const double v = t + 1;
                auto a = Tensor<1>::full({n}, v, device);
                auto b = (a * 2.0 + 1.0).sum().into_scalar();
                if (b != static_cast<float>(static_cast<double>(n) * (2 * v + 1))) wrong.fetch_add(1);
            }
        });
    }
    for (auto& th : threads) th.join();
    EXPECT_EQ(wrong.load(), 0);
}

// A tensor read by several threads at once (views, reductions, matmul on the shared thread pool).
TEST(ThreadSafety, SharedTensorsReadConcurrently) {
    Device device;
    auto m = Tensor<2>::random({128, 128}, Distribution::Uniform(-1.0, 1.0), device);
    const float expected = m.matmul(m.transpose()).sum().into_scalar();
    std::atomic<int> wrong{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 3; ++t)
        threads.emplace_back([&] {
            for (int i = 0; i < 5; ++i)
                if (m.matmul(m.transpose()).sum().into_scalar() != expected) wrong.fetch_add(1);
        });
    for (auto& th : threads) th.join();
    EXPECT_EQ(wrong.load(), 0);
}

}  // namespace thread_safety_test
