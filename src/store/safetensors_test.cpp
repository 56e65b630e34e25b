// SafetensorsStore: bit-exact round trips for every dtype, files written by hand in Python (the
// fixture script), metadata, the PyTorch-compatible writer, hostile headers and random mutations.
#include "store/safetensors_format.hpp"
#include "store/store_test_util.hpp"

namespace burn::store {
namespace {

using testing::expect_error;
using testing::TempFile;

const DType kAll[] = {DType::f32, DType::f64, DType::f16, DType::bf16, DType::i64,
                      DType::i32, DType::i16, DType::i8,  DType::u8,   DType::boolean};

TEST(SafetensorsStore, RoundTripEveryDtypeBitExact) {
    std::mt19937 rng(1);
    std::map<std::string, TensorAny> tensors;
    for (DType d : kAll)
        tensors[std::string(name(d))] = ops::from_data(testing::random_data(d, {3, 7}, rng), Device());
    tensors["empty"] = ops::from_data(testing::random_data(DType::f32, {0, 5}, rng), Device());
    tensors["scalar"] = ops::from_data(testing::random_data(DType::f64, Dims(), rng), Device());

    TempFile file("all.safetensors");
    SafetensorsStore out(file.path);
    out.metadata("format", "pt");
    out.save_tensors(tensors);
    SafetensorsStore in(file.path);
    auto back = in.load_tensors();
    ASSERT_EQ(back.size(), tensors.size());
    for (const auto& [k, t] : tensors) {
        EXPECT_EQ(back[k].dtype(), t.dtype()) << k;
        EXPECT_EQ(back[k].shape(), t.shape()) << k;
        EXPECT_EQ(testing::bytes_of(back[k]), testing::bytes_of(t)) << k;
    }
    EXPECT_EQ(in.read_metadata().at("format"), "pt");
    // The header is padded so that the data section starts on an 8-byte boundary.
    auto bytes = testing::read_bytes(file.path);
    uint64_t n;
    std::memcpy(&n, bytes.data(), 8);
    EXPECT_EQ(n % 8, 0u);
}

TEST(SafetensorsStore, ReadsFilesWrittenByPython) {
    SafetensorsStore st(testing::fixture("dtypes.safetensors"));
    auto t = st.load_tensors();
    EXPECT_EQ(t.size(), 12u);
    EXPECT_EQ(ops::into_data(t["i64"]).to_vec<int64_t>(),
              (std::vector<int64_t>{-(int64_t{1} << 62), -1, 0, (int64_t{1} << 62) + 3}));
    EXPECT_EQ(ops::into_data(t["u8"]).to_vec<uint8_t>(), (std::vector<uint8_t>{0, 1, 255}));
    EXPECT_EQ(ops::into_data(t["bool"]).to_vec<bool>(), (std::vector<bool>{true, false, true, true}));
    EXPECT_EQ(t["bf16"].dtype(), DType::bf16);
    EXPECT_EQ(t["scalar"].rank(), 0);
    EXPECT_EQ(ops::into_data(t["scalar"]).to_vec<float>(), std::vector<float>{2.5f});
    EXPECT_EQ(t["empty"].shape(), (Dims{0, 3}));
    EXPECT_EQ(ops::into_data(t["i32"]).to_vec<int32_t>(), (std::vector<int32_t>{INT32_MIN, 7, INT32_MAX, 0}));
}

struct Lin {
    Param<Tensor<2>> weight;
    Param<Tensor<1>> bias;
    BURN_MODULE(Lin, weight, bias)
};

TEST(SafetensorsStore, DTypeConversionOnLoad) {
    std::vector<float> wv = {0.5f, -1.25f, 3.0f, 0.0f, 1e-3f, 7.0f};
    auto mem = SafetensorsStore::in_memory();
    mem.save_tensors({{"weight", ops::cast(ops::from_data(TensorData(wv, Dims{2, 3}), Device()), DType::f16)},
                      {"bias", ops::cast(ops::from_data(TensorData(std::vector<double>{1.5, -2.0}), Device()),
                                         DType::f64)}});
    Lin m{Tensor<2>::zeros({2, 3}), Tensor<1>::zeros({2})};
    auto in = SafetensorsStore::from_bytes(mem.bytes());
    auto r = m.load_from(in);
    EXPECT_TRUE(r.is_success()) << r;
    EXPECT_EQ(m.weight.val().dtype(), DType::f32);
    EXPECT_EQ(m.weight.val().into_data().to_vec<float>(),
              (std::vector<float>{0.5f, -1.25f, 3.0f, 0.0f, static_cast<float>(f16(1e-3f)), 7.0f}));
    EXPECT_EQ(m.bias.val().into_data().to_vec<float>(), (std::vector<float>{1.5f, -2.0f}));

    Lin strict_target{Tensor<2>::zeros({2, 3}), Tensor<1>::zeros({2})};
    auto strict = SafetensorsStore::from_bytes(mem.bytes()).dtype_policy(DTypePolicy::strict);
    expect_error([&] { strict_target.load_from(strict); }, "dtype mismatch");
    EXPECT_EQ(strict_target.bias.val().into_data().to_vec<float>(), (std::vector<float>{0.0f, 0.0f}));
}

TEST(SafetensorsStore, IntegerIntoFloatNeedsCastAny) {
    auto mem = SafetensorsStore::in_memory();
    mem.save_tensors(
        {{"weight", ops::from_data(TensorData(std::vector<int32_t>{1, 2, 3, 4, 5, 6}, Dims{2, 3}), Device())},
         {"bias", ops::from_data(TensorData(std::vector<float>{1, 2}), Device())}});
    Lin m{Tensor<2>::zeros({2, 3}), Tensor<1>::zeros({2})};
    auto in = SafetensorsStore::from_bytes(mem.bytes());
    expect_error([&] { m.load_from(in); }, "dtype mismatch: the module expects f32, the file has i32");
    auto any = SafetensorsStore::from_bytes(mem.bytes()).dtype_policy(DTypePolicy::cast_any);
    EXPECT_TRUE(m.load_from(any).is_success());
    EXPECT_EQ(m.weight.val().into_data().to_vec<float>(), (std::vector<float>{1, 2, 3, 4, 5, 6}));
}

std::vector<uint8_t> file_with_header(const std::string& header, std::size_t data_bytes) {
    std::vector<uint8_t> out(8 + header.size() + data_bytes, 0);
    uint64_t n = header.size();
    std::memcpy(out.data(), &n, 8);
    std::memcpy(out.data() + 8, header.data(), header.size());
    return out;
}

void expect_rejected(const std::vector<uint8_t>& bytes, const std::string& text) {
    expect_error([&] { detail::parse_safetensors(bytes.data(), bytes.size(), Limits()); }, text);
}

TEST(SafetensorsStore, RejectsHostileFiles) {
    auto good = testing::read_bytes(testing::fixture("mlp.safetensors"));
    for (std::size_t n = 0; n < good.size(); n += 3) {
        std::vector<uint8_t> cut(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(n));
        EXPECT_THROW(detail::parse_safetensors(cut.data(), cut.size(), Limits()), Error)
            << "truncated at " << n;
    }
    auto absurd = good;
    for (int i = 0; i < 8; ++i) absurd[static_cast<std::size_t>(i)] = 0xff;
    expect_rejected(absurd, "exceeds the limit");
    expect_rejected(file_with_header("[1,2]   ", 0), "does not start with '{'");
    expect_rejected(file_with_header("{\"a\":", 0), "corrupt JSON header");
    expect_rejected(file_with_header(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})", 4),
                    "truncated");
    expect_rejected(file_with_header(R"({"a":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}})", 8),
                    "needs 12 bytes");
    expect_rejected(file_with_header(R"({"a":{"dtype":"F32","shape":[-3],"data_offsets":[0,8]}})", 8),
                    "is not a non-negative integer");
    expect_rejected(file_with_header(R"({"a":{"dtype":"Q9","shape":[2],"data_offsets":[0,8]}})", 8),
                    "unknown dtype");
    expect_rejected(file_with_header(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[8,0]}})", 8),
                    "spans bytes");
    expect_rejected(
        file_with_header(R"({"a":{"dtype":"F32","shape":[4294967296,4294967296,4294967296]},"x":1})", 8),
        "overflows");
    expect_rejected(file_with_header(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                                     R"("b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}})",
                                     12),
                    "overlap");
    std::string deep = "{\"x\":" + std::string(1000, '[') + std::string(1000, ']') + "}";
    expect_rejected(file_with_header(deep, 0), "nesting deeper");
}

