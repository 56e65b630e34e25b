// Shapes whose element or byte count overflows int64 are a burn::ShapeError where they are made
// (creation, views, broadcasts, matmul/conv/pool outputs, cat/stack/repeat, TensorData), naming the op
// and the shape; before, the count wrapped and a following sum() read out of bounds.
#include <gtest/gtest.h>

#include <burn/burn.hpp>
#include <string>

namespace burn {
namespace {

constexpr int64_t k32 = int64_t(1) << 32;
constexpr int64_t k62 = int64_t(1) << 62;

/// Runs f, expects a ShapeError whose message contains every needle.
template <class F>
void expect_shape_error(F&& f, std::initializer_list<const char*> needles) {
    try {
        f();
        ADD_FAILURE() << "no error";
    } catch (const ShapeError& e) {
        const std::string what = e.what();
        for (const char* n : needles) EXPECT_NE(what.find(n), std::string::npos) << n << " not in: " << what;
    }
}

Shape<1> s1(int64_t a) {
    return {static_cast<std::size_t>(a)};
}
Shape<2> s2(int64_t a, int64_t b) {
    return {static_cast<std::size_t>(a), static_cast<std::size_t>(b)};
}

TEST(ShapeOverflow, CreationRejectsOverflowingCounts) {
    expect_shape_error([] { (void)Tensor<2>::zeros(s2(k32, k32)).sum(); },
                       {"[full]", "[4294967296, 4294967296]"});
    expect_shape_error([] { (void)Tensor<2>::ones(s2(3, k62)).sum(); },
                       {"[full]", "[3, 4611686018427387904]"});
    expect_shape_error([] { (void)Tensor<2>::full(s2(k32, k32), 2.0); }, {"[full]"});
    expect_shape_error([] { (void)Tensor<2>::empty(s2(k32, k32)); }, {"[full]"});
    expect_shape_error([] { (void)Tensor<2>::random(s2(k32, k32), Distribution::Default); }, {"[random]"});
    // The element count fits, the f32 byte count does not.
    expect_shape_error([] { (void)Tensor<1>::zeros(s1(k62)); }, {"[full]", "byte count"});
    expect_shape_error([] { (void)Tensor<1, Int>::arange(INT64_MIN, INT64_MAX); }, {"[arange]"});
    expect_shape_error([] { (void)Tensor<1, Int>::arange_step(-k62, k62, 1); }, {"[arange]"});
}

TEST(ShapeOverflow, WideArangeStepsCountRight) {
    // end - start overflows int64; the count (3) does not.
    auto r = ops::arange(INT64_MIN + 1, INT64_MAX, INT64_MAX, DType::f64, Device());
    EXPECT_EQ(r.shape()[0], 2);  // INT64_MIN + 1, 0
    auto s = ops::arange(INT64_MAX, INT64_MIN, -(int64_t(1) << 62), DType::f64, Device());
    EXPECT_EQ(s.shape()[0], 4);  // ceil((2^64 - 1) / 2^62)
    // Integer ranges whose values the dtype cannot hold are refused, not wrapped (UBSan: the kernel's
    // double -> int conversion was undefined for them).
    EXPECT_THROW((void)(Tensor<1, Int>::arange_step(INT64_MIN + 1, INT64_MAX, INT64_MAX, Device())), Error);
    const int64_t big_step = -(int64_t(1) << 62);
    EXPECT_THROW((void)ops::arange(INT64_MAX, INT64_MIN, big_step, DType::i64, Device()), Error);
    auto ok = ops::arange(-3, 3, 2, DType::i8, Device());
    EXPECT_EQ(ops::into_data(ok).to_vec<int8_t>(), (std::vector<int8_t>{-3, -1, 1}));
}

TEST(ShapeOverflow, TensorDataAndFromDataRejectOverflowingShapes) {
    expect_shape_error(
        [] {
            TensorData d(std::vector<uint8_t>{}, Dims{k32, k32}, DType::f32);
        },
        {"[TensorData]"});
    expect_shape_error(
        [] {
            TensorData d(std::vector<uint8_t>{}, Dims{k62, 4}, DType::u8);
        },
        {"[TensorData]"});
    expect_shape_error([] { TensorData d(std::vector<float>{}, Dims{k32, k32, 0}); }, {"[TensorData]"});
    EXPECT_THROW((void)Dims({k32, k32}).numel(), ShapeError);
}

TEST(ShapeOverflow, ViewsAndBroadcastsRejectOverflowingShapes) {
    auto one = Tensor<2>::ones({1, 1});
    expect_shape_error([&] { (void)one.expand(s2(k32, k32)).sum(); },
                       {"[expand]", "[4294967296, 4294967296]"});
    auto empty = Tensor<1>::zeros({0});
    expect_shape_error([&] { (void)empty.reshape<3>({k32, k32, 0}); }, {"[reshape]"});
    auto four = Tensor<1>::ones({4});
    expect_shape_error([&] { (void)four.reshape<3>({-1, k62, k62}); }, {"[reshape]"});
    // [2^32, 1] + [1, 2^32] (two views) broadcasts to 2^64 elements.
    auto col = one.expand(s2(k32, 1)), row = one.expand(s2(1, k32));
    expect_shape_error([&] { (void)(col + row).sum(); }, {"[4294967296, 4294967296]"});
    expect_shape_error([&] { (void)col.matmul(row); }, {"[matmul]", "[4294967296, 4294967296]"});
}

TEST(ShapeOverflow, CatStackRepeatRejectOverflowingSizes) {
    auto big = Tensor<1, Int>::ones({1}, Device(), DType::i8).expand(s1(k62));
    expect_shape_error([&] { (void)Tensor<1, Int>::cat({big, big}, 0); }, {"[cat]"});
    // stack makes a contiguous [1, 2^62] copy of each view first: too large for memory, an error too.
    EXPECT_THROW((void)(Tensor<1, Int>::stack({big, big, big, big}, 0)), Error);
    expect_shape_error([&] { (void)big.repeat_dim(0, 4); }, {"[repeat_dim]"});
    expect_shape_error([&] { (void)Tensor<1, Int>::ones({4}).one_hot(k62); }, {"4611686018427387904"});
}

TEST(ShapeOverflow, ConvAndPoolOutputSizesDoNotWrap) {
    auto x = Tensor<4>::ones({1, 1, 4, 4}), w = Tensor<4>::ones({1, 1, 1, 1});
    ConvOptions<2> pad;
    pad.padding = {std::size_t(k62), std::size_t(k62)};
    expect_shape_error([&] { (void)tensor::module::conv2d(x, w, std::nullopt, pad); },
                       {"conv2d", "overflows"});
    ConvTransposeOptions<2> stride;
    stride.stride = {std::size_t(k62), 1};
    EXPECT_THROW((void)tensor::module::conv_transpose2d(x, w, std::nullopt, stride), Error);
    // dilation * (kernel - 1) overflows int64: an error, not a wrapped window.
    EXPECT_THROW((void)tensor::module::max_pool2d(x, {std::size_t(k62), 1}, {1, 1}, {0, 0}, {8, 1}), Error);
    EXPECT_THROW((void)ops::pixel_shuffle(x.handle(), std::size_t(k62)), Error);
}

// In a 32-bit address space (wasm32) a count that fits int64 can still exceed what size_t holds: a
// tensor of 16 GiB is refused there, not allocated with a wrapped byte count.
TEST(ShapeOverflow, MoreBytesThanTheAddressSpaceHoldsIsAnError) {
    if (sizeof(std::size_t) >= 8) GTEST_SKIP() << "a 64-bit address space: the int64 checks above come first";
    try {
        (void)Tensor<2>::zeros({65536, 65536});
        ADD_FAILURE() << "no error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("-bit address space holds"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace burn
