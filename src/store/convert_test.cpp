// Dtype conversion on load never loses values silently (issue 13): an int64 of 2^40 + 7 into an i32
// module, a finite f64 that overflows f16, a non-integral float into an int, a 2 into bool all fail
// the load with an error naming the tensor and the element, and leave the module as it was; in every
// store (Burnpack, SafeTensors, PyTorch).
#include "store/convert.hpp"

#include <cmath>

#include "store/store_test_util.hpp"

namespace burn::store {
namespace {

using testing::expect_error;

struct Ints {
    Buffer<Tensor<1, Int>> idx;  // i32 (the Int default)
    Buffer<Tensor<1>> w;         // f16 in Halves below
    BURN_MODULE(Ints, idx, w)
};

Ints make_ints(DType w_dtype = DType::f32) {
    return Ints{Tensor<1, Int>::from_data(TensorData(std::vector<int32_t>{-1, -2, -3})),
                Tensor<1>(ops::cast(Tensor<1>::zeros({2}).handle(), w_dtype))};
}

TensorAny tensor(const TensorData& d) {
    return ops::from_data(d, Device());
}

const int64_t kBig = (int64_t{1} << 40) + 7;

std::map<std::string, TensorAny> big_ints() {
    return {{"idx", tensor(TensorData(std::vector<int64_t>{1, kBig, 3}))},
            {"w", tensor(TensorData(std::vector<float>{1, 2}))}};
}

void expect_untouched(const Ints& m) {
    EXPECT_EQ(m.idx.val().into_data().to_vec<int32_t>(), (std::vector<int32_t>{-1, -2, -3}));
    EXPECT_EQ(m.w.val().into_data().convert(DType::f32).to_vec<float>(), (std::vector<float>{0, 0}));
}

TEST(LoadConversion, Int64OutOfI32RangeFailsInBurnpack) {
    auto mem = BurnpackStore::in_memory();
    // A Burnpack file holding i64 values: saved from a record (a module would hold i32).
    Record rec;
    for (auto& [k, t] : big_ints()) rec.tensors[k] = t;
    mem.save_record(rec);
    Ints m = make_ints();
    auto in = BurnpackStore::from_bytes(mem.bytes());
    expect_error([&] { m.load_from(in); },
                 "tensor 'idx': element 1 (value 1099511627783) of the file's i64 "
                 "does not fit (range -2147483648..2147483647) in the module's i32");
    expect_untouched(m);
}

TEST(LoadConversion, Int64OutOfI32RangeFailsInSafetensors) {
    auto mem = SafetensorsStore::in_memory();
    mem.save_tensors(big_ints());
    Ints m = make_ints();
    auto in = SafetensorsStore::from_bytes(mem.bytes());
    expect_error([&] { m.load_from(in); }, "element 1 (value 1099511627783)");
    expect_untouched(m);
    // Values that fit convert exactly.
    auto ok = SafetensorsStore::in_memory();
    ok.save_tensors({{"idx", tensor(TensorData(std::vector<int64_t>{INT32_MIN, 0, INT32_MAX}))},
                     {"w", tensor(TensorData(std::vector<float>{1, 2}))}});
    auto ok_in = SafetensorsStore::from_bytes(ok.bytes());
    EXPECT_TRUE(m.load_from(ok_in).is_success());
    EXPECT_EQ(m.idx.val().into_data().to_vec<int32_t>(), (std::vector<int32_t>{INT32_MIN, 0, INT32_MAX}));
}

struct I64Only {
    Buffer<Tensor<1, Int>> i64;  // i32 in the module, i64 (±2^62) in the fixture
    BURN_MODULE(I64Only, i64)
};

TEST(LoadConversion, Int64OutOfI32RangeFailsInPytorch) {
    I64Only m{Tensor<1, Int>::from_data(TensorData(std::vector<int32_t>{5, 5, 5, 5}))};
    auto in = PytorchStore(testing::fixture("dtypes_legacy.pt"));
    expect_error([&] { m.load_from(in); }, "tensor 'i64': element 0 (value -4611686018427387904)");
    EXPECT_EQ(m.i64.val().into_data().to_vec<int32_t>(), (std::vector<int32_t>{5, 5, 5, 5}));
}

TEST(LoadConversion, FiniteFloatOverflowingHalfFails) {
    for (DType half : {DType::f16, DType::bf16}) {
        auto mem = SafetensorsStore::in_memory();
        double huge = half == DType::f16 ? 70000.0 : 1e300;
        mem.save_tensors({{"idx", tensor(TensorData(std::vector<int32_t>{1, 2, 3}))},
                          {"w", tensor(TensorData(std::vector<double>{0.5, huge}))}});
        Ints m = make_ints(half);
        auto in = SafetensorsStore::from_bytes(mem.bytes());
        expect_error([&] { m.load_from(in); }, "tensor 'w': element 1 (value");
        expect_error([&] { m.load_from(in); },
                     "overflows to infinity in the module's " + std::string(name(half)));
        expect_untouched(m);
    }
    // f64 -> f32 overflow too; infinities and NaN already in the file stay what they are.
    auto mem = BurnpackStore::in_memory();
    Record rec;
    rec.tensors["idx"] = tensor(TensorData(std::vector<int32_t>{1, 2, 3}));
    rec.tensors["w"] = tensor(TensorData(std::vector<double>{1e39, 1}));
    mem.save_record(rec);
    Ints m = make_ints();
    auto in = BurnpackStore::from_bytes(mem.bytes());
    expect_error([&] { m.load_from(in); }, "overflows to infinity in the module's f32");
    TensorData inf(std::vector<double>{INFINITY, NAN});
    auto out = detail::convert_checked(inf, DType::f16, "w").convert(DType::f32).to_vec<float>();
    EXPECT_TRUE(std::isinf(out[0]));
    EXPECT_TRUE(std::isnan(out[1]));
}

TEST(LoadConversion, CastAnyRefusesValuesThatChange) {
    // float -> int: a non-integral value has no equal; an integral one converts exactly.
    auto mem = SafetensorsStore::in_memory();
    mem.save_tensors({{"idx", tensor(TensorData(std::vector<float>{1, 2.5f, 3}))},
                      {"w", tensor(TensorData(std::vector<float>{1, 2}))}});
    Ints m = make_ints();
    auto in = SafetensorsStore::from_bytes(mem.bytes()).dtype_policy(DTypePolicy::cast_any);
    expect_error([&] { m.load_from(in); }, "element 1 (value 2.5) of the file's f32 is not an integer");
    expect_untouched(m);
    EXPECT_EQ(
        detail::convert_checked(TensorData(std::vector<float>{-3, 4e9f}), DType::i64, "x").to_vec<int64_t>(),
        (std::vector<int64_t>{-3, 4000000000}));
    expect_error([] { detail::convert_checked(TensorData(std::vector<float>{3e9f}), DType::i32, "x"); },
                 "does not fit");
    expect_error([] { detail::convert_checked(TensorData(std::vector<double>{NAN}), DType::i64, "x"); },
                 "does not fit");
    expect_error([] { detail::convert_checked(TensorData(std::vector<double>{9.3e18}), DType::i64, "x"); },
                 "does not fit");
    // Signedness and bool.
    expect_error([] { detail::convert_checked(TensorData(std::vector<int8_t>{-1}), DType::u8, "x"); },
                 "range 0..255");
    expect_error([] { detail::convert_checked(TensorData(std::vector<uint8_t>{200}), DType::i8, "x"); },
                 "range -128..127");
    expect_error(
        [] {
            detail::convert_checked(TensorData(std::vector<int32_t>{0, 2}), DType::boolean, "x");
        },
        "range 0 or 1");
    EXPECT_EQ(
        detail::convert_checked(TensorData(std::vector<int32_t>{0, 1}), DType::boolean, "x").to_vec<bool>(),
        (std::vector<bool>{false, true}));
    // int -> float rounds to the nearest value (documented), except overflow to inf.
    EXPECT_EQ(
        detail::convert_checked(TensorData(std::vector<int64_t>{kBig}), DType::f32, "x").to_vec<float>(),
        (std::vector<float>{static_cast<float>(kBig)}));
    expect_error([] { detail::convert_checked(TensorData(std::vector<int32_t>{70000}), DType::f16, "x"); },
                 "overflows to infinity");
}

}  // namespace
}  // namespace burn::store
