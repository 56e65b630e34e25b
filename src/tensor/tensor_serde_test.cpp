// Tensors as JSON (tensor/serde.hpp): the exact text for small tensors of each kind, bit-exact round
// trips for every dtype (NaN, infinities, i64 beyond 2^53, f16/bf16), a TensorData config field, errors.
#include <gtest/gtest.h>

#include <burn/burn.hpp>
#include <burn/tensor/serde.hpp>
#include <cmath>
#include <limits>

using namespace burn;

namespace tensor_serde_test {

struct Calib {
    std::string name;
    TensorData table;
    BURN_CONFIG(Calib, name, table)
};

TEST(TensorSerde, TextOfEachKindIsExact) {
    const auto f = Tensor<2>::from_floats({{0.1, -2.0, 1e-7}, {3.5, 100.0, 0.0}}, Device::cpu());
    EXPECT_EQ(tensor_to_json_string(f),
              R"({"shape":[2,3],"dtype":"f32","data":[0.1,-2.0,1e-07,3.5,100.0,0.0]})");
    const auto i = Tensor<1, Int>::from_ints({-3, 0, 42}, Device::cpu());
    EXPECT_EQ(tensor_to_json_string(i), R"({"shape":[3],"dtype":"i32","data":[-3,0,42]})");
    const auto b = Tensor<1, Bool>::from_bool({true, false}, Device::cpu());
    EXPECT_EQ(tensor_to_json_string(b), R"({"shape":[2],"dtype":"bool","data":[true,false]})");
    const auto back = tensor_from_json_string<2>(tensor_to_json_string(f));
    EXPECT_EQ(back.to_data(), f.to_data());
}

TEST(TensorSerde, EveryDtypeRoundTripsBitForBit) {
    const double inf = std::numeric_limits<double>::infinity();
    const TensorData floats(std::vector<double>{1.0 / 3.0, -0.0, std::nan(""), inf, -inf, 1e300}, Dims{2, 3});
    for (DType t : {DType::f64, DType::f32, DType::f16, DType::bf16}) {
        const TensorData d = floats.convert(t);
        const TensorData back = tensor_data_from_json_string(tensor_to_json_string(d, 2));
        EXPECT_EQ(back.dtype(), t);
        EXPECT_EQ(back.shape(), d.shape());
        EXPECT_EQ(back.bytes(), d.bytes()) << name(t);
    }
    const TensorData big(std::vector<int64_t>{(int64_t{1} << 53) + 1, std::numeric_limits<int64_t>::min()});
    EXPECT_EQ(tensor_data_from_json_string(tensor_to_json_string(big)), big);
    for (DType t : {DType::i32, DType::i16, DType::i8, DType::u8}) {
        const TensorData d = TensorData(std::vector<int32_t>{-7, 0, 100}).convert(t);
        EXPECT_EQ(tensor_data_from_json_string(tensor_to_json_string(d)), d) << name(t);
    }
}

TEST(TensorSerde, ConfigFieldsAndErrors) {
    Calib c{"gain", TensorData(std::vector<float>{0.5f, 2.0f})};
    const Calib back = Calib::from_json_string(c.to_json_string());
    EXPECT_EQ(back.table, c.table);
    EXPECT_THROW(tensor_data_from_json_string(R"({"shape":[3],"dtype":"f32","data":[1,2]})"), ShapeError);
    EXPECT_THROW(tensor_data_from_json_string(R"({"shape":[1],"dtype":"i32","data":[1.5]})"), DTypeError);
    EXPECT_THROW(tensor_data_from_json_string(R"({"shape":[1],"dtype":"q8","data":[1]})"), Error);
    EXPECT_THROW(tensor_data_from_json_string(R"({"shape":[1],"data":[1]})"), Error);
}

}  // namespace tensor_serde_test
