// The learning-rate range test: the suggestion on curves whose steepest descent is known, and a real run
// on the point-classification net (geometric rates, the caller's model untouched, a sensible suggestion).
#include "burn/train/lr_finder.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "training_test_util.hpp"

using namespace burn;
using namespace burn::train;
using namespace burn::train_test;

namespace lr_finder_test {

std::vector<double> geomspace(double a, double b, int n) {
    std::vector<double> v;
    for (int i = 0; i < n; ++i) v.push_back(a * std::pow(b / a, static_cast<double>(i) / (n - 1)));
    return v;
}

TEST(LrFinder, SteepestDescentOfKnownCurves) {
    const auto lrs = geomspace(1e-6, 1.0, 61);  // 10 points per decade
    std::vector<double> loss;
    for (double lr : lrs) loss.push_back(2.0 - std::tanh(3.0 * (std::log10(lr) + 3.0)));  // steepest at 1e-3
    EXPECT_NEAR(std::log10(steepest_descent_lr(lrs, loss)), -3.0, 0.051);
    // A blow-up after the minimum does not count: the descent is before it.
    for (std::size_t i = 55; i < loss.size(); ++i) loss[i] = 1.0 + 50.0 * static_cast<double>(i - 54);
    EXPECT_NEAR(std::log10(steepest_descent_lr(lrs, loss)), -3.0, 0.051);
    EXPECT_TRUE(std::isnan(steepest_descent_lr({1e-3, 1e-2}, {1.0, 0.5})));
}

TEST(LrFinder, RangeTestOnANet) {
    Device device = Device().autodiff();
    device.seed(123);
    const Net net(device);
    const auto before = weights(net);
    auto loader = data::DataLoaderBuilder(PointBatcher()).batch_size(32).shuffle(7).build(points(512, 1));
    LrFinderOptions o;
    o.start_lr = 1e-5;
    o.end_lr = 10.0;
    o.iterations = 60;  // 16 batches an epoch: the loader restarts
    const auto found = find_learning_rate(net, optim::AdamConfig().init(), loader, o);
    ASSERT_GE(found.lrs.size(), 20u);
    EXPECT_LE(found.lrs.size(), 60u);
    EXPECT_EQ(found.lrs.size(), found.losses.size());
    EXPECT_DOUBLE_EQ(found.lrs.front(), 1e-5);
    EXPECT_NEAR(found.lrs[1] / found.lrs[0], std::pow(1e6, 1.0 / 59.0), 1e-12);
    if (found.diverged) {
        EXPECT_LT(found.lrs.size(), 60u);
    }
    // The loss fell from where it started, and the suggestion lies in the range Adam trains this net at.
    double low = found.losses.front();
    for (double l : found.losses)
        if (std::isfinite(l)) low = std::min(low, l);
    EXPECT_LT(low, 0.8 * found.losses.front());
    EXPECT_GE(found.suggestion, 1e-4);
    EXPECT_LE(found.suggestion, 1.0);
    EXPECT_EQ(weights(net), before) << "the caller's model was trained";
}

TEST(LrFinder, BadOptions) {
    Device device = Device().autodiff();
    const Net net(device);
    auto loader = data::DataLoaderBuilder(PointBatcher()).batch_size(32).build(points(64, 1));
    LrFinderOptions o;
    o.end_lr = o.start_lr;
    EXPECT_THROW(find_learning_rate(net, optim::AdamConfig().init(), loader, o), Error);
    o = LrFinderOptions{};
    o.iterations = 1;
    EXPECT_THROW(find_learning_rate(net, optim::AdamConfig().init(), loader, o), Error);
    const Net plain{Device()};
    EXPECT_THROW(find_learning_rate(plain, optim::AdamConfig().init(), loader), Error);
}

}  // namespace lr_finder_test
