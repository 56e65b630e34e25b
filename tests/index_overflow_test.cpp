// Index, slice, step and narrow arithmetic never wraps, and int values are never truncated:
// from_ints refused values that do not fit (2^40 became 0 in i32), select(INT64_MAX) reported
// "index -1", slice with step INT64_MAX gave a dimension of 2^64 - 1.
#include <gtest/gtest.h>

#include <burn/burn.hpp>
#include <climits>
#include <string>

namespace burn {
namespace {

std::string error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const Error& e) {
        return e.what();
    }
    return "(no error)";
}

TEST(FromInts, ValuesThatDoNotFitTheDtypeAreAnError) {
    const int64_t big = (int64_t(1) << 40) + 7;
    EXPECT_THROW((void)(Tensor<1, Int>::from_ints({1, big})), DTypeError);
    const std::string what = error_of([&] { (void)Tensor<2, Int>::from_ints({{1, 2}, {3, big}}); });
    EXPECT_NE(what.find("[from_ints] value 1099511627783 (element 3) does not fit i32"), std::string::npos)
        << what;
    EXPECT_NE(what.find("DType::i64"), std::string::npos) << what;
    EXPECT_THROW((void)(Tensor<1, Int>::from_ints({INT64_MIN})), DTypeError);
    EXPECT_THROW((void)(Tensor<1, Int>::from_ints({256}, Device(), DType::u8)), DTypeError);
    EXPECT_THROW((void)(Tensor<1, Int>::from_ints({-1}, Device(), DType::u8)), DTypeError);
    EXPECT_THROW((void)(Tensor<1, Int>::from_ints({1}, Device(), DType::f32)), DTypeError);
}

TEST(FromInts, KeepsI32ByDefaultAndI64OnRequest) {
    auto small = Tensor<1, Int>::from_ints({INT32_MIN, -1, INT32_MAX});
    EXPECT_EQ(small.dtype(), DType::i32);
    EXPECT_EQ(small.to_vec<int32_t>(), (std::vector<int32_t>{INT32_MIN, -1, INT32_MAX}));
    const int64_t big = (int64_t(1) << 40) + 7;
    auto wide = Tensor<1, Int>::from_ints({big, INT64_MIN, INT64_MAX}, Device(), DType::i64);
    EXPECT_EQ(wide.dtype(), DType::i64);
    EXPECT_EQ(wide.to_vec<int64_t>(), (std::vector<int64_t>{big, INT64_MIN, INT64_MAX}));
}

TEST(IndexOverflow, SelectReportsTheRealIndex) {
    auto x = Tensor<2>::ones({3, 2});
    auto idx = Tensor<1, Int>::from_ints({0, INT64_MAX}, Device(), DType::i64);
    const std::string what = error_of([&] { (void)x.select(0, idx).sum().into_scalar(); });
    EXPECT_NE(what.find("9223372036854775807"), std::string::npos) << what;
    EXPECT_EQ(what.find("index -1"), std::string::npos) << what;
}

TEST(IndexOverflow, SliceWithHugeStepsHasTheRightLength) {
    auto x = Tensor<1>::from_floats({0, 1, 2, 3, 4});
    auto a = x.slice({{0, 2, INT64_MAX}});
    ASSERT_EQ(a.dims()[0], 1u);
    EXPECT_EQ(a.to_vec(), std::vector<float>{0});
    auto b = x.slice({{0, 5, INT64_MIN}});  // a negative step walks [0, 5) backwards
    ASSERT_EQ(b.dims()[0], 1u);
    EXPECT_EQ(b.to_vec(), std::vector<float>{4});
    auto c = x.slice({{1, 5, INT64_MAX - 1}});
    EXPECT_EQ(c.to_vec(), std::vector<float>{1});
    auto d = x.slice({{0, std::nullopt, 3}});
    EXPECT_EQ(d.to_vec(), (std::vector<float>{0, 3}));
    // 2-D: a one-element dim with a huge step times a large stride must not wrap the view's stride.
    auto m = Tensor<2>::from_floats({{1, 2}, {3, 4}, {5, 6}});
    EXPECT_EQ(m.slice({{1, 3, INT64_MAX}}).to_vec(), (std::vector<float>{3, 4}));
}

TEST(IndexOverflow, ExtremeIndicesAreErrorsNamingThem) {
    auto x = Tensor<1>::from_floats({0, 1, 2});
    std::string what = error_of([&] { (void)x.slice({INT64_MAX}); });
    EXPECT_NE(what.find("index 9223372036854775807"), std::string::npos) << what;
    what = error_of([&] { (void)x.slice({INT64_MIN}); });
    EXPECT_NE(what.find("index -9223372036854775808"), std::string::npos) << what;
    EXPECT_THROW((void)(x.slice({{INT64_MIN, INT64_MAX}})), IndexError);
    EXPECT_THROW((void)(x.slice({{0, INT64_MIN}})), IndexError);
    what = error_of([&] { (void)x.narrow(0, 1, INT64_MAX); });
    EXPECT_NE(what.find("length 9223372036854775807"), std::string::npos) << what;
    EXPECT_THROW((void)(x.narrow(0, INT64_MIN, 1)), IndexError);
    EXPECT_THROW((void)(x.narrow(0, INT64_MAX, 1)), IndexError);
    EXPECT_THROW((void)(x.narrow(INT64_MIN, 0, 1)), IndexError);
    EXPECT_EQ(x.narrow(0, -1, 1).to_vec(), std::vector<float>{2});
}

TEST(IndexOverflow, SplitAndChunkWithHugeSizes) {
    auto x = Tensor<1>::from_floats({0, 1, 2});
    auto parts = x.split(INT64_MAX, 0);
    ASSERT_EQ(parts.size(), 1u);
    EXPECT_EQ(parts[0].dims()[0], 3u);
    auto chunks = x.chunk(INT64_MAX, 0);
    EXPECT_EQ(chunks.size(), 3u);
}

}  // namespace
}  // namespace burn
