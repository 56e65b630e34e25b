// Param::uninitialized (burn's lazy parameters): the init runs once on first use, shared by copies;
// shape, dtype and device are known before; num_params and load_from do not run it; a wrong init is
// an error naming the declared shape.
#include <gtest/gtest.h>

#include <burn/burn.hpp>

using namespace burn;

namespace lazy_param_test {

struct Lazy {
    Param<Tensor<2>> w;
    nn::Linear eager;
    BURN_MODULE(Lazy, w, eager)
};

Param<Tensor<2>> lazy(int& calls, Dims shape = {2, 3}, const Device& d = Device()) {
    return Param<Tensor<2>>::uninitialized(
        ParamId::create(),
        [&calls](const Device& dev) {
            ++calls;
            return Tensor<2>::from_floats({{1, 2, 3}, {4, 5, 6}}, dev);
        },
        d, shape);
}

TEST(LazyParam, InitRunsOnceOnFirstUseAndCopiesShareIt) {
    int calls = 0;
    auto p = lazy(calls);
    EXPECT_FALSE(p.is_initialized());
    EXPECT_EQ(p.lazy_shape(), (Dims{2, 3}));
    EXPECT_EQ(p.lazy_dtype(), DType::f32);
    EXPECT_EQ(p.lazy_device(), Device());
    auto copy = p;
    EXPECT_EQ(calls, 0);
    EXPECT_EQ(copy.val().to_vec<float>(), (std::vector<float>{1, 2, 3, 4, 5, 6}));
    EXPECT_EQ(calls, 1);
    EXPECT_TRUE(p.is_initialized());  // the copy ran it for both
    EXPECT_EQ(p.val().to_vec<float>(), copy.val().to_vec<float>());
    EXPECT_EQ(calls, 1);
    // On an autodiff device the materialised tensor requires grad (the flag set before is kept).
    int ad_calls = 0;
    auto g = lazy(ad_calls, {2, 3}, Device().autodiff());
    EXPECT_TRUE(g.val().is_require_grad());
    auto frozen = lazy(ad_calls, {2, 3}, Device().autodiff());
    frozen.set_require_grad(false);
    EXPECT_FALSE(frozen.val().is_require_grad());
}

TEST(LazyParam, NumParamsAndLoadDoNotRunTheInit) {
    int calls = 0;
    Lazy src{Param<Tensor<2>>(Tensor<2>::from_floats({{9, 8, 7}, {6, 5, 4}})), nn::LinearConfig{2, 2}.init()};
    auto mem = store::BurnpackStore::in_memory();
    src.save_into(mem);
    Lazy dst{lazy(calls), nn::LinearConfig{2, 2}.init()};
    EXPECT_EQ(dst.num_params(), 6u + 6u);
    auto in = store::BurnpackStore::from_bytes(mem.bytes());
    ASSERT_TRUE(dst.load_from(in).is_success());
    EXPECT_EQ(calls, 0);
    EXPECT_EQ(dst.w.val().to_vec<float>(), (std::vector<float>{9, 8, 7, 6, 5, 4}));
    EXPECT_EQ(calls, 0);
}

TEST(LazyParam, AnInitOfTheWrongShapeIsAnError) {
    int calls = 0;
    auto p = lazy(calls, {3, 2});
    try {
        (void)p.val();
        FAIL() << "the init's [2, 3] was accepted for [3, 2]";
    } catch (const Error& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find("[Param::uninitialized]"), std::string::npos) << msg;
        EXPECT_NE(msg.find("[3, 2]"), std::string::npos) << msg;
    }
}

}  // namespace lazy_param_test
