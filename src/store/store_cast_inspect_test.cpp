// FloatCastAdapter (float tensors cast to one dtype on save and load), validate(false) (a same-rank
// shape mismatch loads the file's shape) and burnpack_inspect (the text listing of a Burnpack).
#include <gtest/gtest.h>

#include "burn/burn.hpp"
#include "burn/store/burnpack_inspect.hpp"
#include "store/store_test_util.hpp"

namespace burn::store::store_cast_inspect_test {

using burn::store::testing::expect_error;

struct Net {
    nn::Embedding embed;
    nn::Linear head;
    Param<Tensor<1, Int>> steps;  // an integer parameter: never cast
    BURN_MODULE(Net, embed, head, steps)
};

Net make_net(std::size_t vocab = 5) {
    Device d;
    return Net{nn::EmbeddingConfig{vocab, 3}.init(d), nn::LinearConfig{3, 2}.init(d),
               Param<Tensor<1, Int>>(Tensor<1, Int>::from_ints({7, 8}, d), ParamId::create(), false)};
}

TEST(FloatCastAdapter, SavesF64AndLoadsBackStrictlyWithExactValues) {
    Net src = make_net();
    auto mem = BurnpackStore::in_memory().with_save_adapter(std::make_shared<FloatCastAdapter>(DType::f64));
    src.save_into(mem);
    auto file = BurnpackStore::from_bytes(mem.bytes());
    for (const auto& e : file.entries()) {
        EXPECT_EQ(e.dtype, e.name == "steps" ? DType::i32 : DType::f64) << e.name;
        if (e.name == "head.weight") {
            // The reference: each float32 value widened to double on the host.
            std::vector<double> want;
            for (float v : src.head.weight.val().to_data().to_vec<float>())
                want.push_back(static_cast<double>(v));
            EXPECT_EQ(e.read().to_vec<double>(), want);
        }
    }
    Net dst = make_net();
    auto in = BurnpackStore::from_bytes(mem.bytes())
                  .with_load_adapter(std::make_shared<FloatCastAdapter>(DType::f32))
                  .dtype_policy(DTypePolicy::strict);
    ASSERT_TRUE(dst.load_from(in).is_success());
    EXPECT_EQ(dst.head.weight.val().to_data().to_vec<float>(),
              src.head.weight.val().to_data().to_vec<float>());
    // Strict without the adapter refuses the f64 file; an f16 cast of 1e5 overflows, naming the tensor.
    Net strict = make_net();
    auto plain = BurnpackStore::from_bytes(mem.bytes()).dtype_policy(DTypePolicy::strict);
    expect_error([&] { strict.load_from(plain); }, "dtype mismatch");
    src.head.bias->set(src.head.bias->val() + 1e5);
    auto f16 = BurnpackStore::in_memory().with_save_adapter(std::make_shared<FloatCastAdapter>(DType::f16));
    expect_error([&] { src.save_into(f16); }, "head.bias");
    EXPECT_THROW(FloatCastAdapter{DType::i32}, Error);
}

TEST(StoreValidate, OffLoadsTheFileShapeOfTheSameRank) {
    Net big = make_net(8);  // a grown vocabulary
    auto mem = BurnpackStore::in_memory();
    big.save_into(mem);
    Net dst = make_net(5);
    const auto before = dst.embed.weight.val().to_data().to_vec<float>();
    auto checked = BurnpackStore::from_bytes(mem.bytes());
    expect_error([&] { dst.load_from(checked); }, "validate(false)");
    EXPECT_EQ(dst.embed.weight.val().to_data().to_vec<float>(), before);  // a failed load changes nothing
    auto loose = BurnpackStore::from_bytes(mem.bytes()).validate(false);
    ASSERT_TRUE(dst.load_from(loose).is_success());
    EXPECT_EQ(dst.embed.weight.val().dims(), (Shape<2>{8, 3}));
    EXPECT_EQ(dst.embed.weight.val().to_data().to_vec<float>(),
              big.embed.weight.val().to_data().to_vec<float>());
}

TEST(BurnpackInspect, ListsTensorsTotalsScalarsAndMetadata) {
    Net src = make_net();
    auto mem = BurnpackStore::in_memory();
    mem.metadata("author", "test").scalar("epoch", int64_t{3});
    src.save_into(mem);
    auto in = BurnpackStore::from_bytes(mem.bytes());
    const std::string text = burnpack_inspect(in);
    // embed.weight [5, 3] f32: 15 elements, 60 bytes; head.weight 6 / 24; head.bias 2 / 8; steps 2 i32 / 8.
    EXPECT_NE(text.find("embed.weight  f32    [5, 3]            15          60"), std::string::npos) << text;
    EXPECT_NE(text.find("steps         i32    [2]               2           8"), std::string::npos) << text;
    EXPECT_NE(text.find("4 tensors, 25 elements, 100 bytes (100 B)"), std::string::npos) << text;
    EXPECT_NE(text.find("  epoch = i64 3"), std::string::npos) << text;
    EXPECT_NE(text.find("  author = test"), std::string::npos) << text;
    EXPECT_NE(text.find(std::to_string(src.head.weight.id().value())), std::string::npos) << text;
    auto bad = BurnpackStore::from_bytes({1, 2, 3});
    EXPECT_THROW(burnpack_inspect(bad), Error);
}

}  // namespace burn::store::store_cast_inspect_test
