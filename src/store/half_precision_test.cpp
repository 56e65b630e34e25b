// HalfPrecisionAdapter: float32 saved as f16/bf16 (half the bytes), read back as float32 even under
// DTypePolicy::strict, the path filter, and an overflow that fails the save instead of writing inf.
#include <gtest/gtest.h>

#include "burn/burn.hpp"
#include "store/store_test_util.hpp"

namespace burn::store::half_precision_test {

using burn::store::testing::expect_error;

struct Net {
    nn::Linear a, b;
    BURN_MODULE(Net, a, b)
};

Net make_net() {
    Device d;
    return Net{nn::LinearConfig{64, 48}.init(d), nn::LinearConfig{48, 16}.init(d)};  // 3,904 values
}

/// w's values rounded to the half dtype and widened back.
std::vector<float> rounded(const Tensor<2>& w, DType half) {
    return ops::into_data(ops::cast(ops::cast(w.handle(), half), DType::f32)).to_vec<float>();
}

TEST(HalfPrecisionAdapter, SavesHalfAndLoadsFloat32Strictly) {
    for (DType half : {DType::f16, DType::bf16}) {
        Net src = make_net();
        auto adapter = std::make_shared<HalfPrecisionAdapter>(half);
        auto full = SafetensorsStore::in_memory();
        src.save_into(full);
        auto mem = SafetensorsStore::in_memory().with_save_adapter(adapter);
        src.save_into(mem);
        for (const auto& e : SafetensorsStore::from_bytes(mem.bytes()).entries())
            EXPECT_EQ(e.dtype, half) << e.name;
        EXPECT_LT(mem.bytes().size(),
                  full.bytes().size() * 6 / 10);  // 2 of 4 bytes per value, plus the header

        Net dst = make_net();
        auto in = SafetensorsStore::from_bytes(mem.bytes())
                      .with_load_adapter(adapter)
                      .dtype_policy(DTypePolicy::strict);
        auto r = dst.load_from(in);
        ASSERT_TRUE(r.is_success()) << r;
        EXPECT_EQ(dst.a.weight.val().dtype(), DType::f32);
        // The values are float32's rounded to the half dtype, and only that.
        EXPECT_EQ(dst.a.weight.val().into_data().to_vec<float>(), rounded(src.a.weight.val(), half));
        EXPECT_EQ(dst.b.weight.val().into_data().to_vec<float>(), rounded(src.b.weight.val(), half));
        // Without the adapter a strict load refuses the half tensors.
        Net strict = make_net();
        auto plain = SafetensorsStore::from_bytes(mem.bytes()).dtype_policy(DTypePolicy::strict);
        expect_error([&] { strict.load_from(plain); }, "dtype mismatch");
    }
}

TEST(HalfPrecisionAdapter, FilterAndOverflow) {
    Net src = make_net();
    PathFilter only_a;
    only_a.with_regex("^a\\.");
    auto mem = SafetensorsStore::in_memory().with_save_adapter(
        std::make_shared<HalfPrecisionAdapter>(DType::f16, only_a));
    src.save_into(mem);
    for (const auto& e : SafetensorsStore::from_bytes(mem.bytes()).entries())
        EXPECT_EQ(e.dtype, e.name.rfind("a.", 0) == 0 ? DType::f16 : DType::f32) << e.name;

    // 1e5 is past f16's 65504: the save fails naming the tensor instead of writing inf; bf16 holds it.
    Net big = make_net();
    big.b.bias->set(big.b.bias->val() + 1e5);
    auto f16_store =
        SafetensorsStore::in_memory().with_save_adapter(std::make_shared<HalfPrecisionAdapter>());
    expect_error([&] { big.save_into(f16_store); }, "b.bias");
    auto bf16_store =
        SafetensorsStore::in_memory().with_save_adapter(std::make_shared<HalfPrecisionAdapter>(DType::bf16));
    big.save_into(bf16_store);
    EXPECT_THROW(HalfPrecisionAdapter{DType::f64}, Error);
}

}  // namespace burn::store::half_precision_test
