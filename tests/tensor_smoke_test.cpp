#include <gtest/gtest.h>

#include <burn/burn.hpp>

using namespace burn;

TEST(TensorSmoke, ElementwiseAndViews) {
    Device device;
    auto a = Tensor<2>::from_floats({{1.0, 2.0, 3.0}, {4.0, 5.0, 6.0}}, device);
    EXPECT_EQ(a.dims(), (Shape<2>{2, 3}));
    auto b = (a * 2.0 + 1.0).to_vec<float>();
    EXPECT_EQ(b, (std::vector<float>{3, 5, 7, 9, 11, 13}));
    auto t = a.transpose();
    EXPECT_EQ(t.to_vec<float>(), (std::vector<float>{1, 4, 2, 5, 3, 6}));
    auto s = a.slice({all, {0, 2}});
    EXPECT_EQ(s.to_vec<float>(), (std::vector<float>{1, 2, 4, 5}));
    auto f = a.flip({1});
    EXPECT_EQ(f.to_vec<float>(), (std::vector<float>{3, 2, 1, 6, 5, 4}));
    auto row = Tensor<2>::from_floats({{10.0, 20.0, 30.0}}, device);
    EXPECT_EQ((a + row).to_vec<float>(), (std::vector<float>{11, 22, 33, 14, 25, 36}));
    auto ints = Tensor<1, Int>::from_ints({1, 2, 3}, device);
    EXPECT_EQ(ints.greater_elem(1).to_vec<bool>(), (std::vector<bool>{false, true, true}));
    EXPECT_THROW(a.reshape({4, 2}), burn::Error);
    EXPECT_EQ(a.reshape({3, -1}).dims(), (Shape<2>{3, 2}));
}

TEST(TensorSmoke, RollWrapsAroundAndDifferentiates) {
    Device device;
    auto a = Tensor<2>::from_floats({{1.0, 2.0, 3.0}, {4.0, 5.0, 6.0}}, device);
    EXPECT_EQ(a.roll_dim(1, 1).to_vec<float>(), (std::vector<float>{3, 1, 2, 6, 4, 5}));
    EXPECT_EQ(a.roll_dim(-1, 1).to_vec<float>(), (std::vector<float>{2, 3, 1, 5, 6, 4}));
    EXPECT_EQ(a.roll({1, 4}, {0, -1}).to_vec<float>(), (std::vector<float>{6, 4, 5, 3, 1, 2}));
    EXPECT_EQ(a.roll({INT64_MIN}, {1}).to_vec<float>(), a.roll_dim(INT64_MIN % 3, 1).to_vec<float>());
    EXPECT_THROW((void)a.roll({1}, {0, 1}), ShapeError);
    // d/dx sum(w * roll(x)) = roll(w, -shift)
    Device ad = device.autodiff();
    auto x = Tensor<1>::from_floats({1.0, 2.0, 3.0, 4.0}, ad).require_grad();
    auto w = Tensor<1>::from_floats({1.0, 10.0, 100.0, 1000.0}, ad);
    auto grads = (x.roll_dim(1, 0) * w).sum().backward();
    EXPECT_EQ(x.grad(grads).value().to_vec<float>(), (std::vector<float>{10, 100, 1000, 1}));
}