TEST(SafetensorsStore, UnsupportedDtypeOnlyFailsWhenLoaded) {
    auto bytes = file_with_header(R"({"odd":{"dtype":"U32","shape":[2],"data_offsets":[0,8]},)"
                                  R"("weight":{"dtype":"F32","shape":[1,1],"data_offsets":[8,12]},)"
                                  R"("bias":{"dtype":"F32","shape":[1],"data_offsets":[12,16]}})",
                                  16);
    Lin m{Tensor<2>::zeros({1, 1}), Tensor<1>::zeros({1})};
    auto in = SafetensorsStore::from_bytes(bytes);
    auto r = m.load_from(in);
    EXPECT_TRUE(r.is_success()) << r;
    EXPECT_EQ(r.unused, std::vector<std::string>{"odd"});
    auto only = SafetensorsStore::from_bytes(bytes).with_key_remapping("^odd$", "bias");
    expect_error([&] { m.load_from(only); }, "U32");
}

TEST(SafetensorsStore, FuzzedFilesNeverCrash) {
    const auto good = testing::read_bytes(testing::fixture("dtypes.safetensors"));
    std::mt19937 rng(77);
    int parsed = 0;
    for (int i = 0; i < 600; ++i) {
        auto bytes = testing::mutate(good, rng);
        try {
            auto store = SafetensorsStore::from_bytes(bytes);
            for (const auto& e : store.entries())
                if (e.read) e.read();
            ++parsed;
        } catch (const Error&) {
        }
    }
    EXPECT_GT(parsed, 0);
}

}  // namespace
}  // namespace burn::store
